// N-LAYER: values SandboxDefaults checks although this request never sends them. Sandbox(...)
// reads a defaults field only when the call leaves it unset, but SandboxDefaults is built (and
// checked) before that: its __post_init__ coerces data_plane_mode and placement_spillover and
// checks the poll settings whatever the call gives, and SandboxDefaults.from_dict (a defaults
// layer given as a dict) builds every option class at once — NetworkOptions, Service,
// ObjectStorageAccess, FileSystemSnapshotOptions, Container, Secret — each with its
// constructor's checks. So a default that one of those refuses fails the request even when the
// call replaces it (cwsandbox 1.22 raises when the defaults are built). Only the constructors'
// checks run on such a value: the server never sees it. The same holds, in any layer, for a
// replaced volume the user built (ScratchVolumeOptions(...)). The opposite case, a default that
// nothing checks and nothing reads, is unread_defaults.h's warning.
#pragma once

#include "model/request_compiler.h"

namespace sandgate::model {

// `f`, a field this request does not use (`by` says why), is moved into c.replaced when a
// constructor checked its value; else left as it is.
void keep_replaced(RequestCompiler& c, MergedField& f, ReplacedBy by);

// After the readers: the constructors' checks on the kept values, each error of a default saying
// why a value the request replaces still counts.
void check_replaced(RequestCompiler& c);

}  // namespace sandgate::model
