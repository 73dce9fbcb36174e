// Engine::check — the fixed pipeline (SPEC §6: merge layers → placement → apply base → fill
// defaults → check constraints). Each step is a small rule function in this directory.
#include "engine/rules.h"
#include "schema/schema_store.h"

namespace sandgate {

Document document_from_node(Node root, std::string input, std::string file) {
  Document d;
  d.root = std::move(root);
  d.input = std::move(input);
  d.file = std::move(file);
  d.loaded = true;
  return d;
}

Engine::Engine(std::shared_ptr<const Policy> policy, std::shared_ptr<const Runners> runners, std::shared_ptr<const Org> org)
    : policy_(std::move(policy)), runners_(std::move(runners)), org_(std::move(org)) {}

namespace {

// Orders the resolved sandbox's fields as the schema lists them, so every result reads alike.
void order_like_schema(Node& resolved) {
  if (!resolved.is_object()) return;
  const auto& cs = schema::get("sandbox");
  auto props = cs.doc.FindMember("properties");
  if (props == cs.doc.MemberEnd()) return;
  std::vector<std::string> order;
  for (auto it = props->value.MemberBegin(); it != props->value.MemberEnd(); ++it) order.emplace_back(it->name.GetString());
  auto rank = [&](const std::string& k) {
    auto it = std::find(order.begin(), order.end(), k);
    return it == order.end() ? order.size() : static_cast<std::size_t>(it - order.begin());
  };
  std::stable_sort(resolved.members.begin(), resolved.members.end(),
                   [&](const Member& a, const Member& b) { return rank(a.key) < rank(b.key); });
}

}  // namespace

Result Engine::check(const Document& sandbox, const Document* defaults, const Document* overrides,
                     const CheckOptions& options) const {
  Result result;
  result.resolved = Node::make_object();
  engine::Context ctx(result, options);
  ctx.layers[engine::k_defaults] = defaults;
  ctx.layers[engine::k_sandbox] = &sandbox;
  ctx.layers[engine::k_function] = overrides;
  if (runners_) {
    ctx.inventory = &runners_->model();
    ctx.runners_file = runners_->file();
  }
  if (org_) ctx.org = org_->model();
  ctx.pm = policy_ ? &policy_->model() : &ctx.empty_policy;
  ctx.policy = policy_.get();
  // A request checked against a broken policy (or inventory) is not ok, whatever it asks for.
  for (const Diagnostics* ds : {policy_ ? &policy_->diagnostics() : nullptr, runners_ ? &runners_->diagnostics() : nullptr,
                                org_ ? &org_->diagnostics() : nullptr}) {
    if (!ds) continue;
    for (const auto& d : *ds) {
      if (d.severity == Severity::error) result.diagnostics.push_back(d);
    }
  }
  try {
    if (!engine::prepare_layers(ctx)) {
      result.finish();
      return result;
    }
    engine::merge_layers(ctx);
    engine::resolve_placement(ctx);
    engine::normalize_request_resources(ctx);
    engine::filter_gpu_candidates(ctx);
    engine::choose_primary_runner(ctx, policy_);
    engine::resolve_scheduler(ctx);
    engine::apply_resource_defaults(ctx);
    engine::resolve_annotations(ctx);
    engine::resolve_lifetime(ctx);
    engine::check_volumes(ctx);
    engine::check_resources(ctx);
    engine::resolve_qos(ctx);
    engine::check_gpu(ctx);
    engine::resolve_runtime_class(ctx);
    engine::check_gpu_runtime(ctx);
    engine::resolve_network(ctx);
    engine::check_image_security_instance(ctx);
    engine::check_sunk(ctx);
    engine::check_misc(ctx);
    engine::resolve_passthrough(ctx);
  } catch (const std::exception& e) {
    // A bug, not an input problem: say so instead of crashing the host process.
    Diagnostic d;
    d.code = Code::SCHEMA_VIOLATION;
    d.severity = Severity::error;
    d.input = "sandbox";
    d.message = std::string("internal error while checking: ") + e.what();
    result.diagnostics.push_back(std::move(d));
  }
  result.placement_mode = ctx.mode;
  order_like_schema(result.resolved);
  result.finish();
  return result;
}

Result normalize_resources(const Node& resources, const CheckOptions& options) {
  Node request = Node::make_object();
  request.add("resources", resources);
  Document doc = document_from_node(std::move(request), "sandbox");
  Result result;
  result.resolved = Node::make_object();
  engine::Context ctx(result, options);
  ctx.layers[engine::k_sandbox] = &doc;
  ctx.pm = &ctx.empty_policy;
  if (engine::prepare_layers(ctx)) {
    engine::merge_layers(ctx);
    engine::normalize_request_resources(ctx);
    engine::resolve_qos(ctx);
    // Only N-RES here: drop the note about platform defaults, which needs a policy to mean anything.
    std::erase_if(result.diagnostics, [](const Diagnostic& d) { return d.code == Code::PLATFORM_DEFAULT_RESOURCES; });
    Node out = Node::make_object();
    if (!ctx.containers.empty() && !ctx.containers.front().invalid) {
      const auto& c = ctx.containers.front();
      auto side = [](const std::optional<Quantity>& cpu, const std::string& cpu_text, const std::optional<Quantity>& mem,
                     const std::string& mem_text) {
        Node n = Node::make_object();
        if (cpu) n.add("cpu", Node::make_string(cpu_text));
        if (mem) n.add("memory", Node::make_string(mem_text));
        return n;
      };
      Node req = side(c.req_cpu, c.req_cpu_text, c.req_mem, c.req_mem_text);
      Node lim = side(c.lim_cpu, c.lim_cpu_text, c.lim_mem, c.lim_mem_text);
      out.add("requests", req.members.empty() ? Node::make_null() : req);
      out.add("limits", lim.members.empty() ? Node::make_null() : lim);
      if (c.gpu) {
        Node gpu = Node::make_object();
        gpu.add("count", Node::make_int(c.gpu->count));
        if (!c.gpu->type.empty()) gpu.add("type", Node::make_string(c.gpu->type));
        if (c.gpu->memory_gb > 0) gpu.add("memory_gb", Node::make_int(c.gpu->memory_gb));
        out.add("gpu", gpu);
      } else {
        out.add("gpu", Node::make_null());
      }
    }
    result.resolved = std::move(out);
  }
  result.finish();
  return result;
}

}  // namespace sandgate
