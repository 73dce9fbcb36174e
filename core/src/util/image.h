// Container image references, normalised the Docker way (R-IMG): parsed once when a request or a
// policy is compiled, so matching an image against an allowlist compares strings only.
#pragma once

#include <string>
#include <string_view>

namespace sandgate {

struct ImageRef {
  std::string text;        // as written
  std::string repository;  // registry/path, e.g. docker.io/library/python
  std::string tag;         // "" when none
  std::string digest;      // "" when none
};

// No registry host → docker.io; one path component on Docker Hub → library/<name>. No default tag
// is added (an allowlist entry without a tag matches every tag).
ImageRef parse_image(std::string_view ref);

// An allowed_registries entry as a repository prefix: trailing '/' dropped, a bare Docker Hub
// organisation ("library", "acme") under docker.io/. "" when the entry can match nothing.
std::string registry_prefix(std::string_view entry);

// Segment-aware: "ghcr.io/acme" holds "ghcr.io/acme/x" but not "ghcr.io/acme-evil/x".
bool in_registry(std::string_view repository, std::string_view prefix);

// Whether `entry` (an allowed_images entry, parsed) allows `image`: same repository, and the
// entry's digest or tag when it has one (an untagged, undigested image is :latest).
bool image_allowed(const ImageRef& image, const ImageRef& entry);

}  // namespace sandgate
