#include "rules/image_allowlists.h"

#include <algorithm>
#include <vector>

#include "util/text.h"

namespace sandgate::rules {

namespace {

// White space, by a comparison per character: find_first_of over a set calls memchr for each
// character, which made this check a thousand instructions an entry on every policy compile.
bool blank(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

}  // namespace

// What the matcher compares (util/image): a registry prefix against an image's repository, which
// never holds a tag or digest; an allowed image against the reference's parts. No reference that
// can be pulled has a URL scheme or a space. "localhost:5000" alone is a registry with a port.
DeadEntry dead_image_entry(std::string_view entry, bool registry) {
  // One pass over the entry (this runs for every entry of every policy compiled): where its
  // scheme, first digest mark, last slash and last colon are, and whether it has white space.
  constexpr std::size_t none = std::string_view::npos;
  std::size_t scheme = none, at = none, slash = none, colon = none;
  bool has_blank = false;
  for (std::size_t i = 0; i < entry.size(); ++i) {
    const char c = entry[i];
    if (c == '/') {
      slash = i;
    } else if (c == ':') {
      if (scheme == none && entry.substr(i, 3) == "://") scheme = i;
      colon = i;
    } else if (c == '@') {
      if (at == none) at = i;
    } else if (blank(c)) {
      has_blank = true;
    }
  }
  if (scheme != none) {
    std::string_view rest = entry.substr(scheme + 3);
    while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
    DeadEntry inner = dead_image_entry(rest, registry);
    return {"image references have no URL scheme", inner.why.empty() ? std::string(rest) : inner.meant, inner.an_image};
  }
  if (entry.empty() || has_blank) {
    std::size_t first = 0, end = entry.size();
    while (first < end && blank(entry[first])) ++first;
    if (first == end) return {"it is blank", ""};
    while (blank(entry[end - 1])) --end;
    // Only white space around the reference has a fix to suggest: the reference without it.
    const std::string_view inner = entry.substr(first, end - first);
    const bool inside = std::any_of(inner.begin(), inner.end(), blank);
    return {"image references have no white space", inside ? std::string() : std::string(inner)};
  }
  if (!registry) return {};
  if (at != none) {
    return {"a registry prefix is matched against repositories, which have no digest", std::string(entry.substr(0, at)), true};
  }
  bool tagged = colon != none && (slash == none ? entry.find_first_not_of("0123456789", colon + 1) != none : colon > slash);
  if (tagged) {
    return {"a registry prefix is matched against repositories, which have no tag", std::string(entry.substr(0, colon)), true};
  }
  return {};
}

void check_image_allowlists(const model::Cursor& policy, const model::PolicyModel& m, DiagnosticSink& sink) {
  struct List {
    const char* name;
    bool registry;
    const std::vector<std::string>& read;  // the model's strings of the list
  };
  for (const List& one : {List{"allowed_registries", true, m.allowed_registries},
                          List{"allowed_images", false, m.allowed_images}}) {
    // (Not a structured binding: clang 14, which builds the fuzzers, cannot capture one.)
    const char* list = one.name;
    const bool registry = one.registry;
    // Most lists have no dead entry: the model's strings say so without walking the tree.
    if (std::none_of(one.read.begin(), one.read.end(), [&](const std::string& e) { return !dead_image_entry(e, registry).why.empty(); })) {
      continue;
    }
    model::Cursor entries = policy["constraints"]["image"][list];
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
