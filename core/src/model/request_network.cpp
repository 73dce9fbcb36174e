// R-NET (SPEC §6.7) on the request alone: each declared egress/ingress rule is parsed once and its
// syntax checked (one peer, CIDRs, hostnames, tenants, ports), deny_* beside rules, and the
// documented older fields. Whether a rule lies inside the policy's envelope is `check`'s
// (engine/network.cpp).
#include <algorithm>
#include <unordered_map>

#include "model/request_compiler.h"
#include "util/net.h"
#include "util/text.h"

namespace sandgate::model {
namespace {

std::string upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return s;
}

std::optional<std::string> parse_tenant(const std::string& text) {
  std::string t = upper(text);
  if (t.rfind("TENANT_SCOPE_", 0) != 0) t = "TENANT_SCOPE_" + t;
  if (t == "TENANT_SCOPE_SAME_USER" || t == "TENANT_SCOPE_SAME_ORG" || t == "TENANT_SCOPE_SANDBOX_NETWORK") return t;
  return std::nullopt;
}

// A declared rule, read from the request (sandbox spellings: dns_name, cidr as a string, ports as ints).
// `sent` false: a rule that never reaches the server (a replaced default), so only what cwsandbox's
// EgressRule, IngressRule, CidrBlock and PortRange refuse is reported, not the server's CIDR,
// protocol and tenant rules.
DeclaredRule read_declared(RequestCompiler& c, const Cursor& at, std::size_t index, bool ingress, bool sent = true) {
  DeclaredRule d;
  d.at = origin_of(at);
  d.index = index;
  NetRule& r = d.rule;
  r.origin = d.at;
  auto invalid = [&](const Cursor& where, std::string message, std::string hint = {}) {
    c.report(Code::NET_RULE_INVALID, where, std::move(message), std::move(hint));
  };
  if (Cursor cidr = at["cidr"]) {
    r.peers.push_back(PeerKind::cidr);
    Cursor text = cidr.node->is_string() ? cidr : cidr["cidr"];
    r.cidr = text.str();
    auto p = parse_prefix(r.cidr);
    if (c.reported_under(cidr.layer, cidr.path())) {
      // A cidr of the wrong type (`cidr: 5`, `cidr: {cidr: 5}`) has the schema's TypeError, as
      // cwsandbox raises one: one error for one value, not a second "(none given) is not a prefix".
    } else if (!sent && !r.cidr.empty()) {
      // CidrBlock refuses a missing or empty cidr only; the prefix's form is the server's.
    } else if (p.problem == PrefixProblem::syntax) {
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
    Cursor ex = cidr.node->is_object() && sent ? cidr["except"] : Cursor{};
    for (std::size_t i = 0; i < ex.size(); ++i) {
      auto pe = parse_prefix(ex.at(i).str());
      if (pe.problem == PrefixProblem::none) {
        r.except.push_back(pe.prefix);
      } else {
        invalid(ex.at(i), "except entry " + ex.at(i).node->display() + " is not a canonical CIDR");
      }
    }
  }
  if (Cursor h = at["dns_name"]) {
    r.peers.push_back(PeerKind::hostname);
    d.dns_at = origin_of(h);
    std::string raw = h.str();
    // The SDK strips and lowercases names.
    std::size_t b = raw.find_first_not_of(" \t"), e = raw.find_last_not_of(" \t");
    r.hostname = b == std::string::npos ? std::string() : ascii_lower(raw.substr(b, e - b + 1));
    HostnameForm form = classify_hostname(r.hostname);
    if (r.hostname.empty()) {
      c.report(Code::NET_HOSTNAME_INVALID, h, "dns_name cannot be empty");
    } else if (form == HostnameForm::any) {
      c.report(Code::NET_HOSTNAME_INVALID, h, "dns_name cannot be \"*\"; that is a policy ceiling, not a sandbox grant",
               "name the hosts, e.g. \"pypi.org\" or \"*.example.com\"");
    } else if (form == HostnameForm::invalid) {
      std::string hint = host_in_url_hint(r.hostname);
      if (hint.empty()) hint = "name the hosts, e.g. \"pypi.org\" or \"*.example.com\"";
      c.report(Code::NET_HOSTNAME_INVALID, h,
               "dns_name " + h.node->display() + " must be a DNS-1123 subdomain or a single leftmost wildcard (*.example.com)",
               hint);
    }
    // Ports the schema refused (an entry that is a string or a float) have their error already; the
    // SDK raises that TypeError before it looks at what the ports are.
    if (Cursor ports = at["ports"]; ports.size() > 0 && !c.reported_under(ports.layer, ports.path())) {
      bool only_443 = ports.size() == 1 &&
                      ((ports.at(0).node->is_int() && ports.at(0).node->integer == 443) ||
                       (ports.at(0)["port"].integer() == 443 &&
                        (ports.at(0)["end_port"].integer() == 0 || ports.at(0)["end_port"].integer() == 443) &&
                        upper(ports.at(0)["protocol"].str("TCP")) == "TCP"));
      if (!only_443) c.report(Code::NET_HOSTNAME_INVALID, ports, "a hostname grant is HTTPS only: its ports must be empty or exactly TCP 443");
    }
  }
  if (Cursor ex = at["dns_name_except"]) {
    c.report(Code::NET_HOSTNAME_INVALID, ex, "dns_name_except is policy-only and is rejected on a sandbox", "declare only the names you need");
  }
  if (Cursor t = at["tenant"]) {
    r.peers.push_back(PeerKind::tenant);
    // cwsandbox's TenantScope(value.lower()) takes its lowercase names only (any case).
    if (std::string lower = ascii_lower(t.str()); t.node->is_string() && lower.rfind("tenant_scope_", 0) == 0 && parse_tenant(lower)) {
      c.report(Code::PYTHON_CLIENT_RULE, t, "'" + lower + "' is not a valid TenantScope",
               "the Python SDK takes \"same_user\", \"same_org\" or \"sandbox_network\" (any case), not TENANT_SCOPE_* names");
    }
    auto tenant = parse_tenant(t.str());
    if (!tenant) {
      invalid(t, "tenant " + t.node->display() + " is not same_user, same_org or sandbox_network");
    } else {
      r.tenant = *tenant;
      if (sent && ingress && r.tenant == "TENANT_SCOPE_SANDBOX_NETWORK") {
        c.report(Code::NET_TENANT_NETWORK_INGRESS, t, "ingress from sandbox_network is rejected until network ids have an enforcement backend",
                 "use same_user or same_org");
      }
    }
  }
  // The SDK's `any` defaults to False: only true selects a peer.
  if (Cursor a = at["any"]; a.boolean()) {
    r.peers.push_back(PeerKind::any);
    r.any = r.any_set = true;
  }
  if (Cursor s = at["selector"]) {
    r.peers.push_back(PeerKind::selector);
    Cursor labels = s["pod_labels"];
    if (!labels) {
      // The schema reported the missing field (SelectorBlock's TypeError).
    } else if (!labels.node->is_object() || labels.node->members.empty()) {
      invalid(labels, "a selector needs at least one pod label", "add pod_labels, e.g. {app: web}");
    } else {
      for (const auto& m : labels.node->members) r.pod_labels[m.key] = m.value.text;
    }
    if (Cursor ns = s["namespace_labels"]; ns && ns.node->is_object()) {
      r.has_namespace_labels = true;
      for (const auto& m : ns.node->members) r.namespace_labels[m.key] = m.value.text;
    }
  }
  Cursor ports = at["ports"];
  for (std::size_t i = 0; i < ports.size(); ++i) {
    Cursor p = ports.at(i);
    PortRange pr;
    if (p.node->is_int()) {
      pr.port = p.node->integer;
    } else {
      // PortRange(end_port=…) without port is its constructor's TypeError (the schema's
      // SG_REQUIRED_ARGUMENT): no range to check.
      if (p.node->is_object() && !p["port"]) continue;
      pr.port = p["port"].integer();
      pr.end_port = p["end_port"].integer();
      pr.protocol = upper(p["protocol"].str("TCP"));
    }
    // An entry the schema refused (a string, null, a value past int32) has its error already: one
    // error for one value, not a second "port 0 is outside 1..65535" about the fallback.
    if (c.reported_under(p.layer, p.path())) {
      r.ports.push_back(pr);
      continue;
    }
    if (pr.port < 1 || pr.port > 65535) invalid(p, "port " + std::to_string(pr.port) + " is outside 1..65535");
    if (pr.end_port != 0 && (pr.end_port < pr.port || pr.end_port > 65535)) {
      invalid(p, "end_port " + std::to_string(pr.end_port) + " must be between port " + std::to_string(pr.port) + " and 65535");
    } else if (Cursor ep = p["end_port"]; ep.is_int() && ep.node->integer == 0) {
      // The proto reads 0 as "a single port" (policies keep that, P-7); cwsandbox's PortRange
      // requires a set end_port in port..65535.
      c.report(Code::PYTHON_CLIENT_RULE, ep, "PortRange.end_port must be " + std::to_string(pr.port) + "-65535, got 0",
               "leave end_port out for a single port");
    }
    if (sent && pr.protocol != "TCP" && pr.protocol != "UDP" && pr.protocol != "SCTP") invalid(p, "protocol \"" + pr.protocol + "\" is not TCP, UDP or SCTP");
    r.ports.push_back(pr);
  }
  r.spans = PortSpans::of(r.ports, r.kind() == PeerKind::hostname);
  // A rule the schema refused a key or a value of (an unknown key, a cidr that is a number) is
  // cwsandbox's TypeError, raised before the peers are counted: one error, not a second.
  if (r.peers.size() != 1 && !c.error_under(at.layer, at.path())) {
    invalid(at,
            std::string("each ") + (ingress ? "ingress rule must select exactly one source" : "egress rule must select exactly one destination") +
                (r.peers.empty() ? ", but this one selects none" : ", but this one selects " + std::to_string(r.peers.size())),
            ingress ? "use one of cidr, tenant or any" : "use one of dns_name, cidr, tenant, any or selector");
  }
  return d;
}

void check_older_fields(RequestCompiler& c, const Cursor& net) {
  Cursor ports = c.field("ports");
  Cursor ingress_mode = net["ingress_mode"], exposed = net["exposed_ports"], egress_mode = net["egress_mode"];
  std::vector<std::string> used;
  if (ports) used.push_back("ports → services");
  if (ingress_mode) used.push_back("ingress_mode → services with visibility");
  if (exposed) used.push_back("exposed_ports → services");
  if (egress_mode) used.push_back("egress_mode → network.egress rules or deny_egress");
  if (used.empty()) return;
  std::string list;
  for (const auto& u : used) list += (list.empty() ? "" : "; ") + u;
  c.report(Code::NET_OLDER_FIELDS, ports ? ports : net, "the documented older network fields are used (" + list + ")",
           "the SDK 1.x spells these differently; the TypeScript SDK rejects the older ones");
  auto invalid = [&](const Cursor& at, std::string message, std::string hint = {}) {
    c.report(Code::NET_OLDER_FIELDS_INVALID, at, std::move(message), std::move(hint));
  };
  if (ingress_mode) {
    std::string m = ascii_lower(ingress_mode.str());
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
    std::string m = ascii_lower(egress_mode.str());
    if (m != "internet" && m != "isolated" && m != "org" && m != "user") {
      invalid(egress_mode, "egress_mode " + egress_mode.node->display() + " is not internet, isolated, org or user");
    }
  }
  std::unordered_map<std::int64_t, Origin> seen;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    Cursor cp = ports.at(i)["container_port"];
    if (!cp.is_int()) continue;
    std::int64_t v = cp.node->integer;
    if (v < 1 || v > 65535) invalid(cp, "container_port " + cp.node->display() + " is outside 1..65535");
    if (auto it = seen.find(v); it != seen.end()) {
      invalid(cp, "container_port " + cp.node->display() + " is listed twice");
    } else {
      seen.emplace(v, origin_of(cp));
    }
  }
}

void report_deny_with_rules(RequestCompiler& c, const Cursor& net) {
  if (net["deny_egress"].boolean(false) && net["egress"].size() > 0) {
    c.report(Code::NET_DENY_WITH_RULES, net["deny_egress"], "NetworkOptions.deny_egress cannot be combined with egress rules",
             "drop the egress rules, or deny_egress");
  }
}

}  // namespace

