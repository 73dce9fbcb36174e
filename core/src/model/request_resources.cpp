// N-RES (SPEC §5.2): the forms of `resources` become requests, limits and a GPU as the SDK sends
// them, per container; R-GPU-3 (type and memory_gb are alternatives) and R-GPU-11 (GPUs only on
// the primary container) are about the request alone and are said here too.
#include <algorithm>

#include "model/request_compiler.h"
#include "quantity/quantity_hint.h"

namespace sandgate::model {
namespace {

// Reads one quantity; `written` says the side has text (which may not parse).
void read_quantity(RequestCompiler& c, const Cursor& at, const std::string& what, std::optional<QuantityValue>& out,
                   bool* written) {
  if (!at || !at.node->is_string()) return;
  if (written && !at.node->text.empty()) *written = true;
  QuantityError err;
  std::optional<Quantity> q = Quantity::parse(at.node->text, QuantityGrammar::sdk, &err);
  if (!q) {
    c.report(Code::QUANTITY_INVALID, at, what + " " + at.node->display() + " is not a quantity: " + err.message,
             quantity_hint(at.node->text, what.find("cpu") != std::string::npos ? "write e.g. \"500m\", \"2\" or \"2.5\""
                                                                                : "write e.g. \"512Mi\" or \"4Gi\""));
    return;
  }
  if (q->trimmed()) {
    c.report(Code::QUANTITY_WHITESPACE, at,
             what + " " + at.node->display() + " has surrounding white space; the SDK trims it, but the server receives the raw string",
             "remove the white space");
  }
  out = QuantityValue{at.node->text, *q, origin_of(at)};
}

void read_gpu(RequestCompiler& c, const Cursor& g, bool nested, Container& out) {
  if (!g) return;
  GpuRequest gpu;
  gpu.at = origin_of(g);
  if (g.node->is_int() && !g.node->int_overflow && g.node->integer >= 1) {
    gpu.count = g.node->integer;
    if (nested) {
      c.report(Code::GPU_SHORTHAND_NESTED, g,
               "gpu: " + g.node->display() + " in the nested form: the SDK expands the integer shorthand only in the flat form",
               "write gpu: {count: " + g.node->display() + "}");
    }
  } else if (g.node->is_object()) {
    Cursor count = g["count"], type = g["type"], mem = g["memory_gb"];
    if (count) gpu.count_at = origin_of(count);
    if (type) gpu.type_at = origin_of(type);
    if (mem) gpu.memory_at = origin_of(mem);
    if (count.is_int()) gpu.count = count.node->integer;
    if (type && type.node->is_string()) gpu.type = type.node->text;
    if (mem.is_int()) gpu.memory_gb = mem.node->integer;
    if (!count) {
      // No key is required (SPEC §5.2 item 3): the SDK sends count 0, which asks for no GPU.
      if (!c.reported_under(g.layer, g.path()) && (type || mem)) {
        c.report(Code::GPU_COUNT_MISSING, g, "gpu has no count: the SDK sends count 0, so the sandbox gets no GPU",
                 "add count: 1 (whole GPUs, at least 1)");
      }
      return;
    }
    if (type && mem) {
      Diagnostic& d = c.report(Code::GPU_TYPE_AND_MEMORY, mem,
                               "gpu sets both type (" + type.node->display() + ") and memory_gb (" + mem.node->display() +
                                   "); they are alternatives",
                               "keep type to ask for one model, or memory_gb to accept any GPU with that much memory");
      // The TypeScript SDK drops gpu before sending: neither it nor the server sees the conflict.
      if (c.m.client == Client::typescript) {
        d.severity = Severity::warning;
        d.hint += " (the TypeScript SDK does not send gpu, so only the Python SDK and the server reject this)";
      }
    }
  } else {
    return;  // the schema reported it (SG_GPU_INVALID)
  }
  if (gpu.count < 1) return;
  if (c.m.client == Client::typescript) {
    c.report(Code::GPU_IGNORED_BY_TYPESCRIPT, g,
             "the TypeScript SDK does not send GPU resources: this sandbox would start without a GPU",
             "create GPU sandboxes with the Python SDK");
    return;
  }
  out.gpu = std::move(gpu);
}

// cwsandbox's validate_resource_quantities compares each of cpu and memory present on both
// sides (after the flat form's copy or the one-side fill), the request first, and raises
// TypeError for a value that is not a string; the schema reports every other type, None stays for
// this. A None it does not compare is left out, and the TypeScript SDK checks these values only
// against "" (inferred from its validators), so this is a Python client rule. `requests`/`limits`:
// the objects the two sides are read from.
void check_none_values(RequestCompiler& c, const Cursor& requests, const Cursor& limits, Container& out) {
  // Nearly every request has no None here: a glance at the members spares the four lookups.
  auto has_none = [](const Cursor& side) {
    return std::any_of(side.node->members.begin(), side.node->members.end(), [](const Member& m) { return m.value.is_null(); });
  };
  if (!has_none(requests) && !has_none(limits)) return;
  for (const auto& [name, example] : {std::pair{"cpu", "\"500m\""}, std::pair{"memory", "\"512Mi\""}}) {
    const Cursor req = requests[name], lim = limits[name];
    if (!req || !lim) continue;
    for (const auto& [value, side] : {std::pair{&req, "request"}, std::pair{&lim, "limit"}}) {
      if (!value->node->is_null() || (value == &lim && lim.node == req.node)) continue;  // one value, both sides: once
      Diagnostic& d = c.report(Code::RESOURCE_VALUE_NONE, *value,
                               std::string("resource value for ") + name + " " + side + " must be a string, got NoneType",
                               std::string("give a quantity such as ") + example + ", or leave the key out");
      if (d.severity == Severity::error) out.invalid = true;
    }
  }
}

// One container's `resources` (flat or nested) → requests, limits and gpu, as the SDK sends them.
void normalize(RequestCompiler& c, const Cursor& res, Container& out) {
  if (!res) return;
  out.resources_at = origin_of(res);
  // An empty ResourceOptions() (every field None, or an empty dict that __post_init__ made None)
  // asks for nothing: cwsandbox sends no resources, where an empty dict is refused. It still
  // replaces the defaults' resources, as any value given does.
  if (res.node->given_as == GivenAs::resource_options && res.node->is_object() && res.node->members.empty()) return;
  if (!res.node->is_object()) {
    out.invalid = true;
    return;
  }
  if (res.node->members.empty()) {
    // Only unknown keys (the schema dropped them): neither form applies, and the SDK raises
    // TypeError "unrecognized resources dict keys" rather than the flat form's ValueError.
    std::string unknown;
    const std::string res_path = res.path();
    for (auto& d : c.diags) {
      if (d.code == Code::RESOURCES_UNKNOWN_KEY && d.severity == Severity::error && d.path.size() > res_path.size() &&
          d.path.compare(0, res_path.size(), res_path) == 0 && d.path[res_path.size()] == '/' &&
          d.path.find('/', res_path.size() + 1) == std::string::npos) {
        unknown += (unknown.empty() ? "" : ", ") + d.path.substr(res_path.size() + 1);
        d.code = Code::RESOURCES_SHAPE;
        d.message = "resources has no recognised key (cpu, memory, gpu, requests, limits): " + d.message;
      }
    }
    if (unknown.empty() && !c.reported_under(res.layer, res_path)) {
      c.report(Code::RESOURCES_SHAPE, res, "resources has no recognised key (cpu, memory, gpu, requests, limits)",
               "write {\"cpu\": \"1\", \"memory\": \"1Gi\"} or {\"requests\": {...}, \"limits\": {...}}");
    }
    out.invalid = true;
    return;
  }
  if (c.error_under(res.layer, res.path())) out.invalid = true;
  // The form is chosen by the keys present, even with a None value (cwsandbox _from_dict); a
  // None or empty side counts as not given (SPEC §5.2 item 2).
  Cursor requests = res["requests"], limits = res["limits"];
  bool nested = requests || limits;
  auto given = [](const Cursor& side) { return side && side.node->is_object() && !side.node->members.empty(); };
  for (const Cursor* side : {&requests, &limits}) {
    if (*side && side->node->is_object() && side->node->members.empty() && !c.reported_under(side->layer, side->path())) {
      c.report(Code::RESOURCES_ONE_SIDED, *side,
               "resources." + std::string(side == &requests ? "requests" : "limits") + " is empty",
               "the Python SDK fills an empty side from the other one; the TypeScript SDK rejects an empty object");
    }
  }
  if (nested && (res["cpu"] || res["memory"])) {
    Cursor flat = res["cpu"] ? res["cpu"] : res["memory"];
    c.report(Code::RESOURCES_MIXED_FORMS, flat,
             "resources mixes the flat form (" + std::string(flat.member->input_key()) + ") with requests/limits",
             "put cpu and memory inside requests and limits");
    out.invalid = true;
  }
  bool lim_cpu_written = false, lim_mem_written = false;
  if (nested) {
    read_quantity(c, requests["cpu"], "requests.cpu", out.req_cpu, &out.req_cpu_written);
    read_quantity(c, requests["memory"], "requests.memory", out.req_mem, &out.req_mem_written);
    read_quantity(c, limits["cpu"], "limits.cpu", out.lim_cpu, &lim_cpu_written);
    read_quantity(c, limits["memory"], "limits.memory", out.lim_mem, &lim_mem_written);
    if (given(requests) && !given(limits)) {
      if (!(limits && limits.node->is_object())) {  // an empty limits object is reported above
        c.report(Code::RESOURCES_ONE_SIDED, requests, "resources gives requests without limits",
                 "the Python SDK copies requests into limits (Guaranteed); the TypeScript SDK requires both");
      }
      out.lim_cpu = out.req_cpu, out.lim_mem = out.req_mem;
      lim_cpu_written = out.req_cpu_written, lim_mem_written = out.req_mem_written;
    } else if (given(limits) && !given(requests)) {
      if (!(requests && requests.node->is_object())) {
        c.report(Code::RESOURCES_ONE_SIDED, limits, "resources gives limits without requests",
                 "the Python SDK copies limits into requests (Guaranteed); the TypeScript SDK requires both");
      }
      out.req_cpu = out.lim_cpu, out.req_mem = out.lim_mem;
      out.req_cpu_written = lim_cpu_written, out.req_mem_written = lim_mem_written;
    }
    if (given(requests) || given(limits)) {
      check_none_values(c, given(requests) ? requests : limits, given(limits) ? limits : requests, out);
    }
  } else {
    // Flat: the same values become requests and limits (Guaranteed).
    read_quantity(c, res["cpu"], "cpu", out.req_cpu, &out.req_cpu_written);
    read_quantity(c, res["memory"], "memory", out.req_mem, &out.req_mem_written);
    out.lim_cpu = out.req_cpu, out.lim_mem = out.req_mem;
    lim_cpu_written = out.req_cpu_written, lim_mem_written = out.req_mem_written;
    check_none_values(c, res, res, out);
  }
  out.client_cpu = out.req_cpu_written || lim_cpu_written;
  out.client_mem = out.req_mem_written || lim_mem_written;
  read_gpu(c, res["gpu"], nested, out);
  // N-RES-5: request ≤ limit, compared exactly.
  for (auto [name, req, lim] : {std::tuple{"cpu", &out.req_cpu, &out.lim_cpu}, std::tuple{"memory", &out.req_mem, &out.lim_mem}}) {
    if (*req && *lim && (*req)->value > (*lim)->value) {
      Diagnostic& d = c.report_at(Code::REQUEST_EXCEEDS_LIMIT, (*req)->origin,
                                  std::string("resource request for ") + name + " (" + (*req)->text + ") exceeds limit (" +
                                      (*lim)->text + ")",
                                  "lower the request or raise the limit");
      if ((*lim)->origin.path != (*req)->origin.path) c.relate(d, (*lim)->origin, "the limit is set here");
      out.invalid = true;
    }
  }
}

}  // namespace

void read_resources(RequestCompiler& c) {
  RequestModel& m = c.m;
  m.containers.clear();
  Cursor containers = c.field("containers");
  if (containers) m.containers_at = origin_of(containers);
  if (containers && containers.node->is_array()) {
    m.multi_container = true;
    // A Container is nearly 3 KB (four exact quantities, a GPU, an image): each is made in its
    // place, never moved.
    m.containers.reserve(containers.size());
    for (std::size_t i = 0; i < containers.size(); ++i) {
      Cursor at = containers.at(i);
      Container& ct = m.containers.emplace_back();
      ct.name = at["name"].str();
      ct.primary = at["primary"].boolean(false);
      ct.at = origin_of(at);
      normalize(c, at["resources"], ct);
    }
    // The primary container: `primary: true`, else primary_container, else the only one.
    std::string primary_name = c.field("primary_container").str();
    bool any_primary = std::any_of(m.containers.begin(), m.containers.end(), [](const Container& ct) { return ct.primary; });
    if (!any_primary) {
      for (auto& ct : m.containers) ct.primary = !primary_name.empty() ? ct.name == primary_name : m.containers.size() == 1;
    }
  } else {
    Container& ct = m.containers.emplace_back();
    ct.name = "main";
    ct.at = m.root;
    Cursor res = c.field("resources");
    if (res) m.resources_at = origin_of(res);
    normalize(c, res, ct);
  }
  // R-GPU-11: GPUs only on the primary container.
  for (const auto& ct : m.containers) {
    if (ct.gpu && !ct.primary) {
      c.report_at(Code::GPU_NOT_PRIMARY, ct.gpu->at, "container \"" + ct.name + "\" requests a GPU but is not the primary container",
                  "move the GPU to the primary container");
    }
  }
}

}  // namespace sandgate::model
