// The state of compiling one request: the prepared layers, the merged fields, and where the
// request's own diagnostics go. Each request_*.cpp file reads one family of fields into the
// RequestModel and reports what can be said about the request alone; the order is in request.cpp.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "model/cursor.h"
#include "model/request_model.h"
#include "sandgate/request.h"

namespace sandgate::model {

// Why this request does not use a defaults value: a later layer set its own, containers= takes no
// single-container default, or the sandbox comes from a template, whose Sandbox(...) reads none of
// the spec's defaults (cwsandbox's skip_spec_defaults and from_template).
struct ReplacedBy {
  enum class Why : std::uint8_t { layer, containers, template_id };
  Why why = Why::layer;
  Layer layer = Layer::sandbox;  // Why::layer: the layer that set its own value
  static ReplacedBy value_of(Layer l) { return {Why::layer, l}; }
  static ReplacedBy containers() { return {Why::containers, Layer::sandbox}; }
  static ReplacedBy template_id() { return {Why::template_id, Layer::sandbox}; }
};

struct RequestCompiler {
  RequestCompiler(RequestModel& model, Diagnostics& diagnostics, const CheckOptions& check_options)
      : m(model), diags(diagnostics), options(check_options) {}

  RequestModel& m;
  Diagnostics& diags;
  const CheckOptions& options;
  std::array<const Document*, 3> docs{};
  std::array<Document*, 3> owned{};  // the same documents when the compiler may take their trees
  std::array<Node, 3> prepared;  // each layer after the spelling layer and the schema
  // The defaults came as the SandboxDefaults dataclass (its root given_as), not as the dict that
  // SandboxDefaults.from_dict reads: the dataclass keeps its volumes as they are.
  bool defaults_dataclass = false;
  // Whether the SDK built a value of this layer with SandboxDefaults.from_dict (a defaults layer
  // given as a plain dict), which constructs every option class and so runs its checks.
  bool built_by_from_dict(Layer layer) const { return layer == Layer::defaults && !defaults_dataclass; }
  // Values this request never sends (a later layer set its own, containers= or a template dropped
  // it, or a function dropped SandboxDefaults.containers) whose constructors ran all the same:
  // replaced_defaults.h.
  struct Replaced {
    MergedField field;
    ReplacedBy by;
  };
  std::vector<Replaced> replaced;
  // The defaults layer's schema diagnostics, [begin, end) in `diags` (unread_defaults.h).
  std::size_t defaults_schema_begin = 0, defaults_schema_end = 0;
  // SandboxDefaults(...) fields this request never reads, with the indexes of their errors.
  struct UnreadDefault {
    std::string key;
    ReplacedBy by;
    std::vector<std::size_t> errors;
  };
  std::vector<UnreadDefault> unread_defaults;

  // A cursor on a top-level field of the merged request (empty when the request does not set it).
  Cursor field(std::string_view key) const;
  // Cursors on the entries of a map merged by key, or the items of a list concatenated over the
  // layers, each with its own layer and input path.
  std::vector<Cursor> parts(std::string_view key) const;
  Cursor root() const;

  // A diagnostic about a request value, in the value's layer (located at the value, or its key).
  Diagnostic& report(Code code, const Cursor& at, std::string message, std::string hint = {});
  Diagnostic& report_key(Code code, const Cursor& at, std::string message, std::string hint = {});
  Diagnostic& report_at(Code code, const Origin& at, std::string message, std::string hint = {});
  // Names an earlier value as the other side of the problem (SPEC §3 `related`).
  void relate(Diagnostic& d, const Origin& first, std::string message);
  // Whether an error was reported at `path` (in `layer`) or under it.
  bool error_under(Layer layer, const std::string& path) const;
  bool error_at(Layer layer, const std::string& path) const;
  bool reported_under(Layer layer, const std::string& path) const;
};

// Whether `key` is in `list` (a constexpr array of names).
bool is_one_of(std::string_view key, const auto& list) {
  return std::find(std::begin(list), std::end(list), key) != std::end(list);
}

// Client-side rules of the other SDK are warnings (SPEC §1.3).
void apply_client(Diagnostic& d, Client client);

// request_layers.cpp — N-LAYER: shape and validate each layer; merge them into m.fields.
bool prepare_layers(RequestCompiler& c);
void merge_layers(RequestCompiler& c);
// request_placement.cpp — N-PL
void read_placement(RequestCompiler& c);
// request_resources.cpp — N-RES, R-GPU-3/11
void read_resources(RequestCompiler& c);
// request_fields.cpp — the other families: what the check rules read, and the rules on the
// request alone (R-ANN-3/4, R-TIME-1/3/5, R-VOL-1/2/5, R-NET syntax, R-IMG/R-SEC reading, R-MISC)
void read_annotations(RequestCompiler& c);
void read_lifetime(RequestCompiler& c);
void read_volumes(RequestCompiler& c);
void read_network(RequestCompiler& c);
void read_image_security(RequestCompiler& c);
void check_misc(RequestCompiler& c);

// The checks a constructor of cwsandbox makes on one value, for the values the request replaced
// (replaced_defaults.cpp) as for the ones it sends. `sent` false: the value never reaches the
// server, so the server's own rules on it are left out.
void check_data_plane_mode(RequestCompiler& c, const Cursor& at);             // request_misc.cpp
void check_storage_permission(RequestCompiler& c, const Cursor& at);          // request_misc.cpp
void check_service(RequestCompiler& c, const Cursor& s, bool sent);           // request_misc.cpp
void check_secret_fields(RequestCompiler& c, const Cursor& s, bool sent);     // request_misc.cpp
void check_container(RequestCompiler& c, const Cursor& ct, Cursor& named);    // request_misc.cpp
void check_spillover(RequestCompiler& c, const Cursor& at);                   // request_placement.cpp
void check_client_timeout(RequestCompiler& c, std::string_view key, const Cursor& at);  // request_fields.cpp
void check_network_options(RequestCompiler& c, const Cursor& net);            // request_network.cpp
void check_built_volume(RequestCompiler& c, const Cursor& v, std::string_view default_name);  // request_volumes.cpp
void check_built_mounts(RequestCompiler& c, const Cursor& container);         // request_volumes.cpp

}  // namespace sandgate::model
