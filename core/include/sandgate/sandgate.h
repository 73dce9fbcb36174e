// The one include a user of the sandgate library needs.
#pragma once

#include "sandgate/diagnostic.h"
#include "sandgate/document.h"
#include "sandgate/engine.h"
#include "sandgate/errors.h"
#include "sandgate/node.h"
#include "sandgate/policy.h"
#include "sandgate/quantity.h"
#include "sandgate/render.h"
#include "sandgate/result.h"

namespace sandgate {
// The library version ("0.1.0"), the same as the VERSION file, the Python and the Node package.
const char* version();
}  // namespace sandgate
