// R-MISC (SPEC §6.9): tags, services, secrets, and the multi-container rules.
#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_set>

#include "engine/rules.h"
#include "util/net.h"

namespace sandgate::engine {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

// The TypeScript SDK's tag form: ^[A-Za-z0-9._-]*[A-Za-z0-9]$, at most 59 characters.
bool valid_tag(std::string_view t) {
  if (t.empty() || t.size() > 59) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
  if (!alnum(t.back())) return false;
  return std::all_of(t.begin(), t.end(), [&](char c) { return alnum(c) || c == '.' || c == '_' || c == '-'; });
}

void check_tags(Context& ctx) {
  Cursor tags = ctx.root()["tags"];
  std::unordered_set<std::string_view> seen;  // views of the tags' text in the merged request
  for (std::size_t i = 0; i < tags.size(); ++i) {
    Cursor t = tags.at(i);
    if (!t.node->is_string()) continue;
    bool first = seen.insert(t.node->text).second;
    if (!valid_tag(t.node->text)) {
      ctx.report(Code::TAG_INVALID, t, "tag " + t.node->display() + " must be 1 to 59 characters of letters, digits, '.', '_' or '-', ending in a letter or digit");
    } else if (!first) {
      ctx.report(Code::TAG_DUPLICATE, t, "tag " + t.node->display() + " appears twice (defaults' tags come first, then the request's)",
                 "the Python SDK keeps duplicates; the TypeScript SDK requires unique tags");
    }
  }
}

void check_services(Context& ctx) {
  Cursor services = ctx.root()["services"];
  std::unordered_set<std::int64_t> ports;
  for (std::size_t i = 0; i < services.size(); ++i) {
    Cursor s = services.at(i);
    Cursor port = s["port"];
    if (port.is_int()) {
      std::int64_t p = port.node->integer;
      if (p < 1 || p > 65535) {
        ctx.report(Code::SERVICE_PORT_RANGE, port, "Service.port must be 1-65535, got " + port.node->display());
      } else if (ports.count(p)) {
        ctx.report(Code::SERVICE_PORT_DUPLICATE, port, "service port " + port.node->display() + " is used twice");
      }
      ports.insert(p);
    }
    if (Cursor n = s["name"]; n && n.node->is_string() && n.node->text.find_first_not_of(" \t") == std::string::npos) {
      ctx.report(Code::SERVICE_NAME_BLANK, n, "a service name, when given, must not be blank", "give it a name or leave it out");
    }
    std::string protocol = lower(s["protocol"].str("unspecified"));
    if (protocol.rfind("service_protocol_", 0) == 0) protocol = protocol.substr(17);
    if (protocol != "unspecified" && protocol != "tcp" && protocol != "udp" && protocol != "sctp") {
      ctx.report(Code::SERVICE_INVALID, s["protocol"], "protocol " + s["protocol"].node->display() + " is not tcp, udp or sctp");
    }
    std::string visibility = lower(s["visibility"].str("unspecified"));
    if (visibility.rfind("visibility_", 0) == 0) visibility = visibility.substr(11);
    if (visibility != "unspecified" && visibility != "public" && visibility != "private" && visibility != "custom") {
      ctx.report(Code::SERVICE_INVALID, s["visibility"], "visibility " + s["visibility"].node->display() + " is not public, private, custom or unspecified");
    }
    if (Cursor e = s["endpoint"]; e && e.node->is_object()) {
      std::string kind = lower(e["kind"].str()), auth = lower(e["auth"].str("open"));
      if (kind != "https" || auth != "open") {
        ctx.report(Code::SERVICE_INVALID, e, "an endpoint must be kind https with auth open", "write endpoint: {kind: https, auth: open}");
      }
      if (visibility != "public" || (protocol != "unspecified" && protocol != "tcp")) {
        ctx.report(Code::SERVICE_INVALID, e, "an endpoint needs visibility public and protocol unset or tcp");
      }
      if (Cursor rt = e["request_timeout_seconds"]; rt.is_int() && rt.node->integer != 0 && (rt.node->integer < 15 || rt.node->integer > 900)) {
        ctx.report(Code::SERVICE_INVALID, rt, "endpoint request_timeout_seconds must be 0 or 15..900");
      }
    }
  }
}

void check_secrets(Context& ctx) {
  Cursor secrets = ctx.root()["secrets"];
  std::map<std::string, std::tuple<std::string, std::string, std::string>> by_env;
  // The environment_variables keys, hashed once (a lookup per secret must not scan them all).
  std::unordered_set<std::string_view> env_keys;
  if (Cursor env_map = ctx.root()["environment_variables"]; env_map && env_map.node->is_object()) {
    for (const auto& m : env_map.node->members) env_keys.insert(m.key);
  }
  for (std::size_t i = 0; i < secrets.size(); ++i) {
    Cursor s = secrets.at(i);
    if (!s.node->is_object()) continue;
    std::string env = s["env_var"].str(s["name"].str());
    auto source = std::make_tuple(s["store"].str(), s["name"].str(), s["field"].str());
    auto [it, inserted] = by_env.emplace(env, source);
    if (!inserted && it->second != source) {
      ctx.report(Code::SECRET_CONFLICT, s, "Conflicting secrets for env_var '" + env + "': two different sources set it",
                 "give one of them another env_var");
    } else if (!inserted) {
      // TypeScript client rules (reference sdk-behaviour §2 item 10); Python merges identical entries.
      ctx.report(Code::SECRET_CLIENT_RULE, s, "secret for env_var '" + env + "' is listed twice",
                 "list it once: the TypeScript SDK rejects even identical duplicates");
    }
    if (inserted && env_keys.count(env)) {
      ctx.report(Code::SECRET_CLIENT_RULE, s, "secret env_var '" + env + "' is also set in environment_variables",
                 "drop one of them: the TypeScript SDK rejects the collision");
    }
    for (const char* field : {"store", "name", "env_var"}) {
      if (Cursor f = s[field]; f && f.node->is_string() && f.node->text.find_first_not_of(" \t") == std::string::npos) {
        ctx.report(Code::SECRET_CLIENT_RULE, f, std::string("secret ") + field + " is empty", "give it a value");
      }
    }
  }
  if (secrets.size() > 50) {
    ctx.report(Code::SECRET_CLIENT_RULE, secrets, std::to_string(secrets.size()) + " secrets; the TypeScript SDK accepts at most 50");
  }
}

void check_containers(Context& ctx) {
  Cursor containers = ctx.root()["containers"];
  if (!containers || !containers.node->is_array()) return;
  static constexpr std::string_view k_reserved[] = {"cw-object-store-agent", "cw-object-store-agent-restore", "dns-egress", "dns-egress-probe"};
  std::unordered_set<std::string> name_set;
  std::size_t primaries = 0;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    Cursor c = containers.at(i);
    if (!c.node->is_object()) continue;
    Cursor name = c["name"];
    std::string n = name.str();
    if (c["primary"].boolean(false)) ++primaries;
    if (name) {
      bool reserved = std::find(std::begin(k_reserved), std::end(k_reserved), n) != std::end(k_reserved) ||
                      n.rfind("cw-object-store-agent-restore-", 0) == 0;
      if (!is_dns1123_label(n)) {
        ctx.report(Code::CONTAINER_INVALID, name, "container name " + name.node->display() + " is not a DNS-1123 label (lowercase letters, digits, '-', at most 63)");
      } else if (reserved) {
        ctx.report(Code::CONTAINER_INVALID, name, "container name \"" + n + "\" is reserved by the platform");
      } else if (name_set.count(n)) {
        ctx.report(Code::CONTAINER_INVALID, name, "container name \"" + n + "\" is used twice");
      }
      name_set.insert(n);
    } else if (containers.size() > 1) {
      ctx.report(Code::CONTAINER_INVALID, c, "every container needs a name when there are several");
    }
    if (containers.size() > 1 && !c["resources"]) {
      ctx.report(Code::CONTAINER_INVALID, c,
                 "container '" + n + "' requires resources when more than one container is specified");
    }
  }
  std::string primary_name = ctx.root()["primary_container"].str();
  if (containers.size() > 1 && primaries != 1 && !(primaries == 0 && !primary_name.empty())) {
    ctx.report(Code::CONTAINER_INVALID, containers,
               primaries == 0 ? "several containers and none is primary" : std::to_string(primaries) + " containers are marked primary",
               "mark exactly one container primary: true");
  }
  if (!primary_name.empty() && !name_set.count(primary_name)) {
    ctx.report(Code::CONTAINER_INVALID, ctx.root()["primary_container"], "primary_container \"" + primary_name + "\" names no container");
  }
}

}  // namespace

void check_misc(Context& ctx) {
  check_tags(ctx);
  check_services(ctx);
  check_secrets(ctx);
  check_containers(ctx);
}

}  // namespace sandgate::engine
