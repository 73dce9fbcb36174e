// The typed, compiled form of a sandbox request (the twin of PolicyModel): every value the check
// rules read, typed, with the Origin it was written at — its layer, its JSON Pointer in that
// layer's input (as the input spelled it) and, for text, its line:col.
//
// Compiling reads the layers once (spelling, schema, N-LAYER, N-RES, N-PL) and also runs the rules
// that look at the request alone (value syntax, uniqueness, the SDKs' client rules), whose
// diagnostics belong to the request whatever policy it meets. What remains for `check` are the
// rules that need a policy, the runners or the organisation, and they read only this model.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/policy_model.h"
#include "sandgate/node.h"
#include "sandgate/quantity.h"
#include "sandgate/request.h"
#include "sandgate/resolution.h"
#include "util/image.h"

namespace sandgate::model {

enum class Medium : std::uint8_t { disk, memory };

// A string value of the request.
struct Text {
  std::string value;
  Origin origin;
  bool set = false;
  explicit operator bool() const { return set; }
};

// A quantity the client wrote (SDK grammar), exact.
struct QuantityValue {
  std::string text;  // as written
  Quantity value;
  Origin origin;
};

struct GpuRequest {
  std::int64_t count = 0;
  std::string type;            // "" when not requested
  std::int64_t memory_gb = 0;  // 0 when not requested
  Origin at;                   // the gpu value
  std::optional<Origin> count_at, type_at, memory_at;
  const Origin& count_or_gpu() const { return count_at ? *count_at : at; }
  const Origin& type_or_gpu() const { return type_at ? *type_at : at; }
  const Origin& memory_or_gpu() const { return memory_at ? *memory_at : at; }
};

struct SecurityContext {
  bool present = false;
  std::optional<Origin> privileged_at;  // set when privileged is true
  struct Capability {
    std::string display;     // as written, quoted for messages
    std::string normalized;  // upper case without CAP_
    Origin at;
  };
  std::vector<Capability> capabilities_add;
  Text seccomp_profile;  // set when non-empty
};

// One container's resources after N-RES (before the policy's defaults), and what R-IMG and R-SEC
// read of it in the multi-container form.
struct Container {
  Container() {}  // NOLINT(modernize-use-equals-default): see MergedField

  std::string name;  // "main" in the single-container form
  bool primary = true;
  Origin at;                           // the container object, or the request's root
  std::optional<Origin> resources_at;  // the resources value, when given
  std::optional<QuantityValue> req_cpu, req_mem, lim_cpu, lim_mem;  // one-sided forms are copied
  bool client_cpu = false, client_mem = false;  // the client gave the dimension on at least one side
  bool req_cpu_written = false, req_mem_written = false;  // the requests side has text (maybe invalid)
  bool invalid = false;                          // N-RES errors: the policy checks that need values are skipped
  std::optional<GpuRequest> gpu;                 // a GPU the SDK sends (count ≥ 1)
  std::optional<ImageRef> image;                 // multi-container form
  std::optional<Origin> image_at;
  SecurityContext security;  // multi-container form
  const Origin& where() const { return resources_at ? *resources_at : at; }
};

struct Annotation {
  std::string key;
  std::string value;
  Origin origin;              // the value; key_mark is the key's position
  bool key_ok = true;         // a well-formed key (R-ANN-3): R-ANN-2 compares it with the denied prefixes
  bool string_value = true;   // a string value under a non-empty key: it reaches the pod (R-ANN-1)
};

// A sandbox's declared egress/ingress rule that is well formed (R-NET), parsed once.
struct DeclaredRule {
  NetRule rule;  // exactly one peer
  Origin at;
  std::size_t index = 0;  // in the declared list
  std::optional<Origin> dns_at;
};

struct Volume {
  std::string name;
  Origin at;
  Medium medium = Medium::disk;
  std::optional<Origin> medium_at;
  enum class Size : std::uint8_t { none, absolute, percent, invalid } size = Size::none;
  std::optional<Origin> size_at;
  std::string size_text;
  Quantity absolute;          // Size::absolute
  std::uint32_t percent = 0;  // Size::percent (1..100)
  std::vector<std::size_t> containers;  // the containers it is mounted on (R-VOL-3)
  const Origin& size_or_volume() const { return size_at ? *size_at : at; }
};

// One top-level member of the merged request, kept for the resolved output.
struct MergedField {
  // User-provided constructors here and on Container: value-initialization (emplace_back())
  // would zero the whole object with `rep stos` before the members' own initializers run — half
  // of merging a field, and most of placing a 2.9 KB Container, under perf.
  MergedField() {}  // NOLINT(modernize-use-equals-default)

