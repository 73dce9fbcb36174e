// The compiled pieces of network rules and of the base pod that the check rules read.
#include <algorithm>

#include "model/policy_model.h"

namespace sandgate::model {

namespace {
std::uint8_t protocol_index(std::string_view p) {
  auto eq = [&](std::string_view name) {
    return p.size() == name.size() && std::equal(p.begin(), p.end(), name.begin(), [](char a, char b) {
             return (a >= 'a' && a <= 'z' ? a - 'a' + 'A' : a) == b;
           });
  };
  if (p.empty() || eq("TCP")) return 0;
  if (eq("UDP")) return 1;
  if (eq("SCTP")) return 2;
  return 3;
}
}  // namespace

PortSpans PortSpans::of(const std::vector<PortRange>& ports, bool https_default) {
  PortSpans out;
  if (ports.empty()) {
    if (https_default) {
      out.all = false;
      out.spans.push_back({0, 443, 443});
    }
    return out;
  }
  out.all = false;
  for (const auto& p : ports) out.spans.push_back({protocol_index(p.protocol), p.port, p.end_port ? p.end_port : p.port});
  std::sort(out.spans.begin(), out.spans.end(),
            [](const Span& a, const Span& b) { return a.protocol != b.protocol ? a.protocol < b.protocol : a.lo < b.lo; });
  // Merge overlapping and adjacent spans of one protocol, so one span holds any covered range.
  std::vector<Span> merged;
  for (const auto& s : out.spans) {
    if (!merged.empty() && merged.back().protocol == s.protocol && s.lo <= merged.back().hi + 1) {
      merged.back().hi = std::max(merged.back().hi, s.hi);
    } else {
      merged.push_back(s);
    }
  }
  out.spans = std::move(merged);
  return out;
}

bool PortSpans::covers(const PortSpans& inner) const {
  if (all) return true;
  if (inner.all) return false;
  for (const auto& d : inner.spans) {
    bool held = std::any_of(spans.begin(), spans.end(),
                            [&](const Span& m) { return m.protocol == d.protocol && m.lo <= d.lo && m.hi >= d.hi; });
    if (!held) return false;
  }
  return true;
}

const BaseAnnotation* PolicyModel::base_annotation(std::string_view key) const {
  auto it = std::lower_bound(base_annotations.begin(), base_annotations.end(), key,
                             [](const BaseAnnotation& b, std::string_view k) { return std::string_view(b.key) < k; });
  return it != base_annotations.end() && it->key == key ? &*it : nullptr;
}

bool PolicyModel::registry_allows(std::string_view repository) const {
  return std::binary_search(registry_sorted.begin(), registry_sorted.end(), repository, std::less<>()) ||
         registry_children.find(repository).has_value();
}

bool PolicyModel::image_allows(const ImageRef& image) const {
  auto [lo, hi] = std::equal_range(images_sorted.begin(), images_sorted.end(), image,
                                   [](const ImageRef& a, const ImageRef& b) { return a.repository < b.repository; });
  for (auto it = lo; it != hi; ++it) {
    if (image_allowed(image, *it)) return true;
  }
  return false;
}

}  // namespace sandgate::model
