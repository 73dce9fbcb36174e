// The file a path that names nothing most likely meant: `examples/sandbox/prod-ok.yml` is
// `examples/sandboxes/prod-ok.yaml`. Said after "No such file or directory", so that a typo in a
// directory or an extension costs one look instead of an `ls` per level.
#pragma once

#include <string>

namespace sandgate::cli {

// An existing path that differs from `path` (which does not exist) by a close spelling of some of
// its parts, each part the one entry of its directory that stands out (spelling rules of
// nearest_allowed); "" when there is none.
std::string path_meant(const std::string& path);

// "No such file or directory; did you mean P?": the reason a path could not be opened, with the
// path meant when `error_number` is ENOENT and one stands out.
std::string open_failure(const std::string& path, int error_number);
// `message` about `path` (the core's "cannot read P: …"), with "; did you mean P?" when it names
// nothing and a path meant stands out.
std::string with_path_meant(std::string message, const std::string& path);

}  // namespace sandgate::cli