// NetworkOptions(**network), as SandboxDefaults.from_dict builds it, for a network never sent.
void check_network_options(RequestCompiler& c, const Cursor& net) {
  report_deny_with_rules(c, net);
  Cursor egress = net["egress"], ingress = net["ingress"];
  for (std::size_t i = 0; i < egress.size(); ++i) {
    if (egress.at(i).node->is_object()) read_declared(c, egress.at(i), i, false, false);
  }
  for (std::size_t i = 0; i < ingress.size(); ++i) {
    if (ingress.at(i).node->is_object()) read_declared(c, ingress.at(i), i, true, false);
  }
}

void read_network(RequestCompiler& c) {
  RequestModel& m = c.m;
  Cursor net = c.field("network");
  check_older_fields(c, net);
  m.network_present = net && net.node->is_object();
  Cursor egress = net["egress"], ingress = net["ingress"];
  m.deny_egress = net["deny_egress"].boolean(false);
  m.deny_ingress = net["deny_ingress"].boolean(false);
  m.egress_count = egress.size();
  m.ingress_count = ingress.size();
  if (m.deny_egress) report_deny_with_rules(c, net);
  for (std::size_t i = 0; i < egress.size(); ++i) {
    if (!egress.at(i).node->is_object()) continue;
    DeclaredRule d = read_declared(c, egress.at(i), i, false);
    if (d.rule.peers.size() == 1) m.egress.push_back(std::move(d));
  }
  if (m.deny_ingress && ingress.size() > 0) {
    c.report(Code::NET_INGRESS_IGNORED, ingress, "deny_ingress is set, so these ingress rules are ignored");
  }
  for (std::size_t i = 0; i < ingress.size(); ++i) {
    if (!ingress.at(i).node->is_object()) continue;
    DeclaredRule d = read_declared(c, ingress.at(i), i, true);
    if (d.rule.peers.size() == 1) m.ingress.push_back(std::move(d));
  }
}

}  // namespace sandgate::model
