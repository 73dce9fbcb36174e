#include "sandgate/path_meant.h"

#include <cctype>
#include <filesystem>
#include <string_view>
#include <system_error>
#include <vector>

#include "util/text.h"

namespace sandgate {
namespace {

namespace fs = std::filesystem;

// A directory this large is no place to guess in (and listing it would cost more than the hint).
constexpr std::size_t k_most_entries = 4096;

// Whether `a` and `b` differ in digits only (policy-v3.yaml, policy-v2.yaml): another version of a
// file, not a typo of its name.
bool differ_in_digits_only(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    bool digits = std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[i]));
    if (a[i] != b[i] && !digits) return false;
  }
  return true;
}

// The entry of `dir` that `name` most likely meant, or "".
std::string entry_meant(const fs::path& dir, const std::string& name) {
  std::error_code ec;
  std::vector<std::string> entries;
  fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec), end;
  for (; !ec && it != end && entries.size() < k_most_entries; it.increment(ec)) {
    entries.push_back(it->path().filename().string());
  }
  if (ec || entries.size() >= k_most_entries) return {};
  std::string meant = nearest_allowed(name, entries);
  return differ_in_digits_only(meant, name) ? std::string() : meant;
}

}  // namespace

std::string path_meant(const std::string& path) {
  if (path.empty() || path == "-") return {};
  std::error_code ec;
  if (fs::exists(path, ec)) return {};
  fs::path given(path), built;
  bool changed = false;
  for (const fs::path& part : given) {
    fs::path next = built / part;
    if (part == "/" || part == "." || part == ".." || fs::exists(next, ec)) {
      built = next;
      continue;
    }
    std::string meant = entry_meant(built, part.string());
    if (meant.empty()) return {};
    built /= meant;
    changed = true;
  }
  if (!changed || !fs::exists(built, ec)) return {};
  return built.string();
}

}  // namespace sandgate
