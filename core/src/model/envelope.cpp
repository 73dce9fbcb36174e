#include "model/envelope.h"

#include "model/policy_model.h"

namespace sandgate::model {

std::string_view parent_domain(std::string_view name) {
  auto dot = name.find('.');
  return dot == std::string_view::npos || dot == 0 ? std::string_view() : name.substr(dot + 1);
}

void EnvelopeIndex::build(const std::vector<NetRule>& rules) {
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const NetRule& e = rules[i];
    switch (e.kind()) {
      case PeerKind::hostname:
        // host_matches(pattern, name): "*" holds every name, "*.s" its own text and the names one
        // label under s, anything else only itself.
        if (e.hostname == "*") {
          star_.push_back(i);
        } else {
          by_name_.emplace_back(e.hostname, i);
          if (e.hostname.size() > 2 && e.hostname[0] == '*' && e.hostname[1] == '.') by_parent_.emplace_back(e.hostname.substr(2), i);
        }
        break;
      case PeerKind::any:
        if (e.any) any_.push_back(i);
        break;
      case PeerKind::tenant: tenants_.push_back(i); break;
      case PeerKind::selector: selectors_.push_back(i); break;
      case PeerKind::cidr:
        if (!e.prefix) break;
        cidrs_.push_back(i);
        if (e.spans.all) {
          all_port_cidrs_.add(*e.prefix, e.except);
        } else {
          port_limited_cidrs_ = true;
        }
        break;
      case PeerKind::none: break;
    }
  }
  std::sort(by_name_.begin(), by_name_.end());
  std::sort(by_parent_.begin(), by_parent_.end());
  all_port_cidrs_.build();
}

}  // namespace sandgate::model
