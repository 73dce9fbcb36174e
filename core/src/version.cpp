#include "sandgate/sandgate.h"

namespace sandgate {

const char* version() { return SANDGATE_VERSION; }

}  // namespace sandgate
