// N-RES on its own (SPEC §5.2): what the SDK sends for a `resources` value.
#include "engine/rules.h"

namespace sandgate {

Result normalize_resources(const Node& resources, const CheckOptions& options) {
  Node request = Node::make_object();
  request.add("resources", resources);
  Document doc = document_from_node(std::move(request), "sandbox");
  auto compiled = Request::compile({nullptr, &doc, nullptr}, options);
  const model::RequestModel& req = compiled->model();
  Node out = Node::make_object();
  bool any = false, guaranteed = true;
  const model::Container& c = req.containers.front();
  if (compiled->usable() && !c.invalid) {
    auto side = [](const std::optional<model::QuantityValue>& cpu, const std::optional<model::QuantityValue>& mem) {
      Node n = Node::make_object();
      if (cpu) n.add("cpu", Node::make_string(cpu->text));
      if (mem) n.add("memory", Node::make_string(mem->text));
      return n.members.empty() ? Node::make_null() : n;
    };
    out.add("requests", side(c.req_cpu, c.req_mem));
    out.add("limits", side(c.lim_cpu, c.lim_mem));
    if (c.gpu) {
      Node gpu = Node::make_object();
      gpu.add("count", Node::make_int(c.gpu->count));
      if (!c.gpu->type.empty()) gpu.add("type", Node::make_string(c.gpu->type));
      if (c.gpu->memory_gb > 0) gpu.add("memory_gb", Node::make_int(c.gpu->memory_gb));
      out.add("gpu", std::move(gpu));
    } else {
      out.add("gpu", Node::make_null());
    }
  }
  for (auto [r, l] : {std::pair{&c.req_cpu, &c.lim_cpu}, std::pair{&c.req_mem, &c.lim_mem}}) {
    if (*r || *l) any = true;
    if (!*r || !*l || (*r)->value != (*l)->value) guaranteed = false;
  }
  QosClass qos = !any ? QosClass::best_effort : guaranteed ? QosClass::guaranteed : QosClass::burstable;
  return Result::from_resolved(compiled->diagnostics(), std::move(out), qos);
}

}  // namespace sandgate
