// The resolved sandbox (SPEC §7): the merged request in canonical snake_case with every default
// filled in; each leaf's provenance names the layer or policy field it came from.
#include <algorithm>

#include "engine/rules.h"

namespace sandgate::engine {
namespace {

// Fields that dedicated rules resolve themselves.
constexpr std::string_view k_resolved_elsewhere[] = {"resources", "annotations", "max_lifetime_seconds", "max_timeout_seconds",
                                                     "placement_mode", "network", "containers"};

Node quantity_node(const std::string& text, std::uint8_t origin) {
  Node n = Node::make_string(text);
  n.origin = origin;
  return n;
}

void resolve_resources(Context& ctx, const ContainerResources& c, const std::string& at) {
  if (c.invalid) return;
  auto put = [&](const std::string& pointer, const std::optional<Quantity>& q, const std::string& text, const Cursor& where,
                 bool defaulted, const char* policy_field) {
    if (!q) return;
    if (defaulted) {
      ctx.resolve(pointer, Node::make_string(text), std::string("policy.constraints.resources.") + policy_field);
      ctx.touched(pointer, "R-RES-1");
    } else {
      ctx.resolve(pointer, quantity_node(text, where.node ? where.node->origin : k_sandbox));
    }
  };
  put(at + "/requests/cpu", c.req_cpu, c.req_cpu_text, c.req_cpu_at, c.defaulted_cpu, "default_cpu");
  put(at + "/requests/memory", c.req_mem, c.req_mem_text, c.req_mem_at, c.defaulted_mem, "default_memory");
  put(at + "/limits/cpu", c.lim_cpu, c.lim_cpu_text, c.lim_cpu_at, c.defaulted_cpu, "default_cpu");
  put(at + "/limits/memory", c.lim_mem, c.lim_mem_text, c.lim_mem_at, c.defaulted_mem, "default_memory");
  if (c.gpu) {
    Node gpu = Node::make_object();
    gpu.add("count", Node::make_int(c.gpu->count));
    if (!c.gpu->type.empty()) gpu.add("type", Node::make_string(c.gpu->type));
    if (c.gpu->memory_gb > 0) gpu.add("memory_gb", Node::make_int(c.gpu->memory_gb));
    stamp(gpu, c.gpu->at.node ? c.gpu->at.node->origin : k_sandbox);
    ctx.resolve(at + "/gpu", gpu);
  }
}

}  // namespace

void resolve_passthrough(Context& ctx) {
  Cursor root = ctx.root();
  bool multi = root["containers"] && root["containers"].node->is_array();
  for (const auto& m : ctx.req.members) {
    if (std::find(std::begin(k_resolved_elsewhere), std::end(k_resolved_elsewhere), m.key) != std::end(k_resolved_elsewhere)) continue;
    ctx.resolve(pointer_join("", m.key), m.value);
  }
  if (multi) {
    Cursor containers = root["containers"];
    // The resolved `containers` is a list, as in the request: create it before resolving its
    // elements by index (resolve() would otherwise create an object with keys "0", "1", …).
    if (!ctx.result.resolved.find("containers")) ctx.result.resolved.add("containers", Node::make_array());
    for (std::size_t i = 0; i < containers.size(); ++i) {
      std::string at = "/containers/" + std::to_string(i);
      Node copy = *containers.at(i).node;
      if (copy.is_object()) {
        copy.members.erase(std::remove_if(copy.members.begin(), copy.members.end(), [](const Member& m) { return m.key == "resources"; }),
                           copy.members.end());
      }
      ctx.resolve(at, copy);
      if (i < ctx.containers.size()) resolve_resources(ctx, ctx.containers[i], at + "/resources");
    }
    return;
  }
  // The SDK's own defaults for the single container.
  if (!root["container_image"]) {
    ctx.resolve("/container_image", Node::make_string("python:3.11"), "sdk");
  }
  if (!root["command"]) {
    bool ts = ctx.options.client == "typescript";
    ctx.resolve("/command", Node::make_string("/bin/sh"), "sdk");
    if (!root["args"]) {
      Node args = Node::make_array();
      args.items.push_back(Node::make_string(ts ? "-lc" : "-c"));
      args.items.push_back(Node::make_string(ts ? "trap 'exit 0' TERM INT; sleep infinity & wait"
                                                : "trap \"exit 0\" TERM INT; sleep infinity & wait"));
      ctx.resolve("/args", args, "sdk");
    }
  }
  if (!ctx.containers.empty()) resolve_resources(ctx, ctx.containers.front(), "/resources");
}

}  // namespace sandgate::engine