  Member member;  // canonical keys; original_key keeps the input spelling of the layer that set it
  Origin origin;  // the layer that set it (a map merged by key: the first), and its key there
  // Maps merged by key and lists concatenated over layers: the origin of each entry or item.
  std::vector<Origin> parts;
  const std::string& key() const { return member.key; }
  const Node& value() const { return member.value; }
};

struct RequestModel {
  Client client = Client::python;
  std::array<std::string, 3> files;  // per layer, for diagnostics' source
  Origin root;                       // the request as a whole (the sandbox layer's root)

  // N-PL
  PlacementMode mode = PlacementMode::serverless;
  bool mode_explicit = false;
  ModeSource mode_from = ModeSource::platform;
  std::optional<Origin> mode_at;  // placement_mode, when written
  std::vector<Text> runner_ids;   // valid and unique, in order
  std::optional<Origin> runner_ids_at;

  // N-RES
  std::vector<Container> containers;  // never empty once compiled
  bool multi_container = false;
  bool from_template = false;  // template_id is set: the template supplies what the call leaves out
  std::optional<Origin> containers_at, resources_at;

  // R-ANN (client annotations, merged over the layers)
  std::vector<Annotation> annotations;
  std::optional<Origin> annotations_at;

  // R-TIME
  std::optional<std::int64_t> lifetime;  // explicit, in range and > 0
  std::optional<Origin> lifetime_at;
  // max_timeout_seconds: unset (the platform's 30), a value, clamped to 300, below 1 (kept as
  // written), rejected by the schema (the platform's 30), or not an integer (not resolved).
  enum class Timeout : std::uint8_t { unset, value, clamped, out_of_range, rejected, invalid } timeout = Timeout::unset;
  std::int64_t timeout_value = 0;  // Timeout::value and out_of_range: as written
  std::optional<Origin> timeout_at;
  std::optional<double> operation_timeout;  // timeout_seconds
  std::string operation_timeout_text;
  std::optional<Origin> operation_timeout_at;

  // R-RC
  Text runtime_class;  // a pin (non-empty)

  // R-NET
  bool network_present = false;
  bool deny_egress = false, deny_ingress = false;
  std::size_t egress_count = 0, ingress_count = 0;
  std::vector<DeclaredRule> egress, ingress;  // well-formed declared rules

  // R-IMG, R-SEC, R-INST (single-container form; containers carry their own)
  std::optional<ImageRef> image;  // nullopt: no image to check (see image_default)
  bool image_default = true;      // container_image not given: the SDK's default image applies
  std::optional<Origin> image_at;
  SecurityContext security;
  Text instance_type;

  // R-VOL
  std::vector<Volume> volumes;
  std::optional<Origin> volumes_at;
  bool snapshot_storage = false;  // file_system_snapshot or a restored volume: SUNK grace 300 s

  // The merged request, for the resolved output (fields in merge order).
  std::vector<MergedField> fields;
  const MergedField* field(std::string_view key) const;
  // Set once `fields` is final (merge_layers): one bit per key's hash. Most lookups ask for a
  // field the request does not set (a request sets a handful of some forty), and the bits answer
  // those without comparing a key.
  void index_fields();

  // The first container with a GPU the SDK sends, or null.
  const Container* gpu_container() const;
  const GpuRequest* gpu() const;
  bool any_invalid() const;

 private:
  std::uint64_t field_bits_ = 0;
  static std::uint64_t field_bit(std::string_view key) {
    return key.empty() ? 1 : std::uint64_t{1} << ((key.size() * 7 + static_cast<unsigned char>(key.front()) +
                                                   static_cast<unsigned char>(key.back()) * 3) & 63);
  }
};

}  // namespace sandgate::model
