#include "rules/image_allowlists.h"

#include <vector>

#include "util/text.h"

namespace sandgate::rules {

namespace {

constexpr std::string_view k_spaces = " \t\n\r\f\v";

}  // namespace

// What the matcher compares (util/image): a registry prefix against an image's repository, which
// never holds a tag or digest; an allowed image against the reference's parts. No reference that
// can be pulled has a URL scheme or a space. "localhost:5000" alone is a registry with a port.
DeadEntry dead_image_entry(std::string_view entry, bool registry) {
  if (auto scheme = entry.find("://"); scheme != std::string_view::npos) {
    std::string_view rest = entry.substr(scheme + 3);
    while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
    DeadEntry inner = dead_image_entry(rest, registry);
    return {"image references have no URL scheme", inner.why.empty() ? std::string(rest) : inner.meant, inner.an_image};
  }
  std::size_t first = entry.find_first_not_of(k_spaces);
  if (first == std::string_view::npos) return {"it is blank", ""};
  std::string_view trimmed = entry.substr(first, entry.find_last_not_of(k_spaces) - first + 1);
  if (trimmed.find_first_of(k_spaces) != std::string_view::npos) return {"image references have no spaces", ""};
  if (trimmed.size() != entry.size()) return {"image references have no spaces", std::string(trimmed)};
  if (!registry) return {};
  if (auto at = entry.find('@'); at != std::string_view::npos) {
    return {"a registry prefix is matched against repositories, which have no digest", std::string(entry.substr(0, at)), true};
  }
  std::size_t slash = entry.rfind('/');
  std::size_t colon = entry.rfind(':');
  if (colon != std::string_view::npos && (slash == std::string_view::npos ? entry.find_first_not_of("0123456789", colon + 1) != std::string_view::npos
                                                                          : colon > slash)) {
    return {"a registry prefix is matched against repositories, which have no tag", std::string(entry.substr(0, colon)), true};
  }
  return {};
}

void check_image_allowlists(const model::Cursor& policy, DiagnosticSink& sink) {
  model::Cursor image = policy["constraints"]["image"];
  struct List {
    const char* name;
    bool registry;
  };
  for (const auto& [list, registry] : {List{"allowed_registries", true}, List{"allowed_images", false}}) {
    model::Cursor entries = image[list];
    if (!entries || !entries.node->is_array()) continue;
    struct Dead {
      model::Cursor at;
      DeadEntry why;
    };
    std::vector<Dead> dead;
    std::size_t usable = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      model::Cursor e = entries.at(i);
      if (!e.node->is_string()) continue;
      DeadEntry d = dead_image_entry(e.node->text, registry);
      if (d.why.empty()) {
        ++usable;
      } else {
        dead.push_back({std::move(e), std::move(d)});
      }
    }
    for (const Dead& d : dead) {
      std::string message = std::string(list) + " entry " + d.at.node->display() + " can match no image: " + d.why.why;
      if (usable == 0) {
        message += dead.size() == 1 ? "; it is the only entry, so no sandbox can pass"
                                    : "; no entry of " + std::string(list) + " can, so no sandbox can pass";
      }
      std::string hint = d.why.meant.empty() ? std::string("remove it") : "write " + quoted(d.why.meant);
      if (d.why.an_image) hint += ", or move the entry to allowed_images to allow that one image";
      sink.add(Code::IMAGE_ENTRY_UNMATCHABLE, d.at.path(), d.at.mark(), message, hint);
    }
  }
}

}  // namespace sandgate::rules
