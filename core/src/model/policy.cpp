// Policy::parse: load → runner-document unwrap → spelling layer → schema → typed model → P rules.
#include "sandgate/policy.h"

#include <algorithm>
#include <tuple>

#include "model/cursor.h"
#include "model/policy_build.h"
#include "model/policy_model.h"
#include "quantity/quantity_hint.h"
#include "rules/policy_rules.h"
#include "schema/shape.h"
#include "schema/validate.h"
#include "util/diagnostics.h"
#include "util/image.h"
#include "util/text.h"

namespace sandgate {

struct Policy::Impl {
  std::string file;
  Node root;             // the whole input (a runner document keeps its envelope)
  std::string base_path; // where the policy sits in the input
  bool wrapped = false;  // `root` is a runner document whose `policy` member is the policy
  Diagnostics diagnostics;
  model::PolicyModel model;
  const Node& policy_node() const { return wrapped ? *root.find("policy") : root; }
};

Policy::Policy(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Policy::~Policy() = default;
const std::string& Policy::file() const { return impl_->file; }
bool Policy::is_null() const { return impl_->model.is_null; }
const Diagnostics& Policy::diagnostics() const { return impl_->diagnostics; }
const Node& Policy::document() const { return impl_->policy_node(); }
const std::string& Policy::base_path() const { return impl_->base_path; }
const model::PolicyModel& Policy::model() const { return impl_->model; }

namespace {

using model::Cursor;
using model::PortSpans;

model::Origin origin(const Cursor& c) { return model::origin_of(c); }

// A field the policy does not write keeps the model's empty origin: most policies leave most
// fields out, and an absent cursor's origin, made and moved into place, is that same empty one.
void set_origin(model::Origin& o, const Cursor& c) {
  if (c) o = origin(c);
}

// A field's value and its origin from one lookup (each lookup scans its object and copies the
// cursor's path).
std::vector<std::string> strings_at(const Cursor& c, model::Origin& o) {
  set_origin(o, c);
  return c.strings();
}
std::string str_at(const Cursor& c, model::Origin& o) {
  set_origin(o, c);
  return c.str();
}
bool boolean_at(const Cursor& c, model::Origin& o) {
  set_origin(o, c);
  return c.boolean();
}

void read_quantity(const Cursor& c, model::PolicyQuantity& q, DiagnosticSink& sink) {
  if (!c || !c.node->is_string()) return;
  q.text = c.node->text;
  q.origin = origin(c);
  QuantityError err;
  q.value = Quantity::parse(q.text, QuantityGrammar::kubernetes, &err);
  if (!q.value) {
    sink.add(Code::POLICY_QUANTITY, c.path(), c.mark(),
             "\"" + std::string(c.member ? c.member->input_key() : "") + "\" is not a Kubernetes quantity: " + err.message,
             quantity_hint(q.text, "write e.g. \"500m\", \"2\", \"512Mi\" or \"4Gi\""));
  }
}

std::vector<model::PortRange> read_ports(const Cursor& c) {
  std::vector<model::PortRange> out;
  for (std::size_t i = 0; i < c.size(); ++i) {
    Cursor p = c.at(i);
    model::PortRange r;
    r.protocol = p["protocol"].str("TCP");
    r.port = p["port"].integer(0);
    r.end_port = p["end_port"].integer(0);
    out.push_back(r);
  }
  return out;
}

std::map<std::string, std::string> read_labels(const Cursor& c) {
  std::map<std::string, std::string> out;
  if (!c || !c.node->is_object()) return out;
  for (const auto& m : c.node->members) {
    if (m.value.is_string()) out[m.key] = m.value.text;
  }
  return out;
}

}  // namespace

model::NetRule model::read_net_rule(const Cursor& c) {
  model::NetRule r;
  r.origin = origin(c);
  if (Cursor cidr = c["cidr"]) {
    r.peers.push_back(model::PeerKind::cidr);
    r.cidr = cidr["cidr"].str();
    auto parsed = parse_prefix(r.cidr);
    r.cidr_problem = parsed.problem;
    if (parsed.problem == PrefixProblem::none) r.prefix = parsed.prefix;
    r.except_text = cidr["except"].strings();
    for (const auto& e : r.except_text) {
      auto pe = parse_prefix(e);
      r.except_problems.push_back(pe.problem);
      if (pe.problem == PrefixProblem::none) r.except.push_back(pe.prefix);
    }
  }
  if (Cursor h = c["https_hostname"]) {
    r.peers.push_back(model::PeerKind::hostname);
    r.hostname = h.str();
    std::transform(r.hostname.begin(), r.hostname.end(), r.hostname.begin(),
                   [](unsigned char ch) { return static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch); });
  }
  if (Cursor t = c["tenant"]) {
    r.peers.push_back(model::PeerKind::tenant);
    r.tenant = t.str();
  }
  if (Cursor a = c["any"]) {
    r.peers.push_back(model::PeerKind::any);
    r.any_set = true;
    r.any = a.boolean();
  }
  if (Cursor s = c["selector"]) {
    r.peers.push_back(model::PeerKind::selector);
    r.pod_labels = read_labels(s["pod_labels"]);
    if (Cursor ns = s["namespace_labels"]) {
      r.has_namespace_labels = true;
      r.namespace_labels = read_labels(ns);
    }
  }
  r.ports = read_ports(c["ports"]);
  r.spans = PortSpans::of(r.ports, r.kind() == model::PeerKind::hostname);
  r.hostname_except = c["https_hostname_except"].strings();
  for (auto& h : r.hostname_except) {
    for (auto& ch : h) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  }
  return r;
}

namespace {

std::vector<model::NetRule> read_rules(const Cursor& c) {
  std::vector<model::NetRule> out;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (Cursor rule = c.at(i); rule.node->is_object()) out.push_back(model::read_net_rule(rule));
  }
  return out;
}

// Sums the requests of the base pod's own containers (they count toward the ceilings, R-RES-3).
void read_base_containers(const Cursor& containers, model::PolicyModel& m) {
  for (std::size_t i = 0; i < containers.size(); ++i) {
    Cursor c = containers.at(i);
    if (Cursor img = c["image"]; img && img.node->is_string()) m.base_images.push_back({parse_image(img.node->text), origin(img)});
    Cursor requests = c["resources"]["requests"];
    for (auto [key, sum] : {std::pair{"cpu", &m.base_cpu_requests}, std::pair{"memory", &m.base_memory_requests}}) {
      Cursor v = requests[key];
      if (!v || !v.node->is_string()) continue;
      if (auto q = Quantity::parse(v.node->text, QuantityGrammar::kubernetes)) *sum = *sum ? (*sum)->plus(*q) : *q;
    }
  }
}

void build_model(const Cursor& root, model::PolicyModel& m, DiagnosticSink& sink) {
  m.display_name = root["display_name"].str();
  if (Cursor base = root["base"]; base && base.node->is_object()) {
    m.base = base.node;
    set_origin(m.base_origin, base);
    m.scheduler_name = str_at(base["spec"]["schedulerName"], m.scheduler_name_origin);
    if (Cursor ann = base["metadata"]["annotations"]; ann && ann.node->is_object()) {
      for (const auto& a : ann.node->members) {
        if (a.value.is_string()) m.base_annotations.push_back({a.key, a.value.text, origin(ann.member_of(a))});
      }
      // Sorted for lookups by key; of a duplicate key (already reported) the first one stays.
      std::stable_sort(m.base_annotations.begin(), m.base_annotations.end(),
                       [](const model::BaseAnnotation& x, const model::BaseAnnotation& y) { return x.key < y.key; });
      m.base_annotations.erase(
          std::unique(m.base_annotations.begin(), m.base_annotations.end(),
                      [](const model::BaseAnnotation& x, const model::BaseAnnotation& y) { return x.key == y.key; }),
          m.base_annotations.end());
    }
    read_base_containers(base["spec"]["containers"], m);
  }
  Cursor c = root["constraints"];
  Cursor res = c["resources"];
  read_quantity(res["max_cpu"], m.max_cpu, sink);
  read_quantity(res["max_memory"], m.max_memory, sink);
  read_quantity(res["min_cpu"], m.min_cpu, sink);
  read_quantity(res["min_memory"], m.min_memory, sink);
  read_quantity(res["default_cpu"], m.default_cpu, sink);
  read_quantity(res["default_memory"], m.default_memory, sink);
  read_quantity(res["cpu_ceiling"], m.cpu_ceiling, sink);
  read_quantity(res["memory_ceiling"], m.memory_ceiling, sink);
  if (Cursor g = res["max_gpu_count"]; g.is_int() && g.node->integer >= 0) {
    m.max_gpu_count = g.node->integer;
    set_origin(m.max_gpu_count_origin, g);
  }
  m.require_limits = boolean_at(res["require_limits"], m.require_limits_origin);

  Cursor image = c["image"];
  m.allowed_registries = strings_at(image["allowed_registries"], m.allowed_registries_origin);
  std::vector<std::string> children;
  for (const auto& r : m.allowed_registries) {
    m.registry_prefixes.push_back(registry_prefix(r));
    if (!m.registry_prefixes.back().empty()) {
      m.registry_sorted.push_back(m.registry_prefixes.back());
      children.push_back(m.registry_prefixes.back() + "/");
    }
  }
  std::sort(m.registry_sorted.begin(), m.registry_sorted.end());
  m.registry_children = PrefixSet(children);
  m.allowed_images = strings_at(image["allowed_images"], m.allowed_images_origin);
  for (const auto& e : m.allowed_images) m.image_entries.push_back(parse_image(e));
  m.images_sorted = m.image_entries;
  std::sort(m.images_sorted.begin(), m.images_sorted.end(), [](const ImageRef& a, const ImageRef& b) { return a.repository < b.repository; });

  Cursor net = c["network"];
  Cursor allowed_egress = net["allowed_egress"];
  m.allowed_egress = read_rules(allowed_egress);
  set_origin(m.allowed_egress_origin, allowed_egress);
  m.default_egress = read_rules(net["default_egress"]);
  m.egress_envelope.build(m.allowed_egress);
  Cursor allowed_ingress = net["allowed_ingress"];
  m.allowed_ingress = read_rules(allowed_ingress);
  m.ingress_envelope.build(m.allowed_ingress);
  set_origin(m.allowed_ingress_origin, allowed_ingress);
  m.default_ingress = read_rules(net["default_ingress"]);
  m.deny_hostname_rules = boolean_at(net["deny_https_hostname_rules"], m.deny_hostname_rules_origin);

  Cursor sec = c["security"];
  m.allow_privileged = boolean_at(sec["allow_privileged"], m.allow_privileged_origin);
  m.allowed_capabilities = strings_at(sec["allowed_capabilities"], m.allowed_capabilities_origin);
  for (const auto& cap : m.allowed_capabilities) m.capability_names.push_back(capability_name(cap));
  std::sort(m.capability_names.begin(), m.capability_names.end());
  m.allowed_seccomp_profiles = strings_at(sec["allowed_seccomp_profiles"], m.allowed_seccomp_profiles_origin);
  m.seccomp_sorted = m.allowed_seccomp_profiles;
  std::sort(m.seccomp_sorted.begin(), m.seccomp_sorted.end());
  m.allowed_runtime_classes = strings_at(sec["allowed_runtime_classes"], m.allowed_runtime_classes_origin);
  m.default_cpu_runtime_class = str_at(sec["default_cpu_runtime_class"], m.default_cpu_runtime_class_origin);
  m.default_gpu_runtime_class = str_at(sec["default_gpu_runtime_class"], m.default_gpu_runtime_class_origin);

  m.allowed_instance_types = strings_at(c["instance"]["allowed_instance_types"], m.allowed_instance_types_origin);
  if (Cursor l = c["lifecycle"]["default_lifetime_seconds"]; l.is_int() && l.node->integer >= 0 && l.node->integer <= 2592000) {
    m.default_lifetime_seconds = l.node->integer;
    set_origin(m.default_lifetime_seconds_origin, l);
  }
  Cursor metadata = c["metadata"];
  Cursor denied = metadata["denied_annotation_prefixes"];
  for (std::size_t i = 0; i < denied.size(); ++i) {
    Cursor prefix = denied.at(i);
    if (!prefix.node->is_string()) continue;
    m.denied_annotation_prefixes.push_back(prefix.node->text);
    m.denied_annotation_prefix_origins.push_back(origin(prefix));
  }
  m.denied_prefix_set = PrefixSet(m.denied_annotation_prefixes);
  if (Cursor n = metadata["max_annotation_count"]; n.is_int() && n.node->integer >= 0) {
    m.max_annotation_count = n.node->integer;
    set_origin(m.max_annotation_count_origin, n);
  }
  Cursor volumes = c["volumes"];
  m.allowed_media = strings_at(volumes["allowed_media"], m.allowed_media_origin);
  if (!m.allowed_media.empty()) {
    auto has = [&](std::string_view v) { return std::find(m.allowed_media.begin(), m.allowed_media.end(), v) != m.allowed_media.end(); };
    m.allows_disk = has("STORAGE_MEDIUM_DISK") || has("STORAGE_MEDIUM_UNSPECIFIED");
    m.allows_memory = has("STORAGE_MEDIUM_MEMORY");
  }
  read_quantity(volumes["max_size"], m.max_size, sink);

}

}  // namespace

