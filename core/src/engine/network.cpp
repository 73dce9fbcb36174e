// R-NET (SPEC §6.7, reference policy model §1.5, §3.5): declared egress/ingress must be well
// formed and lie inside the policy's envelope — accepted as is, never narrowed or widened;
// nothing declared means the policy's defaults. Also the documented older fields.
#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "engine/rules.h"
#include "util/address_set.h"
#include "util/net.h"

namespace sandgate::engine {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}
std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return s;
}

struct Span {
  std::string protocol;
  std::int64_t lo, hi;
};
// nullopt = every port.
using Ports = std::optional<std::vector<Span>>;

Ports ports_of(const model::NetRule& r, bool hostname_default_443) {
  if (r.ports.empty()) {
    if (hostname_default_443) return std::vector<Span>{{"TCP", 443, 443}};
    return std::nullopt;
  }
  std::vector<Span> out;
  for (const auto& p : r.ports) out.push_back({upper(p.protocol.empty() ? "TCP" : p.protocol), p.port, p.end_port ? p.end_port : p.port});
  return out;
}

bool ports_covered(const Ports& env, const Ports& decl) {
  if (!env) return true;    // the envelope allows every port
  if (!decl) return false;  // every port is covered only by every port
  for (const auto& d : *decl) {
    // The envelope's spans of d's protocol, merged into disjoint intervals; one must hold d.
    std::vector<Span> same;
    for (const auto& e : *env) {
      if (e.protocol == d.protocol) same.push_back(e);
    }
    std::sort(same.begin(), same.end(), [](const Span& a, const Span& b) { return a.lo < b.lo; });
    std::vector<Span> merged;
    for (const auto& e : same) {
      if (!merged.empty() && e.lo <= merged.back().hi + 1) {
        merged.back().hi = std::max(merged.back().hi, e.hi);
      } else {
        merged.push_back(e);
      }
    }
    bool held = std::any_of(merged.begin(), merged.end(), [&](const Span& m) { return m.lo <= d.lo && m.hi >= d.hi; });
    if (!held) return false;
  }
  return true;
}

