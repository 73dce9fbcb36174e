// The file a path that names nothing most likely meant: `examples/sandbox/prod-ok.yml` is
// `examples/sandboxes/prod-ok.yaml`. The command, the Python package and the Node package say it
// after "No such file or directory", so that a typo in a directory or an extension costs one look
// instead of an `ls` per level.
#pragma once

#include <string>

namespace sandgate {

// An existing path that differs from `path` (which does not exist) by a close spelling of some of
// its parts, each part the one entry of its directory that stands out (the spelling rules of the
// "did you mean" hints: case, a close spelling, the one name a part begins). Names that differ in
// digits only are other versions of a file, not typos. "" when there is none, when `path` exists,
// and for "-".
std::string path_meant(const std::string& path);

}  // namespace sandgate
