// R-NET (SPEC §6.7, reference policy model §1.5, §3.5): declared egress/ingress must lie inside the
// policy's envelope — accepted as is, never narrowed or widened; nothing declared means the
// policy's defaults. (Each declared rule was parsed and its syntax checked when the request was
// compiled.)
#include <algorithm>
#include <map>

#include "engine/rules.h"
#include "util/address_set.h"

namespace sandgate::engine {
namespace {

using model::NetRule;
using model::PeerKind;

bool intersects(const Prefix& a, const Prefix& b) { return a.covers(b) || b.covers(a); }

// Whether every address of `c` (outside the declared rule's own excepts) lies in the union of the
// envelope's CIDR rules that allow the declared ports, minus their excepts. Splits `c` in halves
// where no single rule decides, within a budget.
bool cidr_covered(const Prefix& c, const std::vector<NetRule>& envelope, const model::PortSpans& ports,
                  const std::vector<Prefix>& holes, int& budget) {
  if (--budget < 0) return false;
  for (const auto& h : holes) {
    if (h.covers(c)) return true;  // the declared rule itself carves this out
  }
  bool touches = false;
  for (const auto& e : envelope) {
    if (e.kind() != PeerKind::cidr || !e.prefix || !e.spans.covers(ports)) continue;
    if (!intersects(*e.prefix, c)) continue;
    touches = true;
    if (e.prefix->covers(c) && std::none_of(e.except.begin(), e.except.end(), [&](const Prefix& x) { return intersects(x, c); })) {
      return true;
    }
  }
  if (!touches || c.bits >= c.width()) return false;
  Prefix left = c, right = c;
  left.bits = right.bits = c.bits + 1;
  int byte = c.bits / 8, bit = 7 - c.bits % 8;
  right.addr[static_cast<std::size_t>(byte)] = static_cast<std::uint8_t>(right.addr[static_cast<std::size_t>(byte)] | (1u << bit));
  return cidr_covered(left, envelope, ports, holes, budget) && cidr_covered(right, envelope, ports, holes, budget);
}

bool host_matches(std::string_view pattern, std::string_view name) {
  if (pattern == "*") return true;
  if (pattern.size() > 2 && pattern[0] == '*' && pattern[1] == '.') {
    if (name == pattern) return true;
    if (!name.empty() && name[0] == '*') return false;
    std::string_view suffix = pattern.substr(1);
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
    return name.substr(0, name.size() - suffix.size()).find('.') == std::string_view::npos;
  }
  return pattern == name;
}

bool superset(const std::map<std::string, std::string>& have, const std::map<std::string, std::string>& need) {
  return std::all_of(need.begin(), need.end(), [&](const auto& kv) {
    auto it = have.find(kv.first);
    return it != have.end() && it->second == kv.second;
  });
}

// The entry of envelope rule `e`'s hostname_except that excludes `name` (host_matches(x, name) or
// host_matches(name, x)), or null.
const std::string* excepting(const NetRule& e, std::string_view name) {
  auto at = std::find_if(e.hostname_except.begin(), e.hostname_except.end(),
                         [&](const std::string& x) { return host_matches(x, name) || host_matches(name, x); });
  return at == e.hostname_except.end() ? nullptr : &*at;
}

bool excepted(const NetRule& e, std::string_view name) { return excepting(e, name) != nullptr; }

// An entry `*.S` of `e`'s hostname_except with `name` more than one label under S. A grant's `*.S`
// covers one label; how far an except reaches is not documented (reference §3.5, inferred), so the
// engine does not except such a name, and says it may be refused (SPEC: unknown → the stricter
// outcome, as a warning).
const std::string* deep_except(const NetRule& e, std::string_view name) {
  for (const std::string& x : e.hostname_except) {
    if (x.size() < 3 || x[0] != '*' || x[1] != '.') continue;
    std::string_view suffix = std::string_view(x).substr(1);  // ".S"
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    if (name.substr(0, name.size() - suffix.size()).find('.') != std::string_view::npos) return &x;
  }
  return nullptr;
}

// Whether every address of the declared CIDR rule lies in the envelope's CIDR rules that allow its
// ports. When every CIDR rule of the envelope allows every port, the union was built when the
// policy was compiled; otherwise a small envelope is searched rule by rule (splitting the prefix
// where no single rule decides), and a large one gets its union for these ports built here, once
// per distinct port list of the declared rules (`built`).
struct CidrUnions {
  std::vector<std::pair<const model::PortSpans*, AddressSet>> built;
};

bool cidr_inside(const NetRule& d, const std::vector<NetRule>& envelope, const model::EnvelopeIndex& index, CidrUnions& unions) {
  if (!index.has_port_limited_cidrs()) return index.all_port_cidrs().covers(*d.prefix, d.except);
  constexpr std::size_t k_searched = 32;
  if (index.cidr_rules().size() <= k_searched) {
    int budget = 4096;
    return cidr_covered(*d.prefix, envelope, d.spans, d.except, budget);
  }
  for (const auto& [spans, set] : unions.built) {
    if (spans->all == d.spans.all && spans->covers(d.spans) && d.spans.covers(*spans)) return set.covers(*d.prefix, d.except);
  }
  AddressSet set;
  for (std::size_t i : index.cidr_rules()) {
    const NetRule& e = envelope[i];
    if (e.spans.covers(d.spans)) set.add(*e.prefix, e.except);
  }
  set.build();
  unions.built.emplace_back(&d.spans, std::move(set));
  return unions.built.back().second.covers(*d.prefix, d.except);
}

// Whether the envelope admits the declared rule (SPEC §6.7; reference §3.5). A hostname it admits
// only through rules with a wildcard except above it (deep_except) sets `*deep` to that except.
bool inside(const NetRule& d, const std::vector<NetRule>& envelope, const model::EnvelopeIndex& index, CidrUnions& unions,
            const std::string** deep = nullptr) {
  auto env_any = [&] {
    return std::any_of(index.any_rules().begin(), index.any_rules().end(), [&](std::size_t i) { return envelope[i].spans.covers(d.spans); });
  };
  switch (d.kind()) {
    case PeerKind::cidr:
      if (env_any() || !d.prefix) return true;  // a malformed prefix was reported already
      return cidr_inside(d, envelope, index, unions);
    case PeerKind::tenant:
      return env_any() || std::any_of(index.tenant_rules().begin(), index.tenant_rules().end(), [&](std::size_t i) {
               return envelope[i].tenant == d.tenant && envelope[i].spans.covers(d.spans);
             });
    case PeerKind::any:
      return env_any();
    case PeerKind::hostname: {
      if (env_any()) return true;
      const std::string* deep_seen = nullptr;
      bool plainly = index.any_host(d.hostname, [&](std::size_t i) {
        const NetRule& e = envelope[i];
        if (!host_matches(e.hostname, d.hostname) || !e.spans.covers(d.spans) || excepted(e, d.hostname)) return false;
        if (const std::string* x = deep_except(e, d.hostname)) {
          deep_seen = x;  // granted, but maybe not by the server: look on for a plain grant
          return false;
        }
        return true;
      });
      if (!plainly && deep_seen && deep) *deep = deep_seen;
      return plainly || deep_seen;
    }
    case PeerKind::selector:
      return std::any_of(index.selector_rules().begin(), index.selector_rules().end(), [&](std::size_t i) {
        const NetRule& e = envelope[i];
        return e.has_namespace_labels == d.has_namespace_labels && superset(d.pod_labels, e.pod_labels) &&
               superset(d.namespace_labels, e.namespace_labels) && e.spans.covers(d.spans);
      });
    case PeerKind::none:
      return true;
  }
  return true;
}

std::string outside_reason(const NetRule& d, const std::vector<NetRule>& envelope, const model::EnvelopeIndex& index) {
  switch (d.kind()) {
    case PeerKind::cidr: return "the CIDR " + d.cidr + " (with these ports) is not inside the allowed CIDR ranges";
    case PeerKind::tenant: return "no allowed rule grants tenant " + d.tenant + " on these ports";
    case PeerKind::any: return "\"any\" is allowed only when the envelope has an \"any\" rule covering these ports";
    case PeerKind::hostname: {
      // Through the index, as inside() looked: a loop over the whole envelope for each rejected
      // name made many rejected names against a long envelope quadratic.
      std::string why;
      index.any_host(d.hostname, [&](std::size_t i) {
        const NetRule& e = envelope[i];
        const std::string* x = host_matches(e.hostname, d.hostname) && e.spans.covers(d.spans) ? excepting(e, d.hostname) : nullptr;
        if (x) why = "the hostname " + d.hostname + " is excluded by https_hostname_except \"" + *x + "\" of the rule granting " + e.hostname;
        return x != nullptr;
      });
      if (!why.empty()) return why;
      return "the hostname " + d.hostname + " matches no allowed hostname pattern (a CIDR envelope never grants names)";
    }
    case PeerKind::selector: return "no allowed selector rule entitles these labels (\"any\" never covers selectors)";
    case PeerKind::none: break;
  }
  return {};
}

void report_outside(Findings& f, const model::DeclaredRule& d, bool ingress, const model::Origin& envelope) {
  Finding& found = f.add(Code::NET_OUTSIDE_ENVELOPE, in_request(d.at), [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
    const auto* rule = static_cast<const model::DeclaredRule*>(x.p[0]);
    bool in = x.n[0] != 0;
    m = std::string(in ? "ingress" : "egress") + " rule " + std::to_string(rule->index) + " is outside the policy's " +
        (in ? "allowed_ingress" : "allowed_egress") + ": " +
        outside_reason(rule->rule, in ? cx.policy.allowed_ingress : cx.policy.allowed_egress,
                       in ? cx.policy.ingress_envelope : cx.policy.egress_envelope);
    h = in ? "declare only what allowed_ingress covers" : "declare only what allowed_egress covers; the server rejects, it never narrows";
  });
  found.p[0] = &d;
  found.n[0] = ingress;
  relate_policy(found, envelope, "the envelope is set here");
}

void report_deep_except(Findings& f, const model::DeclaredRule& d, const std::string& except, const model::Origin& envelope) {
  Finding& found = f.add(Code::NET_HOSTNAME_EXCEPT_DEEP, in_request(d.dns_at ? *d.dns_at : d.at),
                         [](const FindingContext&, const Finding& x, std::string& m, std::string& h) {
                           const auto* rule = static_cast<const model::DeclaredRule*>(x.p[0]);
                           const auto* exc = static_cast<const std::string*>(x.p[1]);
                           m = "the hostname " + rule->rule.hostname + " lies more than one label under the envelope's https_hostname_except \"" +
                               *exc + "\"; a wildcard grant reaches one label, and whether the except reaches further is not documented";
                           h = "the server may refuse it: declare a name the except does not cover, or ask the admin to list it";
                         });
  found.p[0] = &d;
  found.p[1] = &except;
  relate_policy(found, envelope, "the envelope is set here");
}

}  // namespace

void check_network(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f) {
  const model::RequestModel& req = in.request;
  CidrUnions egress_unions;
  for (const auto& d : req.egress) {
    if (d.rule.kind() == PeerKind::hostname && pm.deny_hostname_rules) {
      Finding& found = f.add(Code::NET_HOSTNAME_DENIED, in_request(d.dns_at ? *d.dns_at : d.at),
                         [](const FindingContext&, const Finding&, std::string& m, std::string& h) {
                           m = "the policy forbids hostname egress grants (deny_https_hostname_rules)";
                           h = "use a CIDR rule, or ask the admin";
                         });
      relate_policy(found, pm.deny_hostname_rules_origin, "hostname grants are denied here");
      continue;
    }
    if (pm.allowed_egress.empty()) continue;  // no envelope: no restriction
    const std::string* deep = nullptr;
    if (!inside(d.rule, pm.allowed_egress, pm.egress_envelope, egress_unions, &deep)) {
      report_outside(f, d, false, pm.allowed_egress_origin);
    } else if (deep) {
      report_deep_except(f, d, *deep, pm.allowed_egress_origin);
    }
  }
  if (!req.deny_ingress && !pm.allowed_ingress.empty()) {
    CidrUnions ingress_unions;
    for (const auto& d : req.ingress) {
      if (!inside(d.rule, pm.allowed_ingress, pm.ingress_envelope, ingress_unions)) report_outside(f, d, true, pm.allowed_ingress_origin);
    }
  }
  // The effective rules: declared, else the policy's defaults, else nothing.
  res.egress_from = req.deny_egress            ? NetworkFrom::denied
                    : req.egress_count > 0     ? NetworkFrom::declared
                    : !pm.default_egress.empty() ? NetworkFrom::policy_default
                                                 : NetworkFrom::none;
  res.ingress_from = req.deny_ingress                                     ? NetworkFrom::denied
                     : req.ingress_count == 0 && !pm.default_ingress.empty() ? NetworkFrom::policy_default
                     : req.ingress_count > 0                                 ? NetworkFrom::declared
                                                                              : NetworkFrom::none;
}

}  // namespace sandgate::engine
