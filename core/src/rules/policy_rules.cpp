#include "rules/policy_rules.h"

#include <algorithm>

#include "rules/image_allowlists.h"
#include "util/net.h"
#include "util/text.h"

namespace sandgate::rules {
namespace {

using model::Cursor;
using model::PolicyQuantity;

// P-2, P-3: base is a Pod fragment, but not every Pod field is the policy's to set.
void check_base(const Cursor& policy, DiagnosticSink& sink) {
  Cursor spec = policy["base"]["spec"];
  if (!spec || !spec.node->is_object()) return;
  struct Forbidden {
    const char* key;
    const char* why;
  };
  static constexpr Forbidden k_forbidden[] = {
      {"affinity", "affinity is security-sensitive and is rejected when the policy is written"},
      {"securityContext", "the pod securityContext is security-sensitive and is rejected when the policy is written"},
      {"runtimeClassName", "runtime classes are governed by constraints.security, not by base"},
      {"initContainers", "platform init containers are added by the platform; base cannot add them"},
  };
  for (const auto& f : k_forbidden) {
    if (Cursor c = spec[f.key]) {
      sink.add(Code::BASE_FORBIDDEN_FIELD, c.path(), c.member->key_mark, "base sets spec." + std::string(f.key) + ": " + f.why,
               std::string("remove spec.") + f.key + " from base");
    }
  }
  Cursor containers = spec["containers"];
  for (std::size_t i = 0; i < containers.size(); ++i) {
    if (Cursor sc = containers.at(i)["securityContext"]) {
      sink.add(Code::BASE_FORBIDDEN_FIELD, sc.path(), sc.member->key_mark,
               "base sets a container securityContext, which is security-sensitive and rejected when the policy is written",
               "remove securityContext from the base container");
    }
  }
  if (Cursor g = spec["terminationGracePeriodSeconds"]) {
    sink.add(Code::BASE_GRACE_PERIOD, g.path(), g.member->key_mark,
             "base sets spec.terminationGracePeriodSeconds, which a policy cannot set",
             "remove it; on SUNK, raise Slurm's KillWait instead");
  }
}

// base is opaque, but its metadata.annotations, metadata.labels and spec.nodeSelector become the
// Pod's, where Kubernetes takes only string values (SPEC §1.2): an unquoted `yes` or `8080` would
// make every sandbox of this runner fail to start, so it is an error here, with the same quote
// hint as anywhere else a string is wanted. (null is left alone: it decodes as "".)
void check_base_metadata(const Cursor& policy, DiagnosticSink& sink) {
  Cursor base = policy["base"];
  struct StringMap {
    const char* part;
    const char* map;
  };
  for (const auto& [part, map] : {StringMap{"metadata", "annotations"}, StringMap{"metadata", "labels"},
                                  StringMap{"spec", "nodeSelector"}}) {
    Cursor c = base[part][map];
    if (!c || c.node->is_null()) continue;
    if (!c.node->is_object()) {
      // A map written without its colons is one string ("example.com/owner platform"), or a
      // list of entries: Kubernetes rejects either, so every sandbox of the runner would fail.
      std::string shown = c.node->is_scalar() ? " (" + c.node->display() + ")" : "";
      sink.add(Code::TYPE_MISMATCH, c.path(), c.mark(),
               std::string("base ") + part + "." + map + " must be an object of names to strings, not " +
                   std::string(c.node->kind_name()) + shown,
               "write each entry as name: value on its own line");
      continue;
    }
    for (const auto& m : c.node->members) {
      const Node& v = m.value;
      if (v.is_string() || v.is_null()) continue;
      std::string path = pointer_join(c.path(), m.key);
      Mark mark = v.mark.placed() ? v.mark : m.key_mark;
      std::string where = std::string("base ") + part + "." + map + " value of " + quoted(m.key);
      if (v.is_scalar() && v.style == ScalarStyle::plain) {
        sink.add(Code::NOT_A_STRING, path, mark,
                 where + " must be a string, but YAML reads " + v.text + " as " + std::string(v.kind_name()),
                 "quote it: \"" + v.text + "\"");
      } else {
        sink.add(Code::TYPE_MISMATCH, path, mark,
                 where + " must be a string, not " + std::string(v.kind_name()) + (v.is_scalar() ? " (" + v.display() + ")" : ""));
      }
    }
  }
}

bool both(const PolicyQuantity& a, const PolicyQuantity& b) { return a.value && b.value; }

std::string name_of(const PolicyQuantity& q) {
  std::string path = q.origin.path;
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// P-5 (warnings) and the resource part of P-14 (no sandbox can pass).
void check_resource_bounds(const model::PolicyModel& m, DiagnosticSink& sink) {
  auto warn = [&](Code code, const PolicyQuantity& lhs, const PolicyQuantity& rhs, const char* relation,
                  const std::string& consequence) {
    sink.add(code, lhs.origin.path, lhs.origin.mark,
             name_of(lhs) + " (" + lhs.text + ") is " + relation + " " + name_of(rhs) + " (" + rhs.text + ")" +
                 consequence);
  };
  struct Dim {
    const PolicyQuantity &min, &def, &max, &ceiling;
  };
  for (const Dim& d : {Dim{m.min_cpu, m.default_cpu, m.max_cpu, m.cpu_ceiling},
                       Dim{m.min_memory, m.default_memory, m.max_memory, m.memory_ceiling}}) {
    bool min_above_max = both(d.min, d.max) && *d.min.value > *d.max.value;
    if (min_above_max) {
      warn(Code::POLICY_UNSATISFIABLE, d.min, d.max, "above", ": no request can satisfy both, so no sandbox can pass");
    }
    if (both(d.ceiling, d.min) && *d.ceiling.value < *d.min.value) {
      warn(Code::POLICY_UNSATISFIABLE, d.ceiling, d.min, "below",
           ": one container at the minimum already exceeds the ceiling, so no sandbox can pass");
    }
    if (both(d.min, d.def) && *d.min.value > *d.def.value) {
      warn(Code::POLICY_INCONSISTENT, d.def, d.min, "below", ": a sandbox that takes the default is rejected");
    }
    if (both(d.def, d.max) && *d.def.value > *d.max.value) {
      warn(Code::POLICY_INCONSISTENT, d.def, d.max, "above", ": a sandbox that takes the default is rejected");
    }
    if (both(d.max, d.ceiling) && *d.max.value > *d.ceiling.value) {
      warn(Code::POLICY_INCONSISTENT, d.max, d.ceiling, "above",
           ": the per-container maximum can never be reached");
    }
  }
}

// P-10: defaults must be pinnable.
void check_runtime_class_defaults(const Cursor& policy, const model::PolicyModel& m, DiagnosticSink& sink) {
  Cursor sec = policy["constraints"]["security"];
  for (const char* key : {"default_cpu_runtime_class", "default_gpu_runtime_class"}) {
    Cursor c = sec[key];
    if (!c || !c.node->is_string() || c.node->text.empty()) continue;
    const std::string& value = c.node->text;
    if (m.allowed_runtime_classes.empty()) {
      sink.add(Code::DEFAULT_RUNTIME_CLASS_UNPINNABLE, c.path(), c.mark(),
               std::string(key) + " is \"" + value + "\" but allowed_runtime_classes is empty: sandboxes get it by default, yet none can pin it",
               "add \"" + value + "\" to allowed_runtime_classes (Terraform requires that)");
    } else if (std::find(m.allowed_runtime_classes.begin(), m.allowed_runtime_classes.end(), value) ==
               m.allowed_runtime_classes.end()) {
      std::vector<std::string> allowed;
      for (const auto& a : m.allowed_runtime_classes) allowed.push_back(quoted(a));
      sink.add(Code::DEFAULT_RUNTIME_CLASS_NOT_ALLOWED, c.path(), c.mark(),
               std::string(key) + " is \"" + value + "\", which is not in allowed_runtime_classes (" + join_and(allowed) + ")",
               "add it to allowed_runtime_classes or choose one of them");
    }
  }
}

// P-12: the control-plane source IP allowlist: at most 256 entries, each a canonical prefix that
// no other entry covers. Every entry is checked, in O(n log n) (find_covered_prefixes), because the
// invalid and covered entries are what to fix or delete to get under the limit. Once the list is
// over the limit its verdict cannot change, so the per-entry diagnostics stop being listed after
// k_listed of each code: one more diagnostic, at the first entry left out, says how many there are.
void check_source_ips(const Cursor& policy, DiagnosticSink& sink) {
  Cursor cidrs = policy["control_plane_access"]["source_ip_allowlist"]["cidrs"];
  if (!cidrs) return;
  constexpr std::size_t k_max = 256;
  constexpr std::size_t k_listed = 100;
  const bool over = cidrs.size() > k_max;

  std::vector<Prefix> parsed;
  std::vector<std::size_t> position;  // each parsed prefix's index in the list
  struct Invalid {
    std::size_t index;
    PrefixProblem problem;
    std::string canonical;
  };
  std::vector<Invalid> invalid;
  for (std::size_t i = 0; i < cidrs.size(); ++i) {
    Cursor c = cidrs.at(i);
    if (!c.node->is_string()) continue;
    auto p = parse_prefix(c.node->text);
    if (p.problem == PrefixProblem::none) {
      parsed.push_back(p.prefix);
      position.push_back(i);
    } else {
      invalid.push_back(Invalid{i, p.problem, std::move(p.canonical)});
    }
  }
  std::vector<CoveredPrefix> covered = find_covered_prefixes(parsed);

  if (over) {
    std::string message = "source_ip_allowlist has " + std::to_string(cidrs.size()) + " CIDRs; at most 256 are accepted";
    if (!covered.empty()) message += " (" + std::to_string(covered.size()) + " of them are covered by other entries)";
    sink.add(Code::SOURCE_IP_TOO_MANY, cidrs.path(), cidrs.mark(), message,
             covered.empty() ? "merge adjacent ranges into wider prefixes"
                             : "remove the covered entries, and merge adjacent ranges into wider prefixes");
  }
  // Past the limit, the first k_listed of each code are listed and the rest are counted into one
  // diagnostic at the first entry left out.
  auto listed = [&](std::size_t n) { return !over || n < k_listed; };
  auto summarise = [&](Code code, std::size_t total, std::size_t first_left_out, const std::string& what) {
    Cursor first = cidrs.at(first_left_out);
    sink.add(code, first.path(), first.mark(),
             std::to_string(total - k_listed) + " more " + what +
                 " are not listed (the list is over its limit of 256); the first is " + first.node->display(),
             "fix the ones listed and run again");
  };

  for (std::size_t n = 0; n < invalid.size() && listed(n); ++n) {
    const Invalid& bad = invalid[n];
    Cursor c = cidrs.at(bad.index);
    switch (bad.problem) {
      case PrefixProblem::none: break;
      case PrefixProblem::syntax:
        sink.add(Code::SOURCE_IP_INVALID, c.path(), c.mark(), c.node->display() + " is not an IPv4 or IPv6 prefix",
                 "write e.g. \"203.0.113.0/24\" or \"2001:db8::/32\"");
        break;
      case PrefixProblem::not_canonical:
        sink.add(Code::SOURCE_IP_INVALID, c.path(), c.mark(), c.node->display() + " is not canonical: it has host bits set",
                 "write \"" + bad.canonical + "\"");
        break;
      case PrefixProblem::ipv4_mapped:
        sink.add(Code::SOURCE_IP_INVALID, c.path(), c.mark(), c.node->display() + " is an IPv4-mapped IPv6 prefix",
                 "write the IPv4 prefix itself");
        break;
    }
  }
  if (over && invalid.size() > k_listed) {
    summarise(Code::SOURCE_IP_INVALID, invalid.size(), invalid[k_listed].index,
              "entries that are not canonical IPv4 or IPv6 prefixes");
  }

  for (std::size_t n = 0; n < covered.size() && listed(n); ++n) {
    Cursor c = cidrs.at(position[covered[n].index]);
    sink.add(Code::SOURCE_IP_REDUNDANT, c.path(), c.mark(),
             "source IP prefix " + c.node->text + " is already covered by " + cidrs.at(position[covered[n].by]).node->text,
             "remove the redundant prefix");
  }
  if (over && covered.size() > k_listed) {
    summarise(Code::SOURCE_IP_REDUNDANT, covered.size(), position[covered[k_listed].index],
              "entries covered by another entry");
  }
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

}  // namespace

bool is_slurm_scheduler(const std::string& scheduler, const std::optional<std::string>& sunk_scheduler) {
  if (scheduler.empty()) return false;
  if (sunk_scheduler) return scheduler == *sunk_scheduler;
  return lower(scheduler).find("slurm") != std::string::npos;
}

void check_net_rule(const Cursor& rule, const model::NetRule& r, const std::string& where, DiagnosticSink& sink) {
  static constexpr const char* k_peer_names[] = {"none", "cidr", "https_hostname", "tenant", "any", "selector"};
  bool ingress = where.find("ingress") != std::string::npos;
  if (r.peers.size() != 1) {
    std::vector<std::string> names;
    for (auto p : r.peers) names.emplace_back(k_peer_names[static_cast<int>(p)]);
    sink.add(Code::RULE_PEER_COUNT, rule.path(), rule.mark(),
             std::string("each ") + (ingress ? "ingress rule must select exactly one source" : "egress rule must select exactly one destination") +
                 (names.empty() ? ", but this one selects none" : ", but this one sets " + join_and(names)),
             ingress ? "use one of cidr, tenant or any per rule" : "use one of cidr, https_hostname, tenant, any or selector per rule");
  }
  if (r.any_set && !r.any) {
    Cursor a = rule["any"];
    sink.add(Code::RULE_ANY_FALSE, a.path(), a.mark(), "\"any\" is false; when present it must be true",
             "remove \"any\" or set it to true");
  }
  if (Cursor cidr = rule["cidr"]) {
    // The model parsed each string already (read_net_rule) and kept what was wrong with it; only
    // a prefix with a problem is parsed again, for the canonical form its message names.
    auto check = [&](const Cursor& c, bool is_except, PrefixProblem problem) {
      if (!c || !c.node->is_string() || problem == PrefixProblem::none) return;
      auto p = parse_prefix(c.node->text);
      std::string what = is_except ? "except entry " : "CIDR ";
      if (p.problem == PrefixProblem::syntax) {
        sink.add(Code::CIDR_INVALID, c.path(), c.mark(), what + c.node->display() + " is not an IPv4 or IPv6 prefix",
                 "write e.g. \"10.0.0.0/8\"");
      } else if (p.problem == PrefixProblem::not_canonical) {
        sink.add(Code::CIDR_INVALID, c.path(), c.mark(), what + c.node->display() + " is not canonical: it has host bits set",
                 "write \"" + p.canonical + "\"");
      } else if (p.problem == PrefixProblem::ipv4_mapped) {
        sink.add(Code::CIDR_INVALID, c.path(), c.mark(), what + c.node->display() + " is an IPv4-mapped IPv6 prefix",
                 "write the IPv4 prefix itself");
      }
    };
    check(cidr["cidr"], false, r.cidr_problem);
    Cursor ex = cidr["except"];
    std::size_t text = 0;  // the model's entry of the i-th string (except_text holds the strings only)
    for (std::size_t i = 0; i < ex.size(); ++i) {
      Cursor e = ex.at(i);
      if (!e.node->is_string()) continue;
      check(e, true, text < r.except_problems.size() ? r.except_problems[text] : PrefixProblem::none);
      ++text;
    }
  }
  if (Cursor sel = rule["selector"]; sel && sel.node->is_object()) {
    Cursor labels = sel["pod_labels"];
    if (!labels || !labels.node->is_object() || labels.node->members.empty()) {
      sink.add(Code::SELECTOR_EMPTY, labels ? labels.path() : sel.path(), labels ? labels.mark() : sel.mark(),
               "a selector rule needs at least one pod label", "add pod_labels, e.g. {app: web}");
    }
  }
  Cursor ports = rule["ports"];
  for (std::size_t i = 0; i < ports.size(); ++i) {
    Cursor p = ports.at(i);
    Cursor end = p["end_port"];
    if (end.is_int() && p["port"].is_int() && end.node->integer != 0 && end.node->integer < p["port"].node->integer) {
      sink.add(Code::PORT_RANGE, end.path(), end.mark(),
               "end_port " + std::to_string(end.node->integer) + " must be greater than or equal to port " +
                   std::to_string(p["port"].node->integer),
               "set end_port to 0 for a single port");
    }
  }
  // P-8: where hostnames may appear. Only the egress lists hold hostnames, so `"*"` outside
  // allowed_egress is a hostname in default_egress, which is reported as that.
  if (Cursor h = rule["https_hostname"]; h && h.node->is_string()) {
    HostnameForm form = classify_hostname(r.hostname);
    if (where == "default_egress") {
      sink.add(Code::DEFAULT_EGRESS_HOSTNAME, h.path(), h.mark(),
               "default_egress has the hostname destination " + h.node->display() +
                   "; defaults must not grant names (a curated site set belongs on a SandboxTemplate)",
               "move it to allowed_egress, and let sandboxes declare it");
    } else if (form == HostnameForm::invalid) {
      std::string hint = host_in_url_hint(h.node->text);
      if (hint.empty()) hint = "use lowercase DNS labels separated by dots, with at most one leading \"*.\"";
      sink.add(Code::HOSTNAME_INVALID, h.path(), h.mark(),
               h.node->display() + " is not an exact DNS name, a single leftmost wildcard label (*.example.com) or \"*\"",
               hint);
    }
  }
  if (Cursor ex = rule["https_hostname_except"]) {
    bool ok_place = where == "allowed_egress" && rule["https_hostname"];
    if (!ok_place) {
      sink.add(Code::HOSTNAME_EXCEPT_PLACEMENT, ex.path(), ex.member->key_mark,
               "https_hostname_except belongs only on allowed_egress hostname rules",
               "remove it, or move it to an allowed_egress rule with https_hostname");
    } else {
      for (std::size_t i = 0; i < ex.size(); ++i) {
        Cursor e = ex.at(i);
        if (e.node->is_string() && classify_hostname(lower(e.node->text)) == HostnameForm::invalid) {
          sink.add(Code::HOSTNAME_INVALID, e.path(), e.mark(), e.node->display() + " is not a DNS name or a single leftmost wildcard");
        }
      }
    }
  }
}

void check_policy(const Cursor& policy, const model::PolicyModel& m, DiagnosticSink& sink,
                  const PolicyContext& context) {
  check_base(policy, sink);
  check_base_metadata(policy, sink);
  check_resource_bounds(m, sink);
  check_image_allowlists(policy, m, sink);
  // The model read every object entry of the four lists once, in order; the rules are checked
  // from those reads (reading each rule again here was a tenth of a policy compile).
  Cursor net = policy["constraints"]["network"];
  const std::pair<const char*, const std::vector<model::NetRule>*> lists[] = {
      {"allowed_egress", &m.allowed_egress}, {"default_egress", &m.default_egress},
      {"allowed_ingress", &m.allowed_ingress}, {"default_ingress", &m.default_ingress}};
  for (const auto& [list, read] : lists) {
    Cursor rules = net[list];
    const std::string where = list;
    std::size_t next = 0;  // the model's entry of the i-th object in the list
    for (std::size_t i = 0; i < rules.size() && next < read->size(); ++i) {
      Cursor r = rules.at(i);
      if (r.node->is_object()) check_net_rule(r, (*read)[next++], where, sink);
    }
  }
  check_runtime_class_defaults(policy, m, sink);
  check_source_ips(policy, sink);
  // P-13
  // An empty selector selects nothing, so it cannot conflict with Slurm's choice.
  Cursor sel = policy["base"]["spec"]["nodeSelector"];
  bool selects = sel && !(sel.node->is_object() && sel.node->members.empty());
  if (selects && is_slurm_scheduler(m.scheduler_name, context.sunk_scheduler)) {
    sink.add(Code::SUNK_NODE_SELECTOR, sel.path(), sel.member->key_mark,
             "base sets spec.nodeSelector while schedulerName \"" + m.scheduler_name + "\" is a Slurm (SUNK) scheduler" +
                 (context.sunk_scheduler ? "" : " (its name contains \"slurm\")") +
                 ": Slurm picks the node, so a conflicting selector fails with NodeAffinity",
             "remove nodeSelector and steer placement with sunk.coreweave.com/partition or /constraint annotations");
  }
}

}  // namespace sandgate::rules
