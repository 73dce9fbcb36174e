#include "model/replaced_defaults.h"

#include <algorithm>

#include "model/unread_defaults.h"

namespace sandgate::model {
namespace {

// Checked by SandboxDefaults.__post_init__, whichever way the defaults were built.
constexpr std::string_view k_post_init_checked[] = {"data_plane_mode", "placement_spillover", "poll_retry_budget_seconds",
                                                     "poll_rpc_timeout_seconds", "create_retry_budget_seconds"};
// Built into an option class by SandboxDefaults.from_dict.
constexpr std::string_view k_from_dict_built[] = {"network",    "services", "object_storage_access", "file_system_snapshot",
                                                   "containers", "secrets",  "volumes"};

// Whether a volume of a replaced list was built: every one by from_dict, and one given as
// ScratchVolumeOptions or RegisteredVolumeOptions by the user, in any layer.
bool volume_built(const RequestCompiler& c, Layer layer, const Node& volume) {
  return volume.is_object() && (c.built_by_from_dict(layer) || volume.given_as != GivenAs::none);
}

void check_value(RequestCompiler& c, std::string_view key, const Cursor& v) {
  if (key == "volumes") {
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (volume_built(c, v.layer, *v.at(i).node)) check_built_volume(c, v.at(i), "");
    }
  } else if (key == "data_plane_mode") {
    check_data_plane_mode(c, v);
  } else if (key == "placement_spillover") {
    check_spillover(c, v);
  } else if (key == "network") {
    check_network_options(c, v);
  } else if (key == "object_storage_access") {
    check_storage_permission(c, v["permission"]);
  } else if (key == "file_system_snapshot") {
    if (v.node->is_object()) check_built_volume(c, v, "workspace");
  } else if (key == "services" || key == "containers" || key == "secrets") {
    for (std::size_t i = 0; i < v.size(); ++i) {
      Cursor item = v.at(i);
      if (!item.node->is_object()) continue;
      if (key == "services") {
        check_service(c, item, false);
      } else if (key == "secrets") {
        check_secret_fields(c, item, false);
      } else {
        Cursor unused;
        check_container(c, item, unused);
        check_built_mounts(c, item);
      }
    }
  } else {
    check_client_timeout(c, key, v);  // the poll settings
  }
}

}  // namespace

void keep_replaced(RequestCompiler& c, MergedField& f, ReplacedBy by) {
  if (c.m.client != Client::python) return;
  const std::string& key = f.member.key;
  const Layer layer = f.origin.layer;
  const Node& value = f.member.value;
  const bool built = key == "volumes" ? std::any_of(value.items.begin(), value.items.end(),
                                                    [&](const Node& v) { return volume_built(c, layer, v); })
                     : layer != Layer::defaults ? false
                                                : is_one_of(key, k_post_init_checked) ||
                                                      (c.built_by_from_dict(layer) && is_one_of(key, k_from_dict_built));
  if (!built) return;
  RequestCompiler::Replaced& kept = c.replaced.emplace_back();
  kept.field = std::move(f);
  kept.field.origin.path = pointer_join("", kept.field.member.input_key());  // the cursors' base
  kept.by = by;
}

void check_replaced(RequestCompiler& c) {
  for (const auto& r : c.replaced) {
    const MergedField& f = r.field;
    const std::size_t first = c.diags.size();
    check_value(c, f.member.key, Cursor{&f.member.value, &f.member, f.origin.path.written(), f.origin.layer});
    if (f.origin.layer != Layer::defaults) continue;
    for (std::size_t i = first; i < c.diags.size(); ++i) {
      c.diags[i].message += " (SandboxDefaults checks it when it is built, although " + replaced_by(f.member.key, r.by) + ")";
    }
  }
}

}  // namespace sandgate::model
