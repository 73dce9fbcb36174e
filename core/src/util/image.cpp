#include "util/image.h"

namespace sandgate {

ImageRef parse_image(std::string_view ref) {
  ImageRef out;
  out.text = std::string(ref);
  if (auto at = ref.find('@'); at != std::string_view::npos) {
    out.digest = std::string(ref.substr(at + 1));
    ref = ref.substr(0, at);
  }
  auto slash = ref.rfind('/');
  auto colon = ref.rfind(':');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    out.tag = std::string(ref.substr(colon + 1));
    ref = ref.substr(0, colon);
  }
  std::string_view first = ref.substr(0, ref.find('/'));
  bool has_registry = ref.find('/') != std::string_view::npos &&
                      (first.find('.') != std::string_view::npos || first.find(':') != std::string_view::npos || first == "localhost");
  std::string repo = has_registry ? std::string(ref) : "docker.io/" + std::string(ref);
  if (repo.rfind("index.docker.io/", 0) == 0) repo = "docker.io/" + repo.substr(16);  // before adding library/
  if (repo.rfind("docker.io/", 0) == 0 && repo.find('/', 10) == std::string::npos) repo.insert(10, "library/");
  out.repository = std::move(repo);
  return out;
}

std::string registry_prefix(std::string_view entry) {
  while (!entry.empty() && entry.back() == '/') entry.remove_suffix(1);
  if (entry.empty()) return {};
  if (entry.find('/') == std::string_view::npos && entry.find('.') == std::string_view::npos && entry != "localhost") {
    return "docker.io/" + std::string(entry);  // "library" or an organisation on Docker Hub
  }
  return std::string(entry);
}

bool in_registry(std::string_view repository, std::string_view prefix) {
  if (prefix.empty()) return false;
  return repository == prefix || (repository.size() > prefix.size() && repository.compare(0, prefix.size(), prefix) == 0 &&
                                  repository[prefix.size()] == '/');
}

bool image_allowed(const ImageRef& image, const ImageRef& entry) {
  if (entry.repository != image.repository) return false;
  if (!entry.digest.empty()) return entry.digest == image.digest;
  if (!entry.tag.empty()) {
    std::string_view tag = image.tag.empty() && image.digest.empty() ? std::string_view("latest") : std::string_view(image.tag);
    return entry.tag == tag;
  }
  return true;
}

}  // namespace sandgate
