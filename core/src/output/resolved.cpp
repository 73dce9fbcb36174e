// The resolved sandbox (SPEC §7) from Request ⊕ Resolution, through one table of fields: each
// field of the sandbox schema, in schema order, is either passed through from the merged request
// (every leaf's provenance is the layer that wrote it) or made by the rule that resolved it.
#include <unordered_set>

#include "engine/rules.h"
#include "model/cursor.h"
#include "output/output.h"
#include "schema/schema_store.h"

namespace sandgate::output {
namespace {

using model::RequestModel;

constexpr std::string_view k_policy_resources = "policy.constraints.resources.";

// The resolved sandbox speaks canonical snake_case only: drop the input spellings.
void canonical_keys(Node& n) {
  for (auto& m : n.members) {
    m.original_key.clear();
    canonical_keys(m.value);
  }
  for (auto& item : n.items) canonical_keys(item);
}

Node canonical(const Node& n) {
  Node copy = n;
  canonical_keys(copy);
  return copy;
}

std::string layer_of(const model::Origin& o) { return std::string(provenance_name(o.layer)); }

struct Builder {
  const FindingContext& cx;
  const RequestModel& req;
  const Resolution& res;
  ResolvedOutput out;

  // Records `from` as the provenance of every leaf of `n` at `pointer`.
  void leaves(const std::string& pointer, const Node& n, const std::string& from) {
    if (n.is_object() && !n.members.empty()) {
      for (const auto& m : n.members) leaves(pointer_join(pointer, m.key), m.value, from);
    } else if (n.is_array() && !n.items.empty()) {
      for (std::size_t i = 0; i < n.items.size(); ++i) leaves(pointer_join(pointer, i), n.items[i], from);
    } else {
      out.provenance.emplace_back(pointer, from);
    }
  }
  void rule(std::string pointer, std::string_view id) { out.rules_applied.emplace_back(std::move(pointer), std::string(id)); }
  // Adds a top-level member whose leaves all come from `from`.
  void put(std::string_view key, Node value, const std::string& from) {
    std::string pointer = pointer_join("", key);
    leaves(pointer, value, from);
    out.resolved.add(std::string(key), std::move(value));
  }

  // A field of the merged request as it is; a map or list merged over the layers names each
  // entry's own layer.
  void passthrough(const model::MergedField& f) {
    Node value = canonical(f.member.value);
    std::string pointer = pointer_join("", f.member.key);
    if (!f.parts.empty() && value.is_object() && value.members.size() == f.parts.size()) {
      for (std::size_t i = 0; i < value.members.size(); ++i) {
        leaves(pointer_join(pointer, value.members[i].key), value.members[i].value, layer_of(f.parts[i]));
      }
    } else if (!f.parts.empty() && value.is_array() && value.items.size() == f.parts.size()) {
      for (std::size_t i = 0; i < value.items.size(); ++i) leaves(pointer_join(pointer, i), value.items[i], layer_of(f.parts[i]));
    } else {
      leaves(pointer, value, layer_of(f.origin));
    }
    out.resolved.add(f.member.key, std::move(value));
  }

  // requests/limits/gpu of one container, with provenance and R-RES-1 marks.
  Node resources(const model::Container& c, const ContainerResolution& cr, const std::string& at) {
    Node node = Node::make_object();
    auto side = [&](const char* name, const ResolvedQuantity& cpu, const ResolvedQuantity& mem) {
      Node s = Node::make_object();
      for (auto [dim, q] : {std::pair{"cpu", &cpu}, std::pair{"memory", &mem}}) {
        if (!*q) continue;
        std::string pointer = at + "/" + name + "/" + dim;
        if (q->from == ResolvedQuantity::From::policy_default) {
          out.provenance.emplace_back(pointer, std::string(k_policy_resources) + "default_" + (std::string_view(dim) == "cpu" ? "cpu" : "memory"));
          rule(pointer, "R-RES-1");
        } else {
          out.provenance.emplace_back(pointer, q->origin ? layer_of(*q->origin) : std::string("sandbox"));
        }
        s.add(dim, Node::make_string(*q->text));
      }
      if (!s.members.empty()) node.add(name, std::move(s));
    };
    side("requests", cr.req_cpu, cr.req_mem);
    side("limits", cr.lim_cpu, cr.lim_mem);
    if (c.gpu) {
      Node gpu = Node::make_object();
      gpu.add("count", Node::make_int(c.gpu->count));
      if (!c.gpu->type.empty()) gpu.add("type", Node::make_string(c.gpu->type));
      if (c.gpu->memory_gb > 0) gpu.add("memory_gb", Node::make_int(c.gpu->memory_gb));
      leaves(at + "/gpu", gpu, layer_of(c.gpu->at));
      node.add("gpu", std::move(gpu));
    }
    return node;
  }