bool host_matches(const std::string& pattern, const std::string& name) {
  if (pattern == "*") return true;
  if (pattern.size() > 2 && pattern[0] == '*' && pattern[1] == '.') {
    if (name == pattern) return true;
    if (!name.empty() && name[0] == '*') return false;
    std::string suffix = pattern.substr(1);
    if (name.size() <= suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
    return name.substr(0, name.size() - suffix.size()).find('.') == std::string::npos;
  }
  return pattern == name;
}

std::optional<std::string> parse_tenant(const std::string& text) {
  std::string t = upper(text);
  if (t.rfind("TENANT_SCOPE_", 0) != 0) t = "TENANT_SCOPE_" + t;
  if (t == "TENANT_SCOPE_SAME_USER" || t == "TENANT_SCOPE_SAME_ORG" || t == "TENANT_SCOPE_SANDBOX_NETWORK") return t;
  return std::nullopt;
}

// A declared rule, read from the request (sandbox spellings: dns_name, cidr as a string, ports as ints).
model::NetRule read_declared(Context& ctx, const Cursor& c, bool ingress) {
  model::NetRule r;
  r.origin = {c.path, c.mark()};
  auto invalid = [&](const Cursor& at, std::string message, std::string hint = {}) {
    ctx.report(Code::NET_RULE_INVALID, at, std::move(message), std::move(hint));
  };
  if (Cursor cidr = c["cidr"]) {
    r.peers.push_back(model::PeerKind::cidr);
    Cursor text = cidr.node->is_string() ? cidr : cidr["cidr"];
    r.cidr = text.str();
    auto p = parse_prefix(r.cidr);
    if (p.problem == PrefixProblem::syntax) {
      // `cidr: {except: […]}` (or a number) has no prefix at all: point at the rule's cidr then.
      invalid(text ? text : cidr, "CIDR " + (text ? text.node->display() : std::string("(none given)")) +
                                      " is not an IPv4 or IPv6 prefix", "write e.g. \"203.0.113.0/24\"");
    } else if (p.problem == PrefixProblem::ipv4_mapped) {
      invalid(text, "CIDR " + text.node->display() + " is IPv4-mapped IPv6", "write the IPv4 prefix itself");
    } else {
      // A declared CIDR with host bits set still names its network; compare the masked prefix.
      r.prefix = p.problem == PrefixProblem::none ? p.prefix : parse_prefix(p.canonical).prefix;
      if (p.problem == PrefixProblem::not_canonical) {
        invalid(text, "CIDR " + text.node->display() + " is not canonical: it has host bits set", "write \"" + p.canonical + "\"");
      }
    }
    Cursor ex = cidr.node->is_object() ? cidr["except"] : Cursor{};
    for (std::size_t i = 0; i < ex.size(); ++i) {
      auto pe = parse_prefix(ex.at(i).str());
      if (pe.problem == PrefixProblem::none) {
        r.except.push_back(pe.prefix);
      } else {
        invalid(ex.at(i), "except entry " + ex.at(i).node->display() + " is not a canonical CIDR");
      }
    }
  }
  if (Cursor h = c["dns_name"]) {
    r.peers.push_back(model::PeerKind::hostname);
    std::string raw = h.str();
    // The SDK strips and lowercases names.
    std::size_t b = raw.find_first_not_of(" \t"), e = raw.find_last_not_of(" \t");
    r.hostname = b == std::string::npos ? std::string() : lower(raw.substr(b, e - b + 1));
    HostnameForm form = classify_hostname(r.hostname);
    if (r.hostname.empty()) {
      ctx.report(Code::NET_HOSTNAME_INVALID, h, "dns_name cannot be empty");
    } else if (form == HostnameForm::any) {
      ctx.report(Code::NET_HOSTNAME_INVALID, h, "dns_name cannot be \"*\"; that is a policy ceiling, not a sandbox grant",
                 "name the hosts, e.g. \"pypi.org\" or \"*.example.com\"");
    } else if (form == HostnameForm::invalid) {
      ctx.report(Code::NET_HOSTNAME_INVALID, h, "dns_name " + h.node->display() + " must be a DNS-1123 subdomain or a single leftmost wildcard (*.example.com)");
    }
    if (Cursor ports = c["ports"]; ports.size() > 0) {
      bool only_443 = ports.size() == 1 &&
                      ((ports.at(0).node->is_int() && ports.at(0).node->integer == 443) ||
                       (ports.at(0)["port"].integer() == 443 && (ports.at(0)["end_port"].integer() == 0 || ports.at(0)["end_port"].integer() == 443) &&
                        upper(ports.at(0)["protocol"].str("TCP")) == "TCP"));
      if (!only_443) {
        ctx.report(Code::NET_HOSTNAME_INVALID, ports, "a hostname grant is HTTPS only: its ports must be empty or exactly TCP 443");
      }
    }
  }
  if (Cursor ex = c["dns_name_except"]) {
    ctx.report(Code::NET_HOSTNAME_INVALID, ex, "dns_name_except is policy-only and is rejected on a sandbox",
               "declare only the names you need");
  }
  if (Cursor t = c["tenant"]) {
    r.peers.push_back(model::PeerKind::tenant);
    auto tenant = parse_tenant(t.str());
    if (!tenant) {
      invalid(t, "tenant " + t.node->display() + " is not same_user, same_org or sandbox_network");
    } else {
      r.tenant = *tenant;
      if (ingress && r.tenant == "TENANT_SCOPE_SANDBOX_NETWORK") {
        ctx.report(Code::NET_TENANT_NETWORK_INGRESS, t, "ingress from sandbox_network is rejected until network ids have an enforcement backend",
                   "use same_user or same_org");
      }
    }
  }
  if (Cursor a = c["any"]) {
    // The SDK's `any` defaults to False: only true selects a peer.
    if (a.boolean()) {
      r.peers.push_back(model::PeerKind::any);
      r.any = r.any_set = true;
    }
  }
  if (Cursor s = c["selector"]) {
    r.peers.push_back(model::PeerKind::selector);
    Cursor labels = s["pod_labels"];
    if (!labels || !labels.node->is_object() || labels.node->members.empty()) {
      invalid(labels ? labels : s, "a selector needs at least one pod label", "add pod_labels, e.g. {app: web}");
    } else {
      for (const auto& m : labels.node->members) r.pod_labels[m.key] = m.value.text;
    }
    if (Cursor ns = s["namespace_labels"]; ns && ns.node->is_object()) {
      r.has_namespace_labels = true;
      for (const auto& m : ns.node->members) r.namespace_labels[m.key] = m.value.text;
    }
  }
  Cursor ports = c["ports"];
  for (std::size_t i = 0; i < ports.size(); ++i) {
    Cursor p = ports.at(i);
    model::PortRange pr;
    if (p.node->is_int()) {
      pr.port = p.node->integer;
    } else {
      pr.port = p["port"].integer();
      pr.end_port = p["end_port"].integer();
      pr.protocol = upper(p["protocol"].str("TCP"));
    }
    if (pr.port < 1 || pr.port > 65535) invalid(p, "port " + std::to_string(pr.port) + " is outside 1..65535");
    if (pr.end_port != 0 && (pr.end_port < pr.port || pr.end_port > 65535)) {
      invalid(p, "end_port " + std::to_string(pr.end_port) + " must be between port " + std::to_string(pr.port) + " and 65535");
    }
    if (pr.protocol != "TCP" && pr.protocol != "UDP" && pr.protocol != "SCTP") {
      invalid(p, "protocol \"" + pr.protocol + "\" is not TCP, UDP or SCTP");
    }
    r.ports.push_back(pr);
  }
  if (r.peers.size() != 1) {
    invalid(c, std::string("each ") + (ingress ? "ingress rule must select exactly one source" : "egress rule must select exactly one destination") +
                   (r.peers.empty() ? ", but this one selects none" : ", but this one selects " + std::to_string(r.peers.size())),
            ingress ? "use one of cidr, tenant or any" : "use one of dns_name, cidr, tenant, any or selector");
  }
  return r;
}

// The envelope (allowed_egress or allowed_ingress), indexed once per check so that each declared
// rule is not compared with every envelope rule (SPEC §6.7; reference §3.5). An envelope rule
// counts only when its ports cover the declared rule's, so the CIDR union, the `any` and tenant
// answers are built once per distinct port list of the declared rules (nearly always one or two);
// hostnames are looked up by name and by parent domain; selectors are compared with the
// envelope's selector rules only.
std::string ports_key(const Ports& p) {
  if (!p) return "*";
  std::string key;
  for (const auto& s : *p) key += s.protocol + ":" + std::to_string(s.lo) + "-" + std::to_string(s.hi) + ",";
  return key;
}

// "a.b.c" → "b.c": what a name is one label under ("" without a dot or with an empty label).
std::string parent_domain(const std::string& name) {
  auto dot = name.find('.');
  return dot == std::string::npos || dot == 0 ? std::string() : name.substr(dot + 1);
}

class Envelope {
 public:
  explicit Envelope(const std::vector<model::NetRule>& rules) : rules_(rules) {
    for (std::size_t i = 0; i < rules.size(); ++i) {
      const auto& e = rules[i];
      switch (e.kind()) {
        case model::PeerKind::hostname:
          // host_matches(pattern, name): "*" holds every name, "*.s" its own text and names one
          // label under s, anything else only itself.
          if (e.hostname == "*") {
            star_.push_back(i);
          } else {
            by_name_[e.hostname].push_back(i);
            if (e.hostname.size() > 2 && e.hostname[0] == '*' && e.hostname[1] == '.') by_parent_[e.hostname.substr(2)].push_back(i);
          }
          break;
        case model::PeerKind::selector: selectors_.push_back(i); break;
        default: break;
      }
    }
  }

  std::string outside_reason(const model::NetRule& d) {
    Ports decl_ports = ports_of(d, d.kind() == model::PeerKind::hostname);
    std::string key = ports_key(decl_ports);
    switch (d.kind()) {
      case model::PeerKind::cidr: {
        if (any(decl_ports, key)) return {};
        if (!d.prefix) return {};  // malformed: reported already
        if (cidrs(decl_ports, key).covers(*d.prefix, d.except)) return {};
        return "the CIDR " + d.cidr + " (with these ports) is not inside the allowed CIDR ranges";
      }
      case model::PeerKind::tenant: {
        if (any(decl_ports, key)) return {};
        auto [it, added] = tenant_.try_emplace(d.tenant + "|" + key, false);
        if (added) {
          it->second = std::any_of(rules_.begin(), rules_.end(), [&](const model::NetRule& e) {
            return e.kind() == model::PeerKind::tenant && e.tenant == d.tenant && ports_covered(ports_of(e, false), decl_ports);
          });
        }
        if (it->second) return {};
        return "no allowed rule grants tenant " + d.tenant + " on these ports";
      }
      case model::PeerKind::any:
        if (any(decl_ports, key)) return {};
        return "\"any\" is allowed only when the envelope has an \"any\" rule covering these ports";
      case model::PeerKind::hostname: {
        if (any(decl_ports, key)) return {};
        std::vector<std::size_t> candidates = star_;
        auto take = [&](const std::map<std::string, std::vector<std::size_t>>& index, const std::string& k) {
          if (auto it = index.find(k); it != index.end()) candidates.insert(candidates.end(), it->second.begin(), it->second.end());
        };
        take(by_name_, d.hostname);
        if (d.hostname.empty() || d.hostname[0] != '*') take(by_parent_, parent_domain(d.hostname));
        std::sort(candidates.begin(), candidates.end());  // envelope order, as a scan would meet them
        for (std::size_t i : candidates) {
          const auto& e = rules_[i];
          if (!host_matches(e.hostname, d.hostname)) continue;
          if (!ports_covered(ports_of(e, true), decl_ports)) continue;
          if (!excepted(i, d.hostname)) return {};
        }
        return "the hostname " + d.hostname + " matches no allowed hostname pattern (a CIDR envelope never grants names)";
      }
      case model::PeerKind::selector:
        for (std::size_t i : selectors_) {
          const auto& e = rules_[i];
          if (e.has_namespace_labels != d.has_namespace_labels) continue;
          auto superset = [](const std::map<std::string, std::string>& have, const std::map<std::string, std::string>& need) {
            return std::all_of(need.begin(), need.end(), [&](const auto& kv) {
              auto it = have.find(kv.first);
              return it != have.end() && it->second == kv.second;
            });
          };
          if (superset(d.pod_labels, e.pod_labels) && superset(d.namespace_labels, e.namespace_labels) &&
              ports_covered(ports_of(e, false), decl_ports)) {
            return {};
          }
        }
        return "no allowed selector rule entitles these labels (\"any\" never covers selectors)";
      case model::PeerKind::none:
        return {};
    }
    return {};
  }

 private:
  bool any(const Ports& decl_ports, const std::string& key) {
    auto [it, added] = any_.try_emplace(key, false);
    if (added) {
      it->second = std::any_of(rules_.begin(), rules_.end(), [&](const model::NetRule& e) {
        return e.kind() == model::PeerKind::any && e.any && ports_covered(ports_of(e, false), decl_ports);
      });
    }
    return it->second;
  }

  // The union of the envelope's CIDR rules (minus their excepts) whose ports cover `decl_ports`.
  const AddressSet& cidrs(const Ports& decl_ports, const std::string& key) {
    auto [it, added] = cidrs_.try_emplace(key);
    if (added) {
      for (const auto& e : rules_) {
        if (e.kind() == model::PeerKind::cidr && e.prefix && ports_covered(ports_of(e, false), decl_ports)) it->second.add(*e.prefix, e.except);
      }
      it->second.build();
    }
    return it->second;
  }

  // Whether envelope rule i's hostname_except excludes `name`: an except x excludes it when
  // host_matches(x, name) or host_matches(name, x), looked up by name and parent domain.
  bool excepted(std::size_t i, const std::string& name) {
    auto [it, added] = excepts_.try_emplace(i);
    Excepts& x = it->second;
    if (added) {
      for (const auto& raw : rules_[i].hostname_except) {
        std::string e = lower(raw);
        if (e == "*") x.star = true;
        x.names.insert(e);
        if (e.size() > 2 && e[0] == '*' && e[1] == '.') {
          x.wildcard_parents.insert(e.substr(2));
        } else if (!e.empty() && e[0] != '*' && !parent_domain(e).empty()) {
          x.exact_parents.insert(parent_domain(e));
        }
      }
    }
    if (x.star || x.names.count(name)) return true;  // equal, either way round
    if (name == "*") return !rules_[i].hostname_except.empty();  // host_matches("*", x)
    if (name.empty()) return false;
    if (name[0] != '*') {
      std::string parent = parent_domain(name);
      return !parent.empty() && x.wildcard_parents.count(parent) > 0;  // x = "*.s", name one label under s
    }
    return name.size() > 2 && name[1] == '.' && x.exact_parents.count(name.substr(2)) > 0;  // name = "*.s", x one label under s
  }

  struct Excepts {
    bool star = false;
    std::set<std::string> names, wildcard_parents, exact_parents;
  };
  const std::vector<model::NetRule>& rules_;
  std::vector<std::size_t> star_, selectors_;
  std::map<std::string, std::vector<std::size_t>> by_name_, by_parent_;
  std::map<std::string, bool> any_, tenant_;
  std::map<std::string, AddressSet> cidrs_;
  std::map<std::size_t, Excepts> excepts_;
};

void check_older_fields(Context& ctx, const Cursor& net) {
  Cursor root = ctx.root();
  Cursor ports = root["ports"];
  Cursor ingress_mode = net["ingress_mode"], exposed = net["exposed_ports"], egress_mode = net["egress_mode"];
  std::vector<std::string> used;
  if (ports) used.push_back("ports → services");
  if (ingress_mode) used.push_back("ingress_mode → services with visibility");
  if (exposed) used.push_back("exposed_ports → services");
  if (egress_mode) used.push_back("egress_mode → network.egress rules or deny_egress");
  if (used.empty()) return;
  std::string list;
  for (const auto& u : used) list += (list.empty() ? "" : "; ") + u;
  ctx.report(Code::NET_OLDER_FIELDS, ports ? ports : net, "the documented older network fields are used (" + list + ")",
             "the SDK 1.x spells these differently; the TypeScript SDK rejects the older ones");
  auto invalid = [&](const Cursor& at, std::string message, std::string hint = {}) {
    ctx.report(Code::NET_OLDER_FIELDS_INVALID, at, std::move(message), std::move(hint));
  };
  if (ingress_mode) {
    std::string m = lower(ingress_mode.str());
    if (m != "public" && m != "internal") invalid(ingress_mode, "ingress_mode " + ingress_mode.node->display() + " is not public or internal");
    if (!exposed || exposed.size() == 0) {
      invalid(ingress_mode, "ingress_mode needs a non-empty exposed_ports", "list the ports to expose, e.g. exposed_ports: [8080]");
    }
  } else if (exposed) {
    invalid(exposed, "exposed_ports without ingress_mode", "set ingress_mode: public or internal");
  }
  for (std::size_t i = 0; i < exposed.size(); ++i) {
    Cursor p = exposed.at(i);
    if (p.is_int() && (p.node->integer < 1 || p.node->integer > 65535)) invalid(p, "exposed port " + p.node->display() + " is outside 1..65535");
  }
  if (egress_mode) {
    std::string m = lower(egress_mode.str());
    if (m != "internet" && m != "isolated" && m != "org" && m != "user") {
      invalid(egress_mode, "egress_mode " + egress_mode.node->display() + " is not internet, isolated, org or user");
    }
  }
  std::unordered_set<std::int64_t> seen;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    Cursor cp = ports.at(i)["container_port"];
    if (!cp.is_int()) continue;
    std::int64_t v = cp.node->integer;
    if (v < 1 || v > 65535) invalid(cp, "container_port " + cp.node->display() + " is outside 1..65535");
    if (!seen.insert(v).second) invalid(cp, "container_port " + cp.node->display() + " is listed twice");
  }
}

}  // namespace

