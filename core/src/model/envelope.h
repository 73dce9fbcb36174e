// A policy's network envelope (allowed_egress or allowed_ingress), indexed once when the policy is
// compiled, so a declared rule is compared with the envelope rules that can admit it instead of
// with every one (R-NET; reference policy model §3.5): hostnames by exact name and by the parent
// domain of a wildcard; `any`, tenant, selector and CIDR rules in lists of their own; the CIDR
// rules that allow every port as one AddressSet. Lookups compare string_views: no allocation.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/address_set.h"

namespace sandgate::model {

struct NetRule;

// "a.b.c" → "b.c": what a name is one label under ("" without a dot or with an empty label).
std::string_view parent_domain(std::string_view name);

class EnvelopeIndex {
 public:
  void build(const std::vector<NetRule>& rules);

  // Calls accept(rule index) for each envelope rule whose hostname pattern may match `name` ("*",
  // the name itself, or "*.parent" of it) until one returns true; returns whether one did.
  template <typename Accept>
  bool any_host(std::string_view name, Accept accept) const {
    for (std::size_t i : star_) {
      if (accept(i)) return true;
    }
    if (each(by_name_, name, accept)) return true;
    if (!name.empty() && name[0] != '*') {
      if (std::string_view parent = parent_domain(name); !parent.empty() && each(by_parent_, parent, accept)) return true;
    }
    return false;
  }

  const std::vector<std::size_t>& any_rules() const { return any_; }
  const std::vector<std::size_t>& tenant_rules() const { return tenants_; }
  const std::vector<std::size_t>& selector_rules() const { return selectors_; }
  const std::vector<std::size_t>& cidr_rules() const { return cidrs_; }
  // The union of the CIDR rules that allow every port, minus their excepts; exact when every CIDR
  // rule of the envelope allows every port (has_port_limited_cidrs() is false).
  const AddressSet& all_port_cidrs() const { return all_port_cidrs_; }
  bool has_port_limited_cidrs() const { return port_limited_cidrs_; }

 private:
  using Keyed = std::vector<std::pair<std::string, std::size_t>>;  // sorted by key, then rule index
  template <typename Accept>
  static bool each(const Keyed& index, std::string_view key, Accept& accept) {
    auto it = std::lower_bound(index.begin(), index.end(), key,
                               [](const std::pair<std::string, std::size_t>& e, std::string_view k) { return std::string_view(e.first) < k; });
    for (; it != index.end() && it->first == key; ++it) {
      if (accept(it->second)) return true;
    }
    return false;
  }
  std::vector<std::size_t> star_, any_, tenants_, selectors_, cidrs_;
  Keyed by_name_, by_parent_;
  AddressSet all_port_cidrs_;
  bool port_limited_cidrs_ = false;
};

}  // namespace sandgate::model
