// R-NET (SPEC §6.7, reference policy model §1.5, §3.5): declared egress/ingress must lie inside the
// policy's envelope — accepted as is, never narrowed or widened; nothing declared means the
// policy's defaults. (Each declared rule was parsed and its syntax checked when the request was
// compiled.)
#include <algorithm>
#include <map>

#include "engine/rules.h"

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

// Whether the envelope admits the declared rule (SPEC §6.7; reference §3.5).
bool inside(const NetRule& d, const std::vector<NetRule>& envelope) {
  auto env_any = [&] {
    return std::any_of(envelope.begin(), envelope.end(),
                       [&](const NetRule& e) { return e.kind() == PeerKind::any && e.any && e.spans.covers(d.spans); });
  };
  switch (d.kind()) {
    case PeerKind::cidr: {
      if (env_any() || !d.prefix) return true;  // a malformed prefix was reported already
      int budget = 4096;
      return cidr_covered(*d.prefix, envelope, d.spans, d.except, budget);
    }
    case PeerKind::tenant:
      return env_any() || std::any_of(envelope.begin(), envelope.end(), [&](const NetRule& e) {
               return e.kind() == PeerKind::tenant && e.tenant == d.tenant && e.spans.covers(d.spans);
             });
    case PeerKind::any:
      return env_any();
    case PeerKind::hostname:
      if (env_any()) return true;
      for (const auto& e : envelope) {
        if (e.kind() != PeerKind::hostname || !host_matches(e.hostname, d.hostname) || !e.spans.covers(d.spans)) continue;
        bool excepted = std::any_of(e.hostname_except.begin(), e.hostname_except.end(),
                                    [&](const std::string& x) { return host_matches(x, d.hostname) || host_matches(d.hostname, x); });
        if (!excepted) return true;
      }
      return false;
    case PeerKind::selector:
      return std::any_of(envelope.begin(), envelope.end(), [&](const NetRule& e) {
        return e.kind() == PeerKind::selector && e.has_namespace_labels == d.has_namespace_labels && superset(d.pod_labels, e.pod_labels) &&
               superset(d.namespace_labels, e.namespace_labels) && e.spans.covers(d.spans);
      });
    case PeerKind::none:
      return true;
  }
  return true;
}

std::string outside_reason(const NetRule& d) {
  switch (d.kind()) {
    case PeerKind::cidr: return "the CIDR " + d.cidr + " (with these ports) is not inside the allowed CIDR ranges";
    case PeerKind::tenant: return "no allowed rule grants tenant " + d.tenant + " on these ports";
    case PeerKind::any: return "\"any\" is allowed only when the envelope has an \"any\" rule covering these ports";
    case PeerKind::hostname:
      return "the hostname " + d.hostname + " matches no allowed hostname pattern (a CIDR envelope never grants names)";
    case PeerKind::selector: return "no allowed selector rule entitles these labels (\"any\" never covers selectors)";
    case PeerKind::none: break;
  }
  return {};
}

void report_outside(Findings& f, const model::DeclaredRule& d, bool ingress, const model::Origin& envelope) {
  Finding& found = f.add(Code::NET_OUTSIDE_ENVELOPE, in_request(d.at), [](const FindingContext&, const Finding& x, std::string& m, std::string& h) {
    const auto* rule = static_cast<const model::DeclaredRule*>(x.p[0]);
    bool in = x.n[0] != 0;
    m = std::string(in ? "ingress" : "egress") + " rule " + std::to_string(rule->index) + " is outside the policy's " +
        (in ? "allowed_ingress" : "allowed_egress") + ": " + outside_reason(rule->rule);
    h = in ? "declare only what allowed_ingress covers" : "declare only what allowed_egress covers; the server rejects, it never narrows";
  });
  found.p[0] = &d;
  found.n[0] = ingress;
  relate_policy(found, envelope, "the envelope is set here");
}

}  // namespace

void check_network(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f) {
  const model::RequestModel& req = in.request;
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
    if (!inside(d.rule, pm.allowed_egress)) report_outside(f, d, false, pm.allowed_egress_origin);
  }
  if (!req.deny_ingress && !pm.allowed_ingress.empty()) {
    for (const auto& d : req.ingress) {
      if (!inside(d.rule, pm.allowed_ingress)) report_outside(f, d, true, pm.allowed_ingress_origin);
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
