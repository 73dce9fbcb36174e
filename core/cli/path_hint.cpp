#include "path_hint.h"

#include <cerrno>
#include <cstring>

#include "cli.h"
#include "sandgate/path_meant.h"

namespace sandgate::cli {

std::string with_path_meant(std::string message, const std::string& path) {
  if (std::string meant = path_meant(path); !meant.empty()) message += "; did you mean " + display_name(meant) + "?";
  return message;
}

std::string open_failure(const std::string& path, int error_number) {
  std::string out = std::strerror(error_number);
  return error_number == ENOENT ? with_path_meant(std::move(out), path) : out;
}

}  // namespace sandgate::cli
