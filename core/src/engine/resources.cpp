// N-RES (SPEC §5.2): the forms of `resources`; N-QOS (§5.3); R-RES (§6.2): defaults, bounds,
// ceilings, require_limits and serverless's requests = limits.
#include <algorithm>

#include "engine/rules.h"

namespace sandgate::engine {
namespace {

bool reported_under(const Context& ctx, const std::string& path) {
  for (const auto& d : ctx.result.diagnostics) {
    if (d.path == path || (d.path.size() > path.size() && d.path.compare(0, path.size(), path) == 0 && d.path[path.size()] == '/')) {
      return true;
    }
  }
  return false;
}

// An error already reported under `path` (by the schema: a mistyped value, an unknown key, an
// invalid gpu): the SDK raises before sending, so the values are not checked against the policy.
bool error_under(const Context& ctx, const std::string& path) {
  for (const auto& d : ctx.result.diagnostics) {
    if (d.severity != Severity::error) continue;
    if (d.path == path || (d.path.size() > path.size() && d.path.compare(0, path.size(), path) == 0 && d.path[path.size()] == '/')) {
      return true;
    }
  }
  return false;
}

void read_quantity(Context& ctx, const Cursor& at, const std::string& what, std::optional<Quantity>& q,
                   std::string& text, Cursor& where) {
  if (!at || !at.node->is_string()) return;
  text = at.node->text;
  where = at;
  QuantityError err;
  q = Quantity::parse(text, QuantityGrammar::sdk, &err);
  if (!q) {
    ctx.report(Code::QUANTITY_INVALID, at, what + " " + at.node->display() + " is not a quantity: " + err.message,
               what.find("cpu") != std::string::npos ? "write e.g. \"500m\", \"2\" or \"2.5\"" : "write e.g. \"512Mi\" or \"4Gi\"");
  } else if (q->trimmed()) {
    ctx.report(Code::QUANTITY_WHITESPACE, at,
               what + " " + at.node->display() + " has surrounding white space; the SDK trims it, but the server receives the raw string",
               "remove the white space");
  }
}

void read_gpu(Context& ctx, const Cursor& g, bool nested, ContainerResources& out) {
  if (!g) return;
  GpuRequest gpu;
  gpu.at = g;
  if (g.node->is_int() && !g.node->int_overflow && g.node->integer >= 1) {
    gpu.count = g.node->integer;
    if (nested) {
      ctx.report(Code::GPU_SHORTHAND_NESTED, g,
                 "gpu: " + g.node->display() + " in the nested form: the SDK expands the integer shorthand only in the flat form",
                 "write gpu: {count: " + g.node->display() + "}");
    }
  } else if (g.node->is_object()) {
    Cursor count = g["count"], type = g["type"], mem = g["memory_gb"];
    if (count.is_int()) gpu.count = count.node->integer;
    if (type && type.node->is_string()) gpu.type = type.node->text;
    if (mem.is_int()) gpu.memory_gb = mem.node->integer;
    if (!count && !reported_under(ctx, g.path)) {
      ctx.report(Code::GPU_INVALID, g, "gpu has no count", "add count: 1 (whole GPUs, at least 1)");
      return;
    }
    if (type && mem) {
      Diagnostic& d = ctx.report(Code::GPU_TYPE_AND_MEMORY, mem,
                                 "gpu sets both type (" + type.node->display() + ") and memory_gb (" + mem.node->display() +
                                     "); they are alternatives",
                                 "keep type to ask for one model, or memory_gb to accept any GPU with that much memory");
      // The TypeScript SDK drops gpu before sending: neither it nor the server sees the conflict.
      if (ctx.options.client == "typescript") {
        d.severity = Severity::warning;
        d.hint += " (the TypeScript SDK does not send gpu, so only the Python SDK and the server reject this)";
      }
    }
  } else {
    return;  // the schema reported it (SG_GPU_INVALID)
  }
  if (gpu.count < 1) return;
  if (ctx.options.client == "typescript") {
    ctx.report(Code::GPU_IGNORED_BY_TYPESCRIPT, g,
               "the TypeScript SDK does not send GPU resources: this sandbox would start without a GPU",
               "create GPU sandboxes with the Python SDK");
    return;
  }
  out.gpu = gpu;
}

// One container's `resources` (flat or nested) → requests, limits and gpu, as the SDK sends them.
void normalize(Context& ctx, const Cursor& res, ContainerResources& out) {
  out.at = res;
  if (!res) return;
  if (!res.node->is_object()) {
    out.invalid = true;
    return;
  }
  if (res.node->members.empty()) {
    if (!reported_under(ctx, res.path)) {
      ctx.report(Code::RESOURCES_SHAPE, res, "resources has no recognised key (cpu, memory, gpu, requests, limits)",
                 "write {\"cpu\": \"1\", \"memory\": \"1Gi\"} or {\"requests\": {...}, \"limits\": {...}}");
    }
    out.invalid = true;
    return;
  }
  if (error_under(ctx, res.path)) out.invalid = true;
  Cursor requests = res["requests"], limits = res["limits"];
  bool nested = requests || limits;
  if (nested && (res["cpu"] || res["memory"])) {
    Cursor flat = res["cpu"] ? res["cpu"] : res["memory"];
    ctx.report(Code::RESOURCES_MIXED_FORMS, flat,
               "resources mixes the flat form (" + std::string(flat.member->input_key()) + ") with requests/limits",
               "put cpu and memory inside requests and limits");
    out.invalid = true;
  }
  if (nested) {
    read_quantity(ctx, requests["cpu"], "requests.cpu", out.req_cpu, out.req_cpu_text, out.req_cpu_at);
    read_quantity(ctx, requests["memory"], "requests.memory", out.req_mem, out.req_mem_text, out.req_mem_at);
    read_quantity(ctx, limits["cpu"], "limits.cpu", out.lim_cpu, out.lim_cpu_text, out.lim_cpu_at);
    read_quantity(ctx, limits["memory"], "limits.memory", out.lim_mem, out.lim_mem_text, out.lim_mem_at);
    if (requests.node && limits.node == nullptr) {
      ctx.report(Code::RESOURCES_ONE_SIDED, requests, "resources gives requests without limits",
                 "the Python SDK copies requests into limits (Guaranteed); the TypeScript SDK requires both");
      out.lim_cpu = out.req_cpu, out.lim_mem = out.req_mem;
      out.lim_cpu_text = out.req_cpu_text, out.lim_mem_text = out.req_mem_text;
      out.lim_cpu_at = out.req_cpu_at, out.lim_mem_at = out.req_mem_at;
    } else if (limits.node && requests.node == nullptr) {
      ctx.report(Code::RESOURCES_ONE_SIDED, limits, "resources gives limits without requests",
                 "the Python SDK copies limits into requests (Guaranteed); the TypeScript SDK requires both");
      out.req_cpu = out.lim_cpu, out.req_mem = out.lim_mem;
      out.req_cpu_text = out.lim_cpu_text, out.req_mem_text = out.lim_mem_text;
      out.req_cpu_at = out.lim_cpu_at, out.req_mem_at = out.lim_mem_at;
    }
  } else {
    // Flat: the same values become requests and limits (Guaranteed).
    read_quantity(ctx, res["cpu"], "cpu", out.req_cpu, out.req_cpu_text, out.req_cpu_at);
    read_quantity(ctx, res["memory"], "memory", out.req_mem, out.req_mem_text, out.req_mem_at);
    out.lim_cpu = out.req_cpu, out.lim_mem = out.req_mem;
    out.lim_cpu_text = out.req_cpu_text, out.lim_mem_text = out.req_mem_text;
    out.lim_cpu_at = out.req_cpu_at, out.lim_mem_at = out.req_mem_at;
  }
  out.client_cpu = !out.req_cpu_text.empty() || !out.lim_cpu_text.empty();
  out.client_mem = !out.req_mem_text.empty() || !out.lim_mem_text.empty();
  read_gpu(ctx, res["gpu"], nested, out);
  // N-RES-5: request ≤ limit, compared exactly.
  struct Dim {
    const char* name;
    std::optional<Quantity>& req;
    std::optional<Quantity>& lim;
    Cursor& at;
    std::string& req_text;
    std::string& lim_text;
  };
  for (Dim d : {Dim{"cpu", out.req_cpu, out.lim_cpu, out.req_cpu_at, out.req_cpu_text, out.lim_cpu_text},
                Dim{"memory", out.req_mem, out.lim_mem, out.req_mem_at, out.req_mem_text, out.lim_mem_text}}) {
    if (d.req && d.lim && *d.req > *d.lim) {
      ctx.report(Code::REQUEST_EXCEEDS_LIMIT, d.at,
                 std::string("resource request for ") + d.name + " (" + d.req_text + ") exceeds limit (" + d.lim_text + ")",
                 "lower the request or raise the limit");
      out.invalid = true;
    }
  }
}

std::string describe(const std::optional<Quantity>& q, const std::string& text) { return q ? text : "unset"; }

}  // namespace

void normalize_request_resources(Context& ctx) {
  Cursor root = ctx.root();
  Cursor containers = root["containers"];
  ctx.containers.clear();
  if (containers && containers.node->is_array()) {
    ctx.multi_container = true;
    for (std::size_t i = 0; i < containers.size(); ++i) {
      Cursor c = containers.at(i);
      ContainerResources cr;
      cr.name = c["name"].str();
      cr.primary = c["primary"].boolean(false);
      cr.container = c;
      normalize(ctx, c["resources"], cr);
      ctx.containers.push_back(std::move(cr));
    }
    // The primary container: `primary: true`, else primary_container, else the only one.
    std::string primary_name = root["primary_container"].str();
    bool any_primary = std::any_of(ctx.containers.begin(), ctx.containers.end(), [](auto& c) { return c.primary; });
    if (!any_primary) {
      for (auto& c : ctx.containers) c.primary = !primary_name.empty() ? c.name == primary_name : ctx.containers.size() == 1;
    }
    return;
  }
  ContainerResources cr;
  cr.name = "main";
  normalize(ctx, root["resources"], cr);
  ctx.containers.push_back(std::move(cr));
}

void apply_resource_defaults(Context& ctx) {
  const auto& pm = *ctx.pm;
  for (auto& c : ctx.containers) {
    if (c.invalid) continue;
    // R-RES-1: a dimension missing on both sides takes the policy default for request and limit.
    if (!c.req_cpu && !c.lim_cpu && c.req_cpu_text.empty() && pm.default_cpu.value) {
      c.req_cpu = c.lim_cpu = pm.default_cpu.value;
      c.req_cpu_text = c.lim_cpu_text = pm.default_cpu.text;
      c.defaulted_cpu = true;
    }
    if (!c.req_mem && !c.lim_mem && c.req_mem_text.empty() && pm.default_memory.value) {
      c.req_mem = c.lim_mem = pm.default_memory.value;
      c.req_mem_text = c.lim_mem_text = pm.default_memory.text;
      c.defaulted_mem = true;
    }
    // Kubernetes: a limit without a request makes the request equal to the limit.
    if (!c.req_cpu && c.lim_cpu) c.req_cpu = c.lim_cpu, c.req_cpu_text = c.lim_cpu_text, c.req_cpu_at = c.lim_cpu_at;
    if (!c.req_mem && c.lim_mem) c.req_mem = c.lim_mem, c.req_mem_text = c.lim_mem_text, c.req_mem_at = c.lim_mem_at;
  }
}

// Reports a resource problem at the request value, or at the policy default that supplied it.
static void report_value(Context& ctx, Code code, const ContainerResources& c, bool cpu, bool request,
                         std::string message, std::string hint = {}) {
  bool defaulted = cpu ? c.defaulted_cpu : c.defaulted_mem;
  const Cursor& at = cpu ? (request ? c.req_cpu_at : c.lim_cpu_at) : (request ? c.req_mem_at : c.lim_mem_at);
  if (defaulted) {
    const auto& q = cpu ? ctx.pm->default_cpu : ctx.pm->default_memory;
    ctx.report_policy(code, q.origin, message + " (the value is the policy's " + (cpu ? "default_cpu" : "default_memory") + ")",
                      std::move(hint));
  } else if (at) {
    ctx.report(code, at, std::move(message), std::move(hint));
  } else {
    ctx.report(code, c.where(ctx.root()), std::move(message), std::move(hint));
  }
}

void check_resources(Context& ctx) {
  const auto& pm = *ctx.pm;
  std::optional<Quantity> cpu_sum, mem_sum;
  for (const auto& c : ctx.containers) {
    std::string who = ctx.multi_container ? "container \"" + c.name + "\": " : "";
    // R-RES-2: per container bounds.
    struct Bound {
      bool cpu;
      const std::optional<Quantity>& req;
      const std::string& text;
      const model::PolicyQuantity& min;
      const model::PolicyQuantity& max;
    };
    for (Bound b : {Bound{true, c.req_cpu, c.req_cpu_text, pm.min_cpu, pm.max_cpu},
                    Bound{false, c.req_mem, c.req_mem_text, pm.min_memory, pm.max_memory}}) {
      if (!b.req || c.invalid) continue;
      std::string dim = b.cpu ? "cpu" : "memory";
      if (b.max.value && *b.req > *b.max.value) {
        report_value(ctx, Code::RESOURCE_ABOVE_MAX, c, b.cpu, true,
                     who + dim + " request " + b.text + " is above the policy's max_" + dim + " " + b.max.text,
                     "request at most " + b.max.text);
      }
      if (b.min.value && *b.req < *b.min.value) {
        report_value(ctx, Code::RESOURCE_BELOW_MIN, c, b.cpu, true,
                     who + dim + " request " + b.text + " is below the policy's min_" + dim + " " + b.min.text,
                     "request at least " + b.min.text);
      }
    }
    if (c.req_cpu) cpu_sum = cpu_sum ? cpu_sum->plus(*c.req_cpu) : *c.req_cpu;
    if (c.req_mem) mem_sum = mem_sum ? mem_sum->plus(*c.req_mem) : *c.req_mem;

    // R-RES-4: require_limits, where filled values count only if the client gave one side.
    if (pm.require_limits && !c.invalid) {
      std::vector<std::string> missing;
      if (!c.client_cpu || !c.req_cpu || !c.lim_cpu) missing.push_back("cpu");
      if (!c.client_mem || !c.req_mem || !c.lim_mem) missing.push_back("memory");
      if (!missing.empty()) {
        std::string m = missing.size() == 2 ? "cpu and memory" : missing[0];
        ctx.report(Code::LIMITS_REQUIRED, c.where(ctx.root()),
                   who + "the policy requires limits (require_limits), and the request does not declare " + m +
                       " requests and limits itself",
                   "declare resources={\"requests\": {...}, \"limits\": {...}} with cpu and memory");
      }
    }
    // R-RES-5: serverless pins limits to requests.
    if (ctx.mode == "serverless" && !c.invalid) {
      for (bool cpu : {true, false}) {
        const auto& r = cpu ? c.req_cpu : c.req_mem;
        const auto& l = cpu ? c.lim_cpu : c.lim_mem;
        if (!r && !l) continue;
        if (r && l && *r == *l) continue;
        report_value(ctx, Code::SERVERLESS_BURSTABLE, c, cpu, true,
                     who + (cpu ? "cpu" : "memory") + " request (" + describe(r, cpu ? c.req_cpu_text : c.req_mem_text) +
                         ") and limit (" + describe(l, cpu ? c.lim_cpu_text : c.lim_mem_text) +
                         ") differ, but serverless requires requests equal to limits",
                     "use placement_mode='cks' with a runner whose policy allows it");
      }
    }
  }
  // R-RES-3: ceilings over the sum of requests (base containers and memory-backed volumes count).
  if (pm.base) {
    if (const Node* bc = pm.base->find("spec") ? pm.base->find("spec")->find("containers") : nullptr; bc && bc->is_array()) {
      for (const auto& c : bc->items) {
        const Node* requests = c.find("resources") ? c.find("resources")->find("requests") : nullptr;
        if (!requests || !requests->is_object()) continue;
        if (const Node* v = requests->find("cpu"); v && v->is_string()) {
          if (auto q = Quantity::parse(v->text, QuantityGrammar::kubernetes)) cpu_sum = cpu_sum ? cpu_sum->plus(*q) : *q;
        }
        if (const Node* v = requests->find("memory"); v && v->is_string()) {
          if (auto q = Quantity::parse(v->text, QuantityGrammar::kubernetes)) mem_sum = mem_sum ? mem_sum->plus(*q) : *q;
        }
      }
    }
  }
  Quantity volumes = Quantity::from_int(0);
  for (const auto& c : ctx.containers) volumes = volumes.plus(c.memory_volumes);
  volumes = volumes.plus(ctx.unmounted_memory_volumes);
  if (cpu_sum && pm.cpu_ceiling.value && *cpu_sum > *pm.cpu_ceiling.value) {
    ctx.report(Code::RESOURCE_CEILING, ctx.containers.front().at ? ctx.containers.front().at : ctx.root(),
               "the sandbox requests " + cpu_sum->canonical() + " CPU in all, above the policy's cpu_ceiling " + pm.cpu_ceiling.text,
               "request less CPU");
  }
  if (pm.memory_ceiling.value) {
    Quantity total = mem_sum ? mem_sum->plus(volumes) : volumes;
    if (total > *pm.memory_ceiling.value) {
      std::string with_volumes = volumes.is_zero() ? "" : " (including " + human_bytes(volumes) + " of memory-backed volumes)";
      ctx.report(Code::RESOURCE_CEILING, ctx.containers.front().at ? ctx.containers.front().at : ctx.root(),
                 "the sandbox requests " + human_bytes(total) + " of memory in all" + with_volumes +
                     ", above the policy's memory_ceiling " + pm.memory_ceiling.text,
                 "request less memory, or shrink memory-backed volumes");
    }
  }
}

void resolve_qos(Context& ctx) {
  bool any = false, guaranteed = true;
  for (const auto& c : ctx.containers) {
    for (bool cpu : {true, false}) {
      const auto& r = cpu ? c.req_cpu : c.req_mem;
      const auto& l = cpu ? c.lim_cpu : c.lim_mem;
      if (r || l) any = true;
      if (!r || !l || *r != *l) guaranteed = false;
    }
  }
  bool invalid = std::any_of(ctx.containers.begin(), ctx.containers.end(), [](const auto& c) { return c.invalid; });
  if (!any) {
    ctx.result.qos_class = "BestEffort";
    Cursor at = ctx.containers.empty() || !ctx.containers.front().at ? ctx.root() : ctx.containers.front().at;
    // Rejected resources (N-RES errors) say nothing about platform defaults.
    if (!invalid) {
      ctx.report(Code::PLATFORM_DEFAULT_RESOURCES, at,
                 "no container declares cpu or memory and the policy has no default_cpu/default_memory: the platform's defaults apply",
                 "declare resources, or set default_cpu and default_memory in the policy");
    }
  } else {
    ctx.result.qos_class = guaranteed ? "Guaranteed" : "Burstable";
  }
  // R-RES-6: with several containers, the sums are not visible in any one of them.
  if (ctx.multi_container && any && !invalid) {
    std::optional<Quantity> sums[4];  // requests cpu, requests memory, limits cpu, limits memory
    for (const auto& c : ctx.containers) {
      const std::optional<Quantity>* values[4] = {&c.req_cpu, &c.req_mem, &c.lim_cpu, &c.lim_mem};
      for (int i = 0; i < 4; ++i) {
        if (*values[i]) sums[i] = sums[i] ? sums[i]->plus(**values[i]) : **values[i];
      }
    }
    auto show = [&](int i, bool memory) { return sums[i] ? (memory ? human_bytes(*sums[i]) : sums[i]->canonical()) : std::string("unset"); };
    ctx.report(Code::QOS_CLASS, ctx.root()["containers"],
               "QoS class " + ctx.result.qos_class + "; summed requests: cpu " + show(0, false) + ", memory " + show(1, true) +
                   "; summed limits: cpu " + show(2, false) + ", memory " + show(3, true));
  }
  ctx.touched("/resources", "N-QOS");
}

}  // namespace sandgate::engine
