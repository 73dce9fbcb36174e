// The typed, compiled form of a runner policy: every field the rules read, with where it was
// written (input pointer and line:col) so a diagnostic about the request can also name the policy
// line that caused it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sandgate/node.h"
#include "sandgate/quantity.h"
#include "model/cursor.h"
#include "model/envelope.h"
#include "model/input_pointer.h"
#include "util/image.h"
#include "util/net.h"
#include "util/prefix_set.h"

namespace sandgate::model {

// Where a value was written: its JSON Pointer in its input (as the input spelled it), its
// line:col for text, its key's line:col when it is an object member, and for request values the
// layer it came from.
struct Origin {
  InputPointer path;  // input pointer
  Mark mark;          // the value's position (its key's when the value has none)
  Mark key_mark;      // the key's position, when the value is an object member
  Layer layer = Layer::sandbox;
};

// The origin of a cursor's value. Its pointer is deferred (input_pointer.h) when the cursor walks
// a tree its compiled model owns (Cursor::model_owned), else written out now.
inline Origin origin_of(const Cursor& c) {
  Mark key_mark = c.member ? c.member->key_mark : Mark{};
  if (c.model_owned) return {InputPointer::deferred(c.base, c.steps.data(), c.steps.size()), c.mark(), key_mark, c.layer};
  return {c.path(), c.mark(), key_mark, c.layer};
}

struct PolicyQuantity {
  std::string text;
  std::optional<Quantity> value;  // nullopt when absent or unparsable
  Origin origin;
  bool present() const { return !text.empty() || origin.mark.known() || !origin.path.empty(); }
};

struct PortRange {
  std::string protocol = "TCP";
  std::int64_t port = 0;
  std::int64_t end_port = 0;  // 0 = single port
};

// A rule's ports for containment (R-NET): per protocol, disjoint and sorted, merged once when the
// rule is compiled. `all` means every port (no ports listed).
struct PortSpans {
  struct Span {
    std::uint8_t protocol;  // 0 TCP, 1 UDP, 2 SCTP, 3 other
    std::int64_t lo, hi;
  };
  bool all = true;
  std::vector<Span> spans;
  // Whether every port of `inner` is among these.
  bool covers(const PortSpans& inner) const;
  static PortSpans of(const std::vector<PortRange>& ports, bool https_default);
};

enum class PeerKind { none, cidr, hostname, tenant, any, selector };

struct NetRule {
  std::vector<PeerKind> peers;  // every peer the rule sets (exactly one when valid)
  std::string cidr;
  std::optional<Prefix> prefix;  // parsed cidr
  PrefixProblem cidr_problem = PrefixProblem::none;  // of a string cidr (P-9 reports it)
  std::vector<Prefix> except;
  std::vector<std::string> except_text;
  std::vector<PrefixProblem> except_problems;  // one per except_text entry
  std::string hostname;  // lowercased
  std::string tenant;
  bool any = false;
  bool any_set = false;
  std::map<std::string, std::string> pod_labels;
  std::map<std::string, std::string> namespace_labels;
  bool has_namespace_labels = false;
  std::vector<PortRange> ports;
  PortSpans spans;  // ports as the rule matches them (HTTPS grants default to TCP 443)
  std::vector<std::string> hostname_except;  // lowercased
  Origin origin;
  PeerKind kind() const { return peers.size() == 1 ? peers[0] : PeerKind::none; }
};

// A value of the policy's base pod spec that the rules read, with where it is written.
struct BaseAnnotation {
  std::string key, value;
  Origin origin;
};
struct BaseImage {
  ImageRef image;
  Origin origin;
};

struct PolicyModel {
  bool is_null = false;
  std::string display_name;
  const Node* base = nullptr;  // the `base` object, when present
  Origin base_origin;

  // constraints.resources
  PolicyQuantity max_cpu, max_memory, min_cpu, min_memory, default_cpu, default_memory, cpu_ceiling, memory_ceiling;
  std::optional<std::int64_t> max_gpu_count;
  Origin max_gpu_count_origin;
  bool require_limits = false;
  Origin require_limits_origin;

  // constraints.image
  std::vector<std::string> allowed_registries, allowed_images;
  std::vector<std::string> registry_prefixes;  // allowed_registries as repository prefixes
  std::vector<ImageRef> image_entries;          // allowed_images, parsed
  // The same, indexed: prefixes sorted (a repository is one of them, or lies under "<prefix>/"),
  // images sorted by repository.
  std::vector<std::string> registry_sorted;
  PrefixSet registry_children;  // each prefix + "/"
  std::vector<ImageRef> images_sorted;
  bool registry_allows(std::string_view repository) const;
  bool image_allows(const ImageRef& image) const;
  Origin allowed_registries_origin, allowed_images_origin;

  // constraints.network
  std::vector<NetRule> allowed_egress, default_egress, allowed_ingress, default_ingress;
  EnvelopeIndex egress_envelope, ingress_envelope;  // allowed_egress and allowed_ingress, indexed
  Origin allowed_egress_origin, allowed_ingress_origin;
  bool deny_hostname_rules = false;
  Origin deny_hostname_rules_origin;

  // constraints.security
  bool allow_privileged = false;
  std::vector<std::string> allowed_capabilities, allowed_seccomp_profiles, allowed_runtime_classes;
  std::vector<std::string> capability_names;  // allowed_capabilities upper case without CAP_, sorted
  std::vector<std::string> seccomp_sorted;    // allowed_seccomp_profiles, sorted
  Origin allow_privileged_origin, allowed_capabilities_origin, allowed_seccomp_profiles_origin,
      allowed_runtime_classes_origin;
  std::string default_cpu_runtime_class, default_gpu_runtime_class;
  Origin default_cpu_runtime_class_origin, default_gpu_runtime_class_origin;

  // constraints.instance, lifecycle, metadata, volumes
  std::vector<std::string> allowed_instance_types;
  Origin allowed_instance_types_origin;
  std::int64_t default_lifetime_seconds = 0;
  Origin default_lifetime_seconds_origin;
  std::vector<std::string> denied_annotation_prefixes;
  std::vector<Origin> denied_annotation_prefix_origins;  // one per entry
  PrefixSet denied_prefix_set;  // the same, for matching keys (R-ANN-2); index into the lists above
  std::int64_t max_annotation_count = 0;
  Origin max_annotation_count_origin;
  std::vector<std::string> allowed_media;  // STORAGE_MEDIUM_*
  Origin allowed_media_origin;
  bool allows_disk = true, allows_memory = true;  // allowed_media, read once (unset allows both)
  PolicyQuantity max_size;

  // base conveniences
  std::string scheduler_name;  // base.spec.schedulerName
  Origin scheduler_name_origin;
  std::vector<BaseAnnotation> base_annotations;  // base.metadata.annotations (string values), sorted by key
  const BaseAnnotation* base_annotation(std::string_view key) const;
  std::vector<BaseImage> base_images;            // base.spec.containers[*].image
  std::optional<Quantity> base_cpu_requests, base_memory_requests;  // summed over base containers
};

// Reads one egress/ingress rule object of a policy or a sandbox.
NetRule read_net_rule(const Cursor& rule);

}  // namespace sandgate::model