  void single_resources() {
    const model::Container& c = req.containers.front();
    if (c.invalid) return;
    Node node = resources(c, res.containers.front(), "/resources");
    if (!node.members.empty()) out.resolved.add("resources", std::move(node));
  }

  void containers(const model::MergedField& f) {
    Node list = Node::make_array();
    std::string layer = layer_of(f.origin);
    const Node& given = f.member.value;
    for (std::size_t i = 0; i < given.items.size(); ++i) {
      std::string at = "/containers/" + std::to_string(i);
      Node copy = canonical(given.items[i]);
      if (copy.is_object()) std::erase_if(copy.members, [](const Member& m) { return m.key == "resources"; });
      leaves(at, copy, layer);
      if (i < req.containers.size() && !req.containers[i].invalid && copy.is_object()) {
        Node r = resources(req.containers[i], res.containers[i], at + "/resources");
        if (!r.members.empty()) copy.add("resources", std::move(r));
      }
      list.items.push_back(std::move(copy));
    }
    out.resolved.add("containers", std::move(list));
  }

  void annotations() {
    auto resolved = engine::resolved_annotations(req, cx.policy, res);
    if (resolved.empty()) return;
    Node map = Node::make_object();
    for (const auto& a : resolved) {
      std::string pointer = pointer_join("/annotations", a.key);
      if (a.group_id_from_user_id) {
        out.provenance.emplace_back(pointer, "platform");
        rule(pointer, "R-ANN-7");
      } else if (a.base) {
        out.provenance.emplace_back(pointer, "policy.base");
        if (a.client) rule(pointer, "R-ANN-1");
      } else {
        out.provenance.emplace_back(pointer, layer_of(a.client->origin));
      }
      map.add(std::string(a.key), Node::make_string(std::string(a.value)));
    }
    out.resolved.add("annotations", std::move(map));
  }

  void lifetime() {
    switch (res.lifetime_from) {
      case LifetimeFrom::request: put("max_lifetime_seconds", Node::make_int(res.lifetime), layer_of(*req.lifetime_at)); return;
      case LifetimeFrom::policy:
        put("max_lifetime_seconds", Node::make_int(res.lifetime), "policy.constraints.lifecycle.default_lifetime_seconds");
        break;
      case LifetimeFrom::platform: put("max_lifetime_seconds", Node::make_int(res.lifetime), "platform"); break;
    }
    rule("/max_lifetime_seconds", "R-TIME-2");
  }

  void timeout() {
    using T = RequestModel::Timeout;
    switch (req.timeout) {
      case T::unset:
      case T::rejected: put("max_timeout_seconds", Node::make_int(30), "platform"); break;
      case T::value:
      case T::out_of_range: put("max_timeout_seconds", Node::make_int(req.timeout_value), layer_of(*req.timeout_at)); break;
      case T::clamped:
        put("max_timeout_seconds", Node::make_int(300), "platform");
        rule("/max_timeout_seconds", "R-TIME-3");
        break;
      case T::invalid: break;
    }
  }

  void placement_mode() {
    std::string from;
    switch (req.mode_from) {
      case ModeSource::option: from = "option"; break;
      case ModeSource::request: from = req.mode_at ? layer_of(*req.mode_at) : "sandbox"; break;
      case ModeSource::sdk: from = "sdk"; break;
      case ModeSource::platform: from = "platform"; break;
    }
    put("placement_mode", Node::make_string(std::string(to_string(res.mode))), from);
    if (!req.mode_explicit) rule("/placement_mode", "N-PL");
  }

  // The policy's default rule list (constraints.network.<key>) as written.
  Node policy_list(const char* key) {
    if (!res.policy) return Node::make_array();
    model::Cursor c = model::Cursor{&res.policy->document(), nullptr, ""}["constraints"]["network"][key];
    return c && c.node->is_array() ? canonical(*c.node) : Node::make_array();
  }

