// P-14 for the image allowlists: an entry no image reference can match (SPEC §4, reference policy
// model §1.4). A whole list of such entries refuses every image, so no sandbox can pass.
#pragma once

#include <string>
#include <string_view>

#include "model/cursor.h"
#include "model/policy_model.h"
#include "util/diagnostics.h"

namespace sandgate::rules {

// Why `entry` of allowed_registries (`registry`) or allowed_images can match no image reference,
// and the entry that was likely meant ("" when none can be said); `why` is "" for a usable entry.
struct DeadEntry {
  std::string why;
  std::string meant;
  bool an_image = false;  // a registry entry that names one image (tagged or pinned)
};
DeadEntry dead_image_entry(std::string_view entry, bool registry);

void check_image_allowlists(const model::Cursor& policy, const model::PolicyModel& m, DiagnosticSink& sink);

}  // namespace sandgate::rules
