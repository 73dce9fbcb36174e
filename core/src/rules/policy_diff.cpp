// Policy diff (SPEC §10.3): the static walk over two compiled policy documents, the replay of one
// record under both, its class, and the static change(s) behind each new rejection.
#include "rules/policy_diff.h"

#include <algorithm>
#include <map>
#include <thread>

#include "sandgate/quantity.h"
#include "stream/ordered_pool.h"

namespace sandgate {

std::string_view to_string(StaticChange::Kind k) {
  switch (k) {
    case StaticChange::Kind::changed: return "changed";
    case StaticChange::Kind::added: return "added";
    case StaticChange::Kind::removed: return "removed";
    case StaticChange::Kind::reordered: return "reordered";
  }
  return "changed";
}

std::string_view to_string(DiffClass c) {
  switch (c) {
    case DiffClass::newly_rejected: return "newly_rejected";
    case DiffClass::newly_accepted: return "newly_accepted";
    case DiffClass::rejection_changed: return "rejection_changed";
    case DiffClass::resolution_changed: return "resolution_changed";
    case DiffClass::unchanged: return "unchanged";
    case DiffClass::unreadable: return "unreadable";
  }
  return "unchanged";
}

std::optional<DiffClass> diff_class_from_name(std::string_view name) {
  for (std::size_t i = 0; i < k_diff_classes; ++i) {
    if (to_string(static_cast<DiffClass>(i)) == name) return static_cast<DiffClass>(i);
  }
  return std::nullopt;
}

std::string field_name(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (!pointer_split(pointer, tokens)) return std::string(pointer);
  std::string out;
  for (const auto& t : tokens) {
    bool index = !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
    bool plain = !t.empty() && !index && (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_') &&
                 std::all_of(t.begin(), t.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (plain) {
      if (!out.empty()) out += '.';
      out += t;
    } else if (index) {
      out += "[" + t + "]";
    } else {
      out += "[\"";
      for (char c : t) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      out += "\"]";
    }
  }
  return out;
}

namespace diff {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

// `inner` is `outer` or lies under it.
bool under(std::string_view inner, std::string_view outer) {
  return inner == outer || (starts_with(inner, outer) && inner.size() > outer.size() && inner[outer.size()] == '/') ||
         outer.empty();
}

// Fields that hold Kubernetes quantities: they compare by value ("8" == "8000m").
bool is_quantity_field(std::string_view pointer) {
  static const std::vector<std::string_view> k_fields = {
      "/constraints/resources/max_cpu",      "/constraints/resources/max_memory",    "/constraints/resources/min_cpu",
      "/constraints/resources/min_memory",   "/constraints/resources/default_cpu",   "/constraints/resources/default_memory",
      "/constraints/resources/cpu_ceiling",  "/constraints/resources/memory_ceiling", "/constraints/volumes/max_size"};
  return std::find(k_fields.begin(), k_fields.end(), pointer) != k_fields.end();
}

// Structural equality where object members compare by key, whatever their order.
bool same(const Node& a, const Node& b) {
  if (a.is_object() && b.is_object()) {
    if (a.members.size() != b.members.size()) return false;
    for (const auto& m : a.members) {
      const Node* other = b.find(m.key);
      if (!other || !same(m.value, *other)) return false;
    }
    return true;
  }
  if (a.is_array() && b.is_array()) {
    if (a.items.size() != b.items.size()) return false;
    for (std::size_t i = 0; i < a.items.size(); ++i) {
      if (!same(a.items[i], b.items[i])) return false;
    }
    return true;
  }
  return a == b;
}

class StaticWalker {
 public:
  StaticWalker(const Policy& o, const Policy& n, std::vector<StaticChange>& out) : old_(o), new_(n), out_(out) {}

  void run() {
    const Node& a = old_.document();
    const Node& b = new_.document();
    walk(&a, &b, "", a.mark, b.mark, a.mark, b.mark);
  }

 private:
  const Policy& old_;
  const Policy& new_;
  std::vector<StaticChange>& out_;

  std::optional<SourceLocation> at(const Policy& p, Mark m) const {
    if (!m.known()) return std::nullopt;
    return SourceLocation{p.file(), m.line, m.column};
  }

  void add(StaticChange::Kind kind, std::string pointer, std::string field_pointer, bool item, const Node* a,
           const Node* b, Mark a_at, Mark b_at) {
    StaticChange c;
    c.kind = kind;
    c.field = field_name(field_pointer);
    c.pointer = std::move(pointer);
    c.list_item = item;
    if (a) c.old_value = *a;
    if (b) c.new_value = *b;
    c.old_source = at(old_, a_at);
    c.new_source = at(new_, b_at);
    out_.push_back(std::move(c));
  }

  // a_at/b_at: where each value is written; a_near/b_near: the enclosing field on each side, for
  // the side that lacks the value.
  void walk(const Node* a, const Node* b, const std::string& ptr, Mark a_at, Mark b_at, Mark a_near, Mark b_near) {
    if (!starts_with(ptr, "/base")) {  // null means unset, except in the opaque base
      if (a && a->is_null()) a = nullptr;
      if (b && b->is_null()) b = nullptr;
    }
    if (!a && !b) return;
    if (!a) return add(StaticChange::Kind::added, ptr, ptr, false, nullptr, b, a_near, b_at);
    if (!b) return add(StaticChange::Kind::removed, ptr, ptr, false, a, nullptr, a_at, b_near);
    if (a->is_object() && b->is_object()) {
      for (const auto& m : b->members) {
        const Member* am = a->find_member(m.key);
        walk(am ? &am->value : nullptr, &m.value, pointer_join(ptr, m.key), am ? am->key_mark : Mark{}, m.key_mark, a_at,
             b_at);
      }
      for (const auto& m : a->members) {
        if (!b->find_member(m.key)) walk(&m.value, nullptr, pointer_join(ptr, m.key), m.key_mark, Mark{}, a_at, b_at);
      }
      return;
    }
    if (a->is_array() && b->is_array()) return list(*a, *b, ptr, a_at, b_at);
    if (is_quantity_field(ptr) && a->is_string() && b->is_string()) {
      auto qa = Quantity::parse(a->text, QuantityGrammar::kubernetes);
      auto qb = Quantity::parse(b->text, QuantityGrammar::kubernetes);
      if (qa && qb && *qa == *qb) return;
    }
    if (same(*a, *b)) return;
    add(StaticChange::Kind::changed, ptr, ptr, false, a, b, a_at, b_at);
  }

  // Lists compare as multisets: each item of one side that the other lacks is one change.
  void list(const Node& a, const Node& b, const std::string& ptr, Mark a_at, Mark b_at) {
    std::vector<bool> used(b.items.size(), false);
    std::vector<std::size_t> removed;
    for (std::size_t i = 0; i < a.items.size(); ++i) {
      bool found = false;
      for (std::size_t j = 0; j < b.items.size() && !found; ++j) {
        if (!used[j] && same(a.items[i], b.items[j])) used[j] = found = true;
      }
      if (!found) removed.push_back(i);
    }
    for (std::size_t j = 0; j < b.items.size(); ++j) {
      if (!used[j]) add(StaticChange::Kind::added, pointer_join(ptr, j), ptr, true, nullptr, &b.items[j], a_at, b.items[j].mark);
    }
    for (std::size_t i : removed) {
      add(StaticChange::Kind::removed, pointer_join(ptr, i), ptr, true, &a.items[i], nullptr, a.items[i].mark, b_at);
    }
    if (removed.empty() && std::count(used.begin(), used.end(), false) == 0 && !same(a, b)) {
      add(StaticChange::Kind::reordered, ptr, ptr, false, &a, &b, a_at, b_at);
    }
  }
};

std::optional<Node> maybe(const Node* n) { return n ? std::optional<Node>(*n) : std::nullopt; }

void compare_nodes(const Node* a, const Node* b, const std::string& ptr, std::vector<ValueChange>& out) {
  if (!a && !b) return;
  if (a && b && a->is_object() && b->is_object()) {
    for (const auto& m : a->members) compare_nodes(&m.value, b->find(m.key), pointer_join(ptr, m.key), out);
    for (const auto& m : b->members) {
      if (!a->find(m.key)) compare_nodes(nullptr, &m.value, pointer_join(ptr, m.key), out);
    }
    return;
  }
  if (a && b && a->is_array() && b->is_array()) {
    std::size_t n = std::max(a->items.size(), b->items.size());
    for (std::size_t i = 0; i < n; ++i) {
      compare_nodes(i < a->items.size() ? &a->items[i] : nullptr, i < b->items.size() ? &b->items[i] : nullptr,
                    pointer_join(ptr, i), out);
    }
    return;
  }
  if (a && b && *a == *b) return;
  out.push_back(ValueChange{ptr, maybe(a), maybe(b)});
}

void compare_text(std::string_view name, const std::string& a, const std::string& b, std::vector<ValueChange>& out) {
  if (a == b) return;
  ValueChange c{std::string(name), std::nullopt, std::nullopt};
  if (!a.empty()) c.old_value = Node::make_string(a);
  if (!b.empty()) c.new_value = Node::make_string(b);
  out.push_back(std::move(c));
}

std::vector<std::string> unique_codes(const Diagnostics& errors) {
  std::vector<std::string> codes;
  for (const auto& d : errors) {
    std::string c(d.name());
    if (std::find(codes.begin(), codes.end(), c) == codes.end()) codes.push_back(std::move(c));
  }
  return codes;
}

}  // namespace

const std::vector<std::string_view>& policy_fields_for(Code code) {
  static const std::map<Code, std::vector<std::string_view>> k_table = {
      {Code::RESOURCE_ABOVE_MAX, {"/constraints/resources/max_cpu", "/constraints/resources/max_memory"}},
      {Code::RESOURCE_BELOW_MIN, {"/constraints/resources/min_cpu", "/constraints/resources/min_memory"}},
      {Code::RESOURCE_CEILING, {"/constraints/resources/cpu_ceiling", "/constraints/resources/memory_ceiling"}},
      {Code::LIMITS_REQUIRED, {"/constraints/resources/require_limits"}},
      {Code::GPU_POLICY_MAX, {"/constraints/resources/max_gpu_count"}},
      {Code::ANNOTATION_DENIED_PREFIX, {"/constraints/metadata/denied_annotation_prefixes"}},
      {Code::ANNOTATION_COUNT, {"/constraints/metadata/max_annotation_count"}},
      {Code::ANNOTATIONS_TOO_LARGE, {"/base/metadata/annotations"}},
      {Code::SUNK_ANNOTATION_INVALID, {"/base/metadata/annotations"}},
      {Code::VOLUME_MEDIUM_NOT_ALLOWED, {"/constraints/volumes/allowed_media"}},
      {Code::VOLUME_TOO_LARGE, {"/constraints/volumes/max_size"}},
      {Code::MEMORY_VOLUMES_OVER_80_PERCENT, {"/constraints/resources/default_memory"}},
      {Code::RUNTIME_CLASS_NOT_ALLOWED, {"/constraints/security/allowed_runtime_classes"}},
      {Code::GPU_RUNTIME_CLASS_CPU,
       {"/constraints/security/default_cpu_runtime_class", "/constraints/security/default_gpu_runtime_class"}},
      {Code::GPU_KATA_ON_CKS, {"/constraints/security/default_gpu_runtime_class"}},
      {Code::NET_OUTSIDE_ENVELOPE, {"/constraints/network/allowed_egress", "/constraints/network/allowed_ingress"}},
      {Code::NET_HOSTNAME_DENIED, {"/constraints/network/deny_https_hostname_rules"}},
      {Code::IMAGE_NOT_ALLOWED, {"/constraints/image/allowed_registries", "/constraints/image/allowed_images"}},
      {Code::SECURITY_NOT_ALLOWED,
       {"/constraints/security/allow_privileged", "/constraints/security/allowed_capabilities",
        "/constraints/security/allowed_seccomp_profiles"}},
      {Code::INSTANCE_TYPE_NOT_ALLOWED, {"/constraints/instance/allowed_instance_types"}},
      {Code::SUNK_KILL_WAIT, {"/base/spec/schedulerName"}},
      {Code::SUNK_ZERO_REQUESTS, {"/base/spec/schedulerName"}},
      {Code::GPU_ON_SUNK, {"/base/spec/schedulerName"}},
  };
  static const std::vector<std::string_view> k_none;
  auto it = k_table.find(code);
  return it == k_table.end() ? k_none : it->second;
}

bool location_matches(std::string_view location, const StaticChange& change) {
  // A removed list item has OLD's index, which says nothing about NEW's list: only the list (or
  // something enclosing it) names it.
  if (change.kind == StaticChange::Kind::removed && change.list_item) {
    return location != change.pointer && under(change.pointer, location);
  }
  return under(change.pointer, location) || under(location, change.pointer);
}

std::vector<ValueChange> compare_resolutions(const stream::ResultView& a, const stream::ResultView& b) {
  std::vector<ValueChange> out;
  compare_nodes(&a.resolved, &b.resolved, "", out);
  compare_text("qos_class", a.qos_class, b.qos_class, out);
  compare_text("runtime_class", a.runtime_class.value_or(""), b.runtime_class.value_or(""), out);
  compare_text("runner", a.runner, b.runner, out);
  bool placement_seen = std::any_of(out.begin(), out.end(), [](const ValueChange& c) { return c.pointer == "/placement_mode"; });
  if (!placement_seen) compare_text("placement_mode", a.placement_mode, b.placement_mode, out);
  auto find = [](const stream::ResultView& v, const std::string& k) -> std::string {
    for (const auto& [name, value] : v.slurm) {
      if (name == k) return value;
    }
    return {};
  };
  std::vector<std::string> keys;
  for (const auto* v : {&a, &b}) {
    for (const auto& [name, value] : v->slurm) {
      if (std::find(keys.begin(), keys.end(), name) == keys.end()) keys.push_back(name);
    }
  }
  for (const auto& k : keys) compare_text("slurm." + k, find(a, k), find(b, k), out);
  return out;
}

}  // namespace diff

std::vector<StaticChange> static_policy_changes(const Policy& old_policy, const Policy& new_policy) {
  std::vector<StaticChange> out;
  diff::StaticWalker(old_policy, new_policy, out).run();
  return out;
}

PolicyDiffer::PolicyDiffer(std::shared_ptr<const Policy> old_policy, std::shared_ptr<const Policy> new_policy,
                           std::shared_ptr<const Runners> runners, std::shared_ptr<const Org> org, CheckOptions options)
    : old_policy_(old_policy),
      new_policy_(new_policy),
      old_engine_(old_policy, runners, org),
      new_engine_(new_policy, runners, org),
      options_(std::move(options)) {
  if (old_policy_ && new_policy_) changes_ = static_policy_changes(*old_policy_, *new_policy_);
}

// The static changes behind one of NEW's errors: the policy locations it names (its own path when
// it is about the policy, its `related` entries), else the fields its rule reads.
std::vector<std::size_t> PolicyDiffer::attribute(const Diagnostic& d) const {
  std::vector<std::string> locations = stream::policy_locations(d, new_policy_ ? new_policy_->base_path() : std::string());
  if (locations.empty()) {
    for (auto f : diff::policy_fields_for(d.code)) locations.emplace_back(f);
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < changes_.size(); ++i) {
    for (const auto& l : locations) {
      if (diff::location_matches(l, changes_[i])) {
        out.push_back(i);
        break;
      }
    }
  }
  return out;
}

RecordDiff PolicyDiffer::diff(RequestRecord record) const {
  RecordDiff out;
  out.index = record.index;
  out.line = record.line;
  out.id = record.id;
  if (!record.readable()) {
    out.cls = DiffClass::unreadable;
    out.errors.push_back(*record.problem);
    return out;
  }
  // One compiled request, checked under both policies.
  std::shared_ptr<const Request> request = stream::compile_record(std::move(record), options_);
  auto [a, b] = stream::view_pair(old_engine_.check(request), new_engine_.check(request));
  auto attribute_new_errors = [&](const std::vector<std::string>& except_codes) {
    out.error_causes.resize(out.errors.size());
    for (std::size_t i = 0; i < out.errors.size(); ++i) {
      if (std::find(except_codes.begin(), except_codes.end(), out.errors[i].name()) != except_codes.end()) continue;
      out.error_causes[i] = attribute(out.errors[i]);
      for (std::size_t c : out.error_causes[i]) {
        if (std::find(out.caused_by.begin(), out.caused_by.end(), c) == out.caused_by.end()) out.caused_by.push_back(c);
      }
    }
    std::sort(out.caused_by.begin(), out.caused_by.end());
  };
  if (a.ok && !b.ok) {
    out.cls = DiffClass::newly_rejected;
    out.errors = std::move(b.errors);
    attribute_new_errors({});
  } else if (!a.ok && b.ok) {
    out.cls = DiffClass::newly_accepted;
    out.old_codes = diff::unique_codes(a.errors);
  } else if (!a.ok && !b.ok) {
    std::vector<std::string> old_codes = diff::unique_codes(a.errors), new_codes = diff::unique_codes(b.errors);
    std::vector<std::string> sa = old_codes, sb = new_codes;
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    if (sa != sb) {
      out.cls = DiffClass::rejection_changed;
      out.errors = std::move(b.errors);
      out.old_codes = std::move(old_codes);
      attribute_new_errors(out.old_codes);  // only the errors OLD did not have need a cause
    }
  } else {
    out.changes = diff::compare_resolutions(a, b);
    if (!out.changes.empty()) out.cls = DiffClass::resolution_changed;
  }
  return out;
}

// ---- summary ------------------------------------------------------------------------------------

std::size_t DiffSummary::total() const {
  std::size_t n = 0;
  for (auto c : counts) n += c;
  return n;
}

namespace {

constexpr std::size_t k_max_groups = 500;  // distinct changed pointers listed before "(other)"

DiffGroup& group_for(std::vector<DiffGroup>& groups, const std::string& key) {
  for (auto& g : groups) {
    if (g.key == key) return g;
  }
  if (groups.size() >= k_max_groups) {
    for (auto& g : groups) {
      if (g.key == "(other)") return g;
    }
    groups.push_back(DiffGroup{"(other)", 0, {}, {}});
    return groups.back();
  }
  groups.push_back(DiffGroup{key, 0, {}, {}});
  return groups.back();
}

void add_causes(DiffGroup& g, const std::vector<std::size_t>& causes) {
  for (std::size_t c : causes) {
    if (std::find(g.caused_by.begin(), g.caused_by.end(), c) == g.caused_by.end()) g.caused_by.push_back(c);
  }
  std::sort(g.caused_by.begin(), g.caused_by.end());
}

}  // namespace

void DiffSummary::add(const RecordDiff& r) {
  std::size_t cls = static_cast<std::size_t>(r.cls);
  ++counts[cls];
  if (r.cls != DiffClass::unchanged && class_examples[cls].size() < examples) class_examples[cls].push_back(r);
  if (r.cls == DiffClass::newly_rejected) {
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < r.errors.size(); ++i) {
      std::string code(r.errors[i].name());
      DiffGroup& g = group_for(newly_rejected_by_code, code);
      if (i < r.error_causes.size()) add_causes(g, r.error_causes[i]);
      if (std::find(seen.begin(), seen.end(), code) != seen.end()) continue;
      seen.push_back(code);
      ++g.count;
      if (g.examples.size() < examples) g.examples.push_back(r);
    }
  } else if (r.cls == DiffClass::resolution_changed) {
    for (const auto& c : r.changes) {
      DiffGroup& g = group_for(resolution_changed_by_pointer, c.pointer);
      ++g.count;
      if (g.examples.size() < examples) g.examples.push_back(r);
    }
  }
}

bool PolicyDiff::ok() const {
  return old_readable && new_readable && new_errors.empty() && summary.counts[static_cast<std::size_t>(DiffClass::newly_rejected)] == 0 &&
         error.empty();
}

PolicyDiff start_diff(const PolicyLoad& old_policy, const PolicyLoad& new_policy, std::size_t examples) {
  PolicyDiff d;
  d.old_file = old_policy.policy ? old_policy.policy->file() : std::string();
  d.new_file = new_policy.policy ? new_policy.policy->file() : std::string();
  d.old_readable = old_policy.policy != nullptr;
  d.new_readable = new_policy.policy != nullptr;
  using LoadAndErrors = std::pair<const PolicyLoad*, Diagnostics*>;
  for (auto [load, errors] : {LoadAndErrors{&old_policy, &d.old_errors}, LoadAndErrors{&new_policy, &d.new_errors}}) {
    for (const auto& diag : load->diagnostics) {
      if (diag.severity == Severity::error) errors->push_back(diag);
    }
  }
  d.summary.examples = examples;
  if (d.old_readable && d.new_readable) d.static_changes = static_policy_changes(*old_policy.policy, *new_policy.policy);
  return d;
}

void replay(PolicyDiff& d, const PolicyDiffer& differ, const std::function<bool(PendingRecord&)>& next,
            const std::string& stream_name, const Limits& limits, const DiffOptions& options,
            const std::function<bool(const RecordDiff&)>& on_record) {
  d.replayed = true;
  d.requests = stream_name;
  d.summary.examples = options.examples;
  stream::PoolOptions pool;
  pool.jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  bool completed = stream::run_ordered<PendingRecord, RecordDiff>(
      pool, [&](PendingRecord& p) { return next(p); }, [](const PendingRecord& p) { return p.text.size() + 64; },
      [&](PendingRecord&& p) { return differ.diff(prepare_record(std::move(p), stream_name, limits)); },
      [&](RecordDiff&& r) {
        d.summary.add(r);
        bool go_on = !on_record || on_record(r);
        if (options.keep_records && r.cls != DiffClass::unchanged) d.records.push_back(std::move(r));
        return go_on;
      });
  if (!completed && d.error.empty()) d.error = "stopped before the end of the requests";
}

void replay(PolicyDiff& d, const PolicyDiffer& differ, RequestReader& records, const DiffOptions& options,
            const std::function<bool(const RecordDiff&)>& on_record) {
  replay(d, differ, [&](PendingRecord& p) { return records.next(p); }, records.name(), records.limits(), options, on_record);
  if (!records.error().empty()) d.error = records.error();
}

PolicyDiff diff_policies(const PolicyLoad& old_policy, const PolicyLoad& new_policy, RequestReader* records,
                         std::shared_ptr<const Runners> runners, std::shared_ptr<const Org> org, const DiffOptions& options) {
  PolicyDiff d = start_diff(old_policy, new_policy, options.examples);
  if (!records || !d.old_readable || !d.new_readable) return d;
  PolicyDiffer differ(old_policy.policy, new_policy.policy, std::move(runners), std::move(org), options.check);
  replay(d, differ, *records, options);
  return d;
}

}  // namespace sandgate