  void network(const model::MergedField* f) {
    Node net = f && f->member.value.is_object() ? canonical(f->member.value) : Node::make_object();
    std::string layer = f ? layer_of(f->origin) : std::string("sandbox");
    if (f && f->member.value.is_object()) leaves("/network", net, layer);
    auto set = [&](const char* key, Node value, const std::string& from, bool default_rule) {
      std::string pointer = pointer_join("/network", key);
      std::erase_if(out.provenance, [&](const auto& p) { return p.first == pointer || p.first.rfind(pointer + "/", 0) == 0; });
      leaves(pointer, value, from);
      if (default_rule) rule(pointer, "R-NET");
      if (Node* existing = net.find(key)) {
        *existing = std::move(value);
      } else {
        net.add(key, std::move(value));
      }
    };
    if (res.egress_from == NetworkFrom::denied) {
      set("egress", Node::make_array(), layer, false);
    } else if (res.egress_from == NetworkFrom::policy_default) {
      set("egress", policy_list("default_egress"), "policy.constraints.network.default_egress", true);
    }
    if (res.ingress_from == NetworkFrom::denied) {
      set("ingress", Node::make_array(), layer, false);
    } else if (res.ingress_from == NetworkFrom::policy_default) {
      set("ingress", policy_list("default_ingress"), "policy.constraints.network.default_ingress", true);
    }
    if (f || !net.members.empty()) out.resolved.add("network", std::move(net));
  }

  void sdk_defaults(std::string_view key) {
    if (req.multi_container || req.from_template) return;  // a template's own container stands
    if (key == "container_image") {
      put(key, Node::make_string("python:3.11"), "sdk");
    } else if (key == "command") {
      put(key, Node::make_string("/bin/sh"), "sdk");
    } else if (key == "args" && !req.field("command")) {
      bool ts = req.client == Client::typescript;
      Node args = Node::make_array();
      args.items.push_back(Node::make_string(ts ? "-lc" : "-c"));
      args.items.push_back(Node::make_string(ts ? "trap 'exit 0' TERM INT; sleep infinity & wait"
                                                : "trap \"exit 0\" TERM INT; sleep infinity & wait"));
      put(key, std::move(args), "sdk");
    }
  }

  // The one table: every field of the sandbox schema, in schema order.
  void build() {
    out.resolved = Node::make_object();
    // Room for every merged field and the ones rules always add (command, args, lifetime,
    // timeout, placement mode, network, …): growing 1, 2, 4, … moved every Member each time, a
    // tenth of building the output.
    out.resolved.members.reserve(req.fields.size() + 8);
    out.provenance.reserve(2 * req.fields.size() + 16);
    const auto& schema = schema::get("sandbox");
    for (const std::string& key : schema.root->property_names) {
      const model::MergedField* f = req.field(key);
      if (key == "resources") {
        if (!req.multi_container) single_resources();
      } else if (key == "containers") {
        if (f && req.multi_container) containers(*f);
      } else if (key == "annotations") {
        annotations();
      } else if (key == "max_lifetime_seconds") {
        lifetime();
      } else if (key == "max_timeout_seconds") {
        timeout();
      } else if (key == "placement_mode") {
        placement_mode();
      } else if (key == "network") {
        network(f);
      } else if (f) {
        passthrough(*f);
      } else {
        sdk_defaults(key);
      }
    }
    rule("/resources", "N-QOS");
    for (std::uint32_t i : res.percent_sizes) rule("/volumes/" + std::to_string(i) + "/size", "R-VOL-2");
  }
};

}  // namespace

ResolvedOutput resolve(const FindingContext& cx) {
  Builder b{cx, cx.request, cx.resolution, {}};
  b.build();
  return std::move(b.out);
}

std::string runtime_class_source(const model::RequestModel& req, const Resolution& res) {
  switch (res.runtime_class_from) {
    case RuntimeClassFrom::request: return layer_of(req.runtime_class.origin);
    case RuntimeClassFrom::policy_cpu_default: return "policy.constraints.security.default_cpu_runtime_class";
    case RuntimeClassFrom::policy_gpu_default: return "policy.constraints.security.default_gpu_runtime_class";
    case RuntimeClassFrom::runner: return "runner";
    case RuntimeClassFrom::platform: return "platform";
  }
  return "platform";
}

}  // namespace sandgate::output