void resolve_network(Context& ctx) {
  const auto& pm = *ctx.pm;
  Cursor net = ctx.root()["network"];
  check_older_fields(ctx, net);
  Cursor egress = net["egress"], ingress = net["ingress"];
  bool deny_egress = net["deny_egress"].boolean(false), deny_ingress = net["deny_ingress"].boolean(false);
  if (deny_egress && egress.size() > 0) {
    ctx.report(Code::NET_DENY_WITH_RULES, net["deny_egress"], "NetworkOptions.deny_egress cannot be combined with egress rules",
               "drop the egress rules, or deny_egress");
  }
  Envelope egress_envelope(pm.allowed_egress), ingress_envelope(pm.allowed_ingress);
  for (std::size_t i = 0; i < egress.size(); ++i) {
    Cursor r = egress.at(i);
    if (!r.node->is_object()) continue;
    model::NetRule d = read_declared(ctx, r, false);
    if (d.peers.size() != 1) continue;
    if (d.kind() == model::PeerKind::hostname && pm.deny_hostname_rules) {
      ctx.report(Code::NET_HOSTNAME_DENIED, r["dns_name"], "the policy forbids hostname egress grants (deny_https_hostname_rules)",
                 "use a CIDR rule, or ask the admin");
      continue;
    }
    if (pm.allowed_egress.empty()) continue;  // no envelope: no restriction
    std::string why = egress_envelope.outside_reason(d);
    if (!why.empty()) {
      ctx.report(Code::NET_OUTSIDE_ENVELOPE, r, "egress rule " + std::to_string(i) + " is outside the policy's allowed_egress: " + why,
                 "declare only what allowed_egress covers; the server rejects, it never narrows");
    }
  }
  if (deny_ingress && ingress.size() > 0) {
    ctx.report(Code::NET_INGRESS_IGNORED, ingress, "deny_ingress is set, so these ingress rules are ignored");
  }
  for (std::size_t i = 0; i < ingress.size(); ++i) {
    Cursor r = ingress.at(i);
    if (!r.node->is_object()) continue;
    model::NetRule d = read_declared(ctx, r, true);
    if (d.peers.size() != 1 || deny_ingress || pm.allowed_ingress.empty()) continue;
    std::string why = ingress_envelope.outside_reason(d);
    if (!why.empty()) {
      ctx.report(Code::NET_OUTSIDE_ENVELOPE, r, "ingress rule " + std::to_string(i) + " is outside the policy's allowed_ingress: " + why,
                 "declare only what allowed_ingress covers");
    }
  }

  // The effective rules: declared, else the policy's defaults, else nothing.
  auto policy_list = [&](const char* key) -> Node {
    if (!ctx.policy) return Node::make_array();
    Cursor c = Cursor{&ctx.policy->document(), nullptr, ""}["constraints"]["network"][key];
    return c && c.node->is_array() ? *c.node : Node::make_array();
  };
  if (net && net.node->is_object()) ctx.resolve("/network", *net.node);
  if (deny_egress) {
    ctx.resolve("/network/egress", Node::make_array(), "");
  } else if (egress.size() > 0) {
    ctx.resolve("/network/egress", *egress.node);
  } else if (!pm.default_egress.empty()) {
    ctx.resolve("/network/egress", policy_list("default_egress"), "policy.constraints.network.default_egress");
    ctx.touched("/network/egress", "R-NET");
  }
  if (deny_ingress) {
    // The declared ingress rules are ignored (reference §3.5): the effective list is empty.
    ctx.resolve("/network/ingress", Node::make_array(), "");
  } else if (ingress.size() == 0 && !pm.default_ingress.empty()) {
    ctx.resolve("/network/ingress", policy_list("default_ingress"), "policy.constraints.network.default_ingress");
    ctx.touched("/network/ingress", "R-NET");
  }
}

}  // namespace sandgate::engine