struct PolicyBuilder {
  // `prior` holds loading problems that did not stop the parse (duplicate keys, tags).
  // `embedded_path` is set when the policy is part of another input (a runner in the inventory):
  // diagnostics then point into that input, labelled `input`.
  static PolicyLoad build(Node root, std::string file, const PolicyContext& context, Diagnostics prior = {},
                          std::string embedded_path = {}, std::string input = "policy") {
    auto impl = std::make_unique<Policy::Impl>();
    impl->diagnostics = std::move(prior);
    impl->file = std::move(file);
    impl->root = std::move(root);
    DiagnosticSink sink(impl->diagnostics, impl->file, input);

    // A runner document (as the runner API returns it) carries the policy in `policy`.
    Node* policy = &impl->root;
    if (!embedded_path.empty()) {
      impl->base_path = std::move(embedded_path);
    } else if (impl->root.is_object() && impl->root.find("policy")) {
      impl->base_path = pointer_join("", "policy");
      impl->wrapped = true;
      policy = impl->root.find("policy");
    }
    if (policy->is_null()) {
      impl->model.is_null = true;
      sink.add(Code::POLICY_NULL, impl->base_path, policy->mark,
               "the policy is null: the runner was never configured and will receive the platform's default policy",
               "write {} for an explicitly permissive policy, or the constraints you want");
    } else {
      const auto& cs = schema::get("policy");
      schema::ReportedPaths reported = schema::reported_before(impl->diagnostics);
      schema::shape(*policy, cs, impl->base_path, sink, reported);
      schema::validate(*policy, cs, impl->base_path, sink, reported);
      if (policy->is_object()) {
        // The tree and base_path live in the Policy, unchanged once read: its origins are deferred.
        Cursor cur{policy, nullptr, impl->base_path, Layer::sandbox, true};
        build_model(cur, impl->model, sink);
        rules::check_policy(cur, impl->model, sink, context);
      }
    }
    PolicyLoad out;
    out.diagnostics = impl->diagnostics;
    out.policy = std::shared_ptr<const Policy>(new Policy(std::move(impl)));
    return out;
  }
};

