// What the Python layer holds on to between calls: loaded inputs and results. All are plain values
// owning their data, so the engine can run on them with the GIL released.
#pragma once

#include <memory>

#include "sandgate/document.h"
#include "sandgate/engine.h"
#include "sandgate/policy.h"
#include "sandgate/result.h"

namespace sandgate::python {

// One request layer (sandbox, defaults or overrides), from text or from a Python value.
struct InputDocument {
  Document doc;
};

// A policy, runner inventory or org, loaded once. `value` is null when the input could not be read
// as a document at all; `diagnostics` then holds why.
template <typename T>
struct Loaded {
  std::shared_ptr<const T> value;
  Diagnostics diagnostics;
  std::string file;
};

using LoadedPolicy = Loaded<Policy>;
using LoadedRunners = Loaded<Runners>;
using LoadedOrg = Loaded<Org>;

struct CheckResult {
  Result result;
};

}  // namespace sandgate::python
