// R-MISC (SPEC §6.9): tags, services, secrets and the multi-container rules — all about the
// request alone. Uniqueness is checked with hash maps, so a list of any length costs linear time,
// and a duplicate names its first occurrence (SPEC §3 `related`).
#include <algorithm>
#include <optional>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "model/request_compiler.h"
#include "util/net.h"
#include "util/text.h"

namespace sandgate::model {
namespace {

// The TypeScript SDK's tag form: ^[A-Za-z0-9._-]*[A-Za-z0-9]$, at most 59 characters.
constexpr std::size_t k_tag_max = 59;
bool tag_end_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool tag_char(char c) { return tag_end_char(c) || c == '.' || c == '_' || c == '-'; }

bool valid_tag(std::string_view t) {
  if (t.empty() || t.size() > k_tag_max || !tag_end_char(t.back())) return false;
  return std::all_of(t.begin(), t.end(), tag_char);
}

// A tag as near to `t` as the rules allow, for a hint: other characters become '-', runs of '-'
// one, and the ends are cut back to 59 characters, a letter or digit at the end and no '-' at the
// start ("été-2024" → "t-2024"); "" when nothing is left.
std::string nearest_tag(std::string_view t) {
  std::string out;
  for (char ch : t) {
    if (out.size() == k_tag_max) break;
    char kept = tag_char(ch) ? ch : '-';
    if (kept == '-' && (out.empty() || out.back() == '-')) continue;
    out += kept;
  }
  while (!out.empty() && !tag_end_char(out.back())) out.pop_back();
  return out;
}

std::string python_repr_of(std::string_view v) { return "'" + std::string(v) + "'"; }

// An enum the Python SDK builds from a string lowercased (StrEnum(value.lower())): anything else
// is its ValueError "'x' is not a valid <Enum>".
void check_enum(RequestCompiler& c, const Cursor& at, std::string_view enum_name, std::initializer_list<std::string_view> values) {
  if (!at || !at.node->is_string()) return;
  std::string v = ascii_lower(at.node->text);
  for (auto allowed : values) {
    if (v == allowed) return;
  }
  std::string list;
  for (auto allowed : values) list += (list.empty() ? "\"" : ", \"") + std::string(allowed) + "\"";
  c.report(Code::ENUM_VALUE, at, python_repr_of(v) + " is not a valid " + std::string(enum_name), "use one of " + list + " (any case)");
}

}  // namespace

// Service.__post_init__ and its Endpoint's: the port's range, the enums, the endpoint's form. The
// endpoint's timeout range is the server's.
void check_service(RequestCompiler& c, const Cursor& s, bool sent) {
  if (Cursor port = s["port"]; port.is_int() && (port.node->integer < 1 || port.node->integer > 65535)) {
    c.report(Code::SERVICE_PORT_RANGE, port, "Service.port must be 1-65535, got " + port.node->display());
  }
  std::string protocol = ascii_lower(s["protocol"].str("unspecified"));
  if (protocol.rfind("service_protocol_", 0) == 0) protocol = protocol.substr(17);
  if (protocol != "unspecified" && protocol != "tcp" && protocol != "udp" && protocol != "sctp") {
    c.report(Code::SERVICE_INVALID, s["protocol"], "protocol " + s["protocol"].node->display() + " is not tcp, udp or sctp");
  }
  std::string visibility = ascii_lower(s["visibility"].str("unspecified"));
  if (visibility.rfind("visibility_", 0) == 0) visibility = visibility.substr(11);
  if (visibility != "unspecified" && visibility != "public" && visibility != "private" && visibility != "custom") {
    c.report(Code::SERVICE_INVALID, s["visibility"],
             "visibility " + s["visibility"].node->display() + " is not public, private, custom or unspecified");
  }
  if (Cursor e = s["endpoint"]; e && e.node->is_object()) {
    // cwsandbox 1.22's Endpoint: kind https (auth open or share_token, required) or
    // tls_passthrough (no auth, no timeout); the enums are lowercased before lookup.
    std::string kind = ascii_lower(e["kind"].str()), auth = ascii_lower(e["auth"].str());
    bool has_auth = e["auth"] && e["auth"].node->is_string();
    if (e["kind"] && e["kind"].node->is_string() && kind != "https" && kind != "tls_passthrough") {
      c.report(Code::SERVICE_INVALID, e["kind"], "endpoint kind " + e["kind"].node->display() + " is not a valid EndpointKind",
               "use \"https\" or \"tls_passthrough\"");
    } else if (has_auth && auth != "open" && auth != "share_token") {
      c.report(Code::SERVICE_INVALID, e["auth"], "endpoint auth " + e["auth"].node->display() + " is not a valid EndpointAuth",
               "use \"open\" or \"share_token\"");
    } else if (kind == "https" && !has_auth) {
      c.report(Code::SERVICE_INVALID, e, "Endpoint.auth is required when kind is HTTPS", "add auth: open (or share_token)");
    } else if (kind == "tls_passthrough" && has_auth) {
      c.report(Code::SERVICE_INVALID, e["auth"], "Endpoint.auth must be unset when kind is TLS_PASSTHROUGH",
               "the workload terminates TLS itself: remove auth");
    } else if (kind == "tls_passthrough" && e["request_timeout_seconds"]) {
      c.report(Code::SERVICE_INVALID, e["request_timeout_seconds"],
               "Endpoint.request_timeout_seconds must be unset when kind is TLS_PASSTHROUGH", "remove it");
    }
    if (visibility != "public" || (protocol != "unspecified" && protocol != "tcp")) {
      c.report(Code::SERVICE_INVALID, e, "an endpoint needs visibility public and protocol unset or tcp");
    }
    if (Cursor rt = e["request_timeout_seconds"]; sent && rt.is_int() && rt.node->integer != 0 && (rt.node->integer < 15 || rt.node->integer > 900)) {
      c.report(Code::SERVICE_INVALID, rt, "endpoint request_timeout_seconds must be 0 or 15..900");
    }
  }
}

// Secret.__post_init__; `sent`: also the TypeScript SDK's rule on blank fields.
void check_secret_fields(RequestCompiler& c, const Cursor& s, bool sent) {
  for (const char* field : {"store", "name", "env_var"}) {
    Cursor f = s[field];
    if (!f || !f.node->is_string()) continue;
    if (f.node->text.empty()) {
      // Secret.__post_init__ (ValueError) and the TypeScript SDK alike.
      c.report(Code::SECRET_FIELD_EMPTY, f, std::string("Secret.") + field + " cannot be empty", "give it a value");
    } else if (sent && f.node->text.find_first_not_of(" \t") == std::string::npos) {
      c.report(Code::SECRET_CLIENT_RULE, f, std::string("secret ") + field + " is blank", "give it a value");
    }
  }
}

// Container.__post_init__ on one entry (what SandboxDefaults.from_dict runs too): the name's
// form, working_dir, secrets unique by env_var, and no security_context. `named` is set to the
// name when the container has one ("" and other falsy values are unnamed).
void check_container(RequestCompiler& c, const Cursor& ct, Cursor& named) {
  // cwsandbox 1.22 _RESERVED_CONTAINER_NAMES (and the prefix cw-object-store-agent-restore-).
  static constexpr std::string_view k_reserved[] = {"cw-object-store-agent", "cw-object-store-agent-restore", "cws-engine",
                                                    "dns-egress", "dns-egress-probe"};
  Cursor name = ct["name"];
  // Container(name="") is unnamed; a value of another type is the schema's (SG_TYPE_MISMATCH).
  if (name && (!name.node->is_string() || name.node->text.empty())) name = Cursor{};
  named = name;
  if (name) {
    const std::string& n = name.node->text;
    bool reserved = std::find(std::begin(k_reserved), std::end(k_reserved), n) != std::end(k_reserved) ||
                    n.rfind("cw-object-store-agent-restore-", 0) == 0;
    if (!is_dns1123_label(n)) {
      c.report(Code::CONTAINER_INVALID, name,
               "container name " + name.node->display() + " is not a DNS-1123 label (lowercase letters, digits, '-', at most 63)");
      named = Cursor{};
    } else if (reserved) {
      c.report(Code::CONTAINER_INVALID, name, "container name \"" + n + "\" is reserved by the platform");
      named = Cursor{};
    }
  }
  if (Cursor wd = ct["working_dir"]; wd && wd.node->is_string() && !wd.node->text.empty()) {
    if (wd.node->text.front() != '/' || wd.node->text == "/") {
      c.report(Code::MOUNT_PATH_NOT_ABSOLUTE, wd,
               "Container.working_dir must be an absolute path other than '/', got: " + wd.node->display(), "write e.g. /app");
    }
  }
  std::map<std::string, std::pair<std::tuple<std::string, std::string, std::string>, Origin>> by_env;
  Cursor secrets = ct["secrets"];
  for (std::size_t k = 0; k < secrets.size(); ++k) {
    Cursor sec = secrets.at(k);
    if (!sec.node->is_object()) continue;
    std::string env = sec["env_var"].str(sec["name"].str());
    auto source = std::make_tuple(sec["store"].str(), sec["name"].str(), sec["field"].str());
    auto [it, inserted] = by_env.emplace(env, std::make_pair(source, origin_of(sec)));
    if (!inserted && it->second.first != source) {
      Diagnostic& d = c.report(Code::SECRET_CONFLICT, sec, "Conflicting secrets for env_var '" + env + "': two different sources set it",
                               "give one of them another env_var");
      c.relate(d, it->second.second, "the other source for this env_var");
    }
  }
  if (Cursor sc = ct["security_context"]) {
    c.report_key(Code::NOT_A_PYTHON_KEYWORD, sc, "Container.__init__() got an unexpected keyword argument 'security_context'",
                 "cwsandbox's Container has no security context of its own");
  }
}

void check_data_plane_mode(RequestCompiler& c, const Cursor& at) {
  check_enum(c, at, "DataPlaneMode", {"auto", "gateway", "direct"});
}

void check_storage_permission(RequestCompiler& c, const Cursor& at) {
  check_enum(c, at, "ObjectStoragePermission", {"unspecified", "read", "read_write"});
}

namespace {

void check_tags(RequestCompiler& c) {
  const MergedField* f = c.m.field("tags");
  if (!f || !f->value().is_array()) return;
  const auto& items = f->value().items;
  // The first occurrence of each tag, by index: a hash map for long lists, a scan for short ones.
  std::unordered_map<std::string_view, std::size_t> seen;
  auto first = [&](std::size_t i) -> std::optional<std::size_t> {
    std::string_view v = items[i].text;
    if (items.size() > 16) {
      auto [it, inserted] = seen.emplace(v, i);
      return inserted ? std::nullopt : std::optional<std::size_t>(it->second);
    }
    for (std::size_t k = 0; k < i; ++k) {
      if (items[k].is_string() && items[k].text == v) return k;
    }
    return std::nullopt;
  };
  for (std::size_t i = 0; i < items.size() && i < f->parts.size(); ++i) {
    const Node& t = items[i];
    if (!t.is_string()) continue;
    if (!valid_tag(t.text)) {
      std::string near = nearest_tag(t.text);
      c.report_at(Code::TAG_INVALID, f->parts[i],
                  "tag " + t.display() + " must be 1 to 59 characters of letters, digits, '.', '_' or '-', ending in a letter or digit",
                  near.empty() ? std::string() : "write e.g. " + quoted(near));
      if (items.size() > 16) seen.emplace(t.text, i);
    } else if (auto k = first(i)) {
      Diagnostic& d = c.report_at(Code::TAG_DUPLICATE, f->parts[i],
                                  "tag " + t.display() + " appears twice (defaults' tags come first, then the request's)",
                                  "the Python SDK keeps duplicates; the TypeScript SDK requires unique tags");
      c.relate(d, f->parts[*k], "the first occurrence");
    }
  }
}

void check_services(RequestCompiler& c) {
  Cursor services = c.field("services");
  std::unordered_map<std::int64_t, Origin> ports;
  for (std::size_t i = 0; i < services.size(); ++i) {
    Cursor s = services.at(i);
    check_service(c, s, true);
    // The rules on the list and on names are not Service's: the server's and the TypeScript SDK's.
    if (Cursor port = s["port"]; port.is_int() && port.node->integer >= 1 && port.node->integer <= 65535) {
      if (auto it = ports.find(port.node->integer); it != ports.end()) {
        Diagnostic& d = c.report(Code::SERVICE_PORT_DUPLICATE, port, "service port " + port.node->display() + " is used twice");
        c.relate(d, it->second, "the first service on this port");
      } else {
        ports.emplace(port.node->integer, origin_of(port));
      }
    }
    if (Cursor n = s["name"]; n && n.node->is_string() && n.node->text.find_first_not_of(" \t") == std::string::npos) {
      c.report(Code::SERVICE_NAME_BLANK, n, "a service name, when given, must not be blank", "give it a name or leave it out");
    }
  }
}

void check_secrets(RequestCompiler& c) {
  std::vector<Cursor> secrets = c.parts("secrets");
  std::unordered_set<std::string_view> env_vars;
  if (Cursor env_map = c.field("environment_variables"); env_map && env_map.node->is_object()) {
    for (const auto& m : env_map.node->members) env_vars.insert(m.key);
  }
  struct First {
    std::tuple<std::string, std::string, std::string> source;
    Origin at;
  };
  std::map<std::string, First> by_env;
  for (const Cursor& s : secrets) {
    if (!s.node->is_object()) continue;
    std::string env = s["env_var"].str(s["name"].str());
    auto source = std::make_tuple(s["store"].str(), s["name"].str(), s["field"].str());
    auto [it, inserted] = by_env.emplace(env, First{source, origin_of(s)});
    if (!inserted && it->second.source != source) {
      Diagnostic& d = c.report(Code::SECRET_CONFLICT, s, "Conflicting secrets for env_var '" + env + "': two different sources set it",
                               "give one of them another env_var");
      c.relate(d, it->second.at, "the other source for this env_var");
    } else if (!inserted) {
      // TypeScript client rules (reference sdk-behaviour §2 item 10); Python merges identical entries.
      Diagnostic& d = c.report(Code::SECRET_CLIENT_RULE, s, "secret for env_var '" + env + "' is listed twice",
                               "list it once: the TypeScript SDK rejects even identical duplicates");
      c.relate(d, it->second.at, "the first occurrence");
    }
    if (inserted && env_vars.count(env)) {
      c.report(Code::SECRET_CLIENT_RULE, s, "secret env_var '" + env + "' is also set in environment_variables",
               "drop one of them: the TypeScript SDK rejects the collision");
    }
    check_secret_fields(c, s, true);
  }
  if (secrets.size() > 50) {
    c.report(Code::SECRET_CLIENT_RULE, c.field("secrets"), std::to_string(secrets.size()) + " secrets; the TypeScript SDK accepts at most 50");
  }
}

void check_containers(RequestCompiler& c) {
  Cursor containers = c.field("containers");
  if (!containers || !containers.node->is_array()) return;
  if (containers.size() == 0) {
    // Sandbox(containers=[]) and an empty SandboxDefaults.containers alike (_validate_containers).
    c.report(Code::VALUE_RANGE, containers, "containers cannot be empty", "leave containers out for a single container");
    return;
  }
  std::unordered_map<std::string, Origin> names;
  std::size_t primaries = 0;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    Cursor ct = containers.at(i);
    if (!ct.node->is_object()) continue;
    if (ct["primary"].boolean(false)) ++primaries;
    Cursor name;
    check_container(c, ct, name);
    std::string n = name.str();
    // _validate_containers: with several containers, every one named and the names unique.
    if (name) {
      if (auto it = names.find(n); it != names.end()) {
        Diagnostic& d = c.report(Code::CONTAINER_INVALID, name, "container name \"" + n + "\" is used twice");
        c.relate(d, it->second, "the first container with this name");
      }
      names.emplace(n, origin_of(name));
    } else if (containers.size() > 1 && !(ct["name"] && ct["name"].node->is_string() && !ct["name"].node->text.empty())) {
      c.report(Code::CONTAINER_INVALID, ct, "every container needs a name when there are several");
    }
    // _validate_container_compute: the resources as normalised (read_resources made one model
    // container per item, in order) must ask for some compute; `{cpu: null}` or `{}` does not. A
    // container whose quantities are invalid has its own error already.
    const model::Container& mc = c.m.containers[i];
    const bool compute = mc.invalid || mc.req_cpu_written || mc.req_mem_written || mc.req_cpu || mc.req_mem ||
                         mc.lim_cpu || mc.lim_mem || mc.gpu;
    if (containers.size() > 1 && !compute) {
      c.report(Code::CONTAINER_INVALID, ct, "container '" + n + "' requires resources when more than one container is specified");
    }
  }
  Cursor primary_at = c.field("primary_container");
  std::string primary_name = primary_at.str();
  if (containers.size() > 1 && primaries != 1 && !(primaries == 0 && !primary_name.empty())) {
    c.report(Code::CONTAINER_INVALID, containers,
             primaries == 0 ? "several containers and none is primary" : std::to_string(primaries) + " containers are marked primary",
             "mark exactly one container primary: true");
  }
  if (!primary_name.empty() && !names.count(primary_name)) {
    c.report(Code::CONTAINER_INVALID, primary_at, "primary_container \"" + primary_name + "\" names no container");
  }
}

void check_client_enums(RequestCompiler& c) {
  check_data_plane_mode(c, c.field("data_plane_mode"));
  check_storage_permission(c, c.field("object_storage_access")["permission"]);
}

// Sandbox.run(template_id=…): STRICT placement only, and container overrides replace the
// template's container whole, so they need its image (cwsandbox _build_create_from_template_request).
void check_template(RequestCompiler& c) {
  // from_template is `template_id is not None` (the spillover rule); the template request is
  // built when it is truthy (the container-overrides rule).
  Cursor tpl = c.field("template_id");
  if (!tpl || tpl.layer != Layer::sandbox) return;
  if (Cursor sp = c.field("placement_spillover"); sp && sp.layer == Layer::sandbox && sp.node->is_string() &&
                                                  ascii_lower(sp.node->text) != "strict") {
    c.report(Code::SPILLOVER_CONFLICT, sp,
             "placement_spillover must be STRICT for template sandboxes (got " + python_repr_of(ascii_lower(sp.node->text)) + ")",
             "leave placement_spillover unset for a template");
  }
  const Node& t = *tpl.node;
  bool truthy = t.is_string() ? !t.text.empty()
                : t.is_bool() ? t.boolean
                : t.is_int() ? t.integer != 0 || t.int_overflow
                : t.is_number() ? t.number != 0
                : t.is_array() ? !t.items.empty()
                : t.is_object() ? !t.members.empty()
                                : false;
  if (!truthy) return;
  auto explicit_field = [&](std::string_view key) {
    Cursor f = c.field(key);
    return f && f.layer == Layer::sandbox ? f : Cursor{};
  };
  if (explicit_field("container_image") || explicit_field("containers")) return;
  for (std::string_view key : {"command", "args", "environment_variables", "mounted_files", "volumes", "file_system_snapshot",
                               "secrets", "resources", "image_pull_credentials", "security_context", "working_dir"}) {
    Cursor f = explicit_field(key);
    if (!f) continue;
    // Only three overrides count when truthy (environment_variables, secrets, working_dir "" →
    // None); command and args count when not None, the others when the keyword is given at all.
    bool empty = (key == "environment_variables" && f.node->is_object() && f.node->members.empty()) ||
                 (key == "secrets" && f.node->is_array() && f.node->items.empty()) ||
                 (key == "working_dir" && f.node->is_string() && f.node->text.empty());
    if (empty) continue;
    c.report_key(Code::TEMPLATE_OVERRIDES_WITHOUT_IMAGE, f,
                 "replace-on-presence container overrides require container_image: \"" + std::string(f.member->input_key()) +
                     "\" overrides the template's container, and the API replaces the whole container",
                 "add container_image (the template's image, or another)");
    return;
  }
}

}  // namespace

void check_misc(RequestCompiler& c) {
  check_client_enums(c);
  check_template(c);
  check_tags(c);
  check_services(c);
  check_secrets(c);
  check_containers(c);
}

}  // namespace sandgate::model