PolicyLoad Policy::parse(std::string_view text, Format format, std::string file, const Limits& limits,
                         const PolicyContext& context) {
  Document doc = load_document(text, format, file, "policy", limits);
  if (!doc.loaded) {
    PolicyLoad out;
    out.diagnostics = std::move(doc.diagnostics);
    return out;
  }
  return PolicyBuilder::build(std::move(doc.root), std::move(file), context, std::move(doc.diagnostics));
}

PolicyLoad Policy::from_node(Node root, std::string file, const PolicyContext& context) {
  place_in_walk_order(root);
  return PolicyBuilder::build(std::move(root), std::move(file), context);
}

PolicyLoad build_policy(const Node& policy, std::string file, std::string path, std::string input,
                        const PolicyContext& context) {
  return PolicyBuilder::build(policy, std::move(file), context, {}, std::move(path), std::move(input));
}

Result validate_policy(std::string_view text, Format format, std::string file, const Limits& limits,
                       const PolicyContext& context) {
  return Result::from_diagnostics(Policy::parse(text, format, std::move(file), limits, context).diagnostics);
}

Result validate_policy(const Node& root, std::string file, const PolicyContext& context) {
  return Result::from_diagnostics(Policy::from_node(root, std::move(file), context).diagnostics);
}

}  // namespace sandgate
