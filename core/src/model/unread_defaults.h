// N-LAYER: a SandboxDefaults(...) value that this request never reads. The dataclass keeps what it
// is given (its __post_init__ coerces tags, placement_spillover, data_plane_mode and the poll
// settings only), and Sandbox(...) reads one of its fields only when the call leaves that field
// unset (`x if x is not None else defaults.x`), and none of the single-container ones when
// containers= is used. A value the SDK would refuse, in a field this request replaces, is so never
// checked: the request goes through, and sandgate says so as a warning
// (SG_UNREAD_DEFAULT_INVALID: every request that does use the default is refused) instead of
// refusing this one. SandboxDefaults.from_dict (a defaults layer given as a dict) builds its option
// classes at once, so their errors stand, but it passes the scalars on unchecked and looks inside
// neither `resources` nor `environment_variables`; an option class the user built
// (ScratchVolumeOptions(...) inside the dataclass) keeps its errors too: its constructor ran.
#pragma once

#include <string>
#include <string_view>

#include "model/request_compiler.h"

namespace sandgate::model {

// The defaults' `member` is about to be replaced, or dropped (`by` says why): its errors that the
// SDK never raises for this request are noted, to be reported by report_unread_defaults.
void note_unread_default(RequestCompiler& c, const Member& member, ReplacedBy by);

// Why the defaults' `key` is not used, for a message: "the sandbox sets network", …
std::string replaced_by(std::string_view key, ReplacedBy by);

// After the merge: each noted field's errors become one SG_UNREAD_DEFAULT_INVALID warning.
void report_unread_defaults(RequestCompiler& c);

}  // namespace sandgate::model
