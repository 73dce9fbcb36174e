#include "model/unread_defaults.h"

#include <algorithm>
#include <string>
#include <string_view>

namespace sandgate::model {
namespace {

// The SandboxDefaults fields Sandbox(...) reads only when the request uses them (cwsandbox 1.22,
// _sandbox.py; secrets and environment_variables are merged with the call's, and so unread only
// when containers= is used: unread_part): not tags (merged, and coerced by __post_init__),
// annotations (merged), runner_ids (_resolve_selector checks the default whatever the call
// gives), placement_spillover and data_plane_mode (coerced by __post_init__).
constexpr std::string_view k_read_when_used[] = {
    "container_image", "command",  "args",           "request_timeout_seconds", "max_lifetime_seconds",
    "resources",       "network",  "services",       "volumes",                 "runtime_class",
    "security_context", "working_dir", "object_storage_access", "file_system_snapshot", "containers",
    "placement_mode",  "secrets",  "environment_variables"};

// Read by Sandbox(...) whatever the call gives, except for a template.
constexpr std::string_view k_template_only_unread[] = {"annotations", "runner_ids", "environment_variables", "secrets"};

// The same for a dict of defaults, which SandboxDefaults.from_dict reads: it builds every option
// class at once (network, services, volumes, containers, secrets, security_context,
// object_storage_access, file_system_snapshot), so their errors stand wherever the call takes
// them from; it passes the scalars on as they are, and makes `resources` and
// `environment_variables` plain dicts and `args` a tuple without looking inside.
constexpr std::string_view k_from_dict_read_when_used[] = {
    "container_image", "command", "request_timeout_seconds", "max_lifetime_seconds", "runtime_class",
    "working_dir",     "placement_mode"};
// Of those, what from_dict converts (dict(), tuple()).
constexpr std::string_view k_from_dict_inside_unread[] = {"resources", "environment_variables", "args"};

// Whether a value on the way from `value` down `rest` (a JSON Pointer) was an option class the user
// built whose constructor checks its fields: those checks ran, so its errors stand (ResourceOptions'
// constructor checks nothing). Each prefix of the pointer is resolved in turn (errors only: a few
// levels).
bool built_by_user(const Node& value, std::string_view rest) {
  for (std::size_t end = 0;; end = rest.find('/', end + 1)) {
    const Node* node = pointer_resolve(value, rest.substr(0, end));
    if (!node) return false;
    if (node->given_as != GivenAs::none && node->given_as != GivenAs::resource_options) return true;
    if (end == std::string_view::npos) return false;
  }
}

// How much of a defaults field the SDK never reads, when `by` takes its place.
enum class Unread { none, inside, all };
Unread unread_part(const RequestCompiler& c, std::string_view key, ReplacedBy by) {
  // A template's Sandbox(...) takes the call's own environment, annotations, secrets and runner
  // ids, not the defaults' (elsewhere they are merged with the call's, or checked, whatever the
  // call gives): from_dict makes a tuple of the runner ids without looking at them.
  const bool from_template = by.why == ReplacedBy::Why::template_id;
  if (c.defaults_dataclass) {
    if (from_template && is_one_of(key, k_template_only_unread)) return Unread::all;
    // Sandbox(...) merges these with the call's whatever the call gives, unless containers= is
    // used: the environment by dict() (which reads no value), the secrets by list() (each one read).
    if (by.why == ReplacedBy::Why::layer && key == "environment_variables") return Unread::inside;
    if (by.why == ReplacedBy::Why::layer && key == "secrets") return Unread::none;
    return is_one_of(key, k_read_when_used) ? Unread::all : Unread::none;
  }
  if (from_template && key == "runner_ids") return Unread::inside;
  if (from_template && key == "annotations") return Unread::all;
  // A value from_dict converts, whatever the call gives: the conversion refuses a value that is not
  // a mapping or a sequence, and reads nothing inside it.
  if (is_one_of(key, k_from_dict_inside_unread)) return Unread::inside;
  return is_one_of(key, k_from_dict_read_when_used) ? Unread::all : Unread::none;
}

}  // namespace

std::string replaced_by(std::string_view key, ReplacedBy by) {
  switch (by.why) {
    case ReplacedBy::Why::containers: return "containers= is used, which takes no single-container default";
    case ReplacedBy::Why::template_id: return "template_id is set, and a template's sandbox does not read it";
    case ReplacedBy::Why::layer: break;
  }
  if (by.layer == Layer::function && key == "containers") return "@session.function drops SandboxDefaults.containers";
  return std::string(by.layer == Layer::function ? "@session.function" : "the sandbox") + " sets " + std::string(key);
}

void note_unread_default(RequestCompiler& c, const Member& member, ReplacedBy by) {
  // The defaults' shape found nothing (the usual case): nothing to note, no path to write.
  if (c.m.client != Client::python || c.defaults_schema_begin == c.defaults_schema_end) return;
  const Unread part = unread_part(c, member.key, by);
  if (part == Unread::none) return;
  const bool inside_only = part == Unread::inside;
  const std::string prefix = pointer_join("", member.input_key());
  RequestCompiler::UnreadDefault unread{member.key, by, {}};
  for (std::size_t i = c.defaults_schema_begin; i < c.defaults_schema_end; ++i) {
    const Diagnostic& d = c.diags[i];
    if (d.severity != Severity::error || d.input != "defaults") continue;
    if (d.path.compare(0, prefix.size(), prefix) != 0 || (d.path.size() > prefix.size() && d.path[prefix.size()] != '/')) {
      continue;
    }
    if (inside_only && d.path.size() == prefix.size()) continue;
    if (built_by_user(member.value, std::string_view(d.path).substr(prefix.size()))) continue;
    unread.errors.push_back(i);
  }
  if (!unread.errors.empty()) c.unread_defaults.push_back(std::move(unread));
}

void report_unread_defaults(RequestCompiler& c) {
  if (c.unread_defaults.empty()) return;
  std::vector<bool> folded(c.diags.size(), false);
  Diagnostics warnings;
  for (const auto& u : c.unread_defaults) {
    const Diagnostic& first = c.diags[u.errors.front()];
    Diagnostic w = first;
    w.code = Code::UNREAD_DEFAULT_INVALID;
    w.severity = code_info(w.code).severity;
    w.related.clear();
    std::string more = u.errors.size() > 1 ? " (and " + std::to_string(u.errors.size() - 1) + " more)" : "";
    w.message = "SandboxDefaults." + u.key + " is never read by this request (" + replaced_by(u.key, u.by) +
                "), and the SDK refuses it where it is read: " + first.message + more;
    w.hint = "fix or remove it in the SandboxDefaults: every request that does not set " + u.key + " uses it";
    warnings.push_back(std::move(w));
    for (std::size_t i : u.errors) folded[i] = true;
  }
  Diagnostics kept;
  kept.reserve(c.diags.size());
  for (std::size_t i = 0; i < c.diags.size(); ++i) {
    if (!folded[i]) kept.push_back(std::move(c.diags[i]));
  }
  kept.insert(kept.end(), std::make_move_iterator(warnings.begin()), std::make_move_iterator(warnings.end()));
  c.diags = std::move(kept);
  c.unread_defaults.clear();
}

}  // namespace sandgate::model
