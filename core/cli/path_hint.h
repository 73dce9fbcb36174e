// "did you mean examples/sandboxes/prod-ok.yaml?" after a path that names nothing (the path meant:
// sandgate/path_meant.h).
#pragma once

#include <string>

namespace sandgate::cli {

// "No such file or directory; did you mean P?": the reason a path could not be opened, with the
// path meant when `error_number` is ENOENT and one stands out.
std::string open_failure(const std::string& path, int error_number);
// `message` about `path` (the core's "cannot read P: …"), with "; did you mean P?" when it names
// nothing and a path meant stands out.
std::string with_path_meant(std::string message, const std::string& path);

}  // namespace sandgate::cli
