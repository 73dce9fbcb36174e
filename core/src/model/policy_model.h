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
#include "util/net.h"
#include "util/prefix_set.h"

namespace sandgate::model {

struct Origin {
  std::string path;  // input pointer
  Mark mark;
};

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

enum class PeerKind { none, cidr, hostname, tenant, any, selector };

struct NetRule {
  std::vector<PeerKind> peers;  // every peer the rule sets (exactly one when valid)
  std::string cidr;
  std::optional<Prefix> prefix;  // parsed cidr
  std::vector<Prefix> except;
  std::vector<std::string> except_text;
  std::string hostname;  // lowercased
  std::string tenant;
  bool any = false;
  bool any_set = false;
  std::map<std::string, std::string> pod_labels;
  std::map<std::string, std::string> namespace_labels;
  bool has_namespace_labels = false;
  std::vector<PortRange> ports;
  std::vector<std::string> hostname_except;
  Origin origin;
  PeerKind kind() const { return peers.size() == 1 ? peers[0] : PeerKind::none; }
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

  // constraints.image
  std::vector<std::string> allowed_registries, allowed_images;

  // constraints.network
  std::vector<NetRule> allowed_egress, default_egress, allowed_ingress, default_ingress;
  bool deny_hostname_rules = false;
  std::string dns_egress;

  // constraints.security
  bool allow_privileged = false;
  std::vector<std::string> allowed_capabilities, allowed_seccomp_profiles, allowed_runtime_classes;
  std::string default_cpu_runtime_class, default_gpu_runtime_class;
  Origin default_cpu_runtime_class_origin, default_gpu_runtime_class_origin;

  // constraints.instance, lifecycle, metadata, volumes
  std::vector<std::string> allowed_instance_types;
  std::int64_t default_lifetime_seconds = 0;
  std::vector<std::string> denied_annotation_prefixes;
  PrefixSet denied_prefix_set;  // the same, for matching keys (R-ANN-2); index into the list above
  std::int64_t max_annotation_count = 0;
  std::vector<std::string> allowed_media;  // STORAGE_MEDIUM_*
  PolicyQuantity max_size;

  // control_plane_access
  bool has_source_ip_allowlist = false;
  std::vector<std::string> source_ip_cidrs;

  // base conveniences
  std::string scheduler_name;  // base.spec.schedulerName
  std::map<std::string, std::string> base_annotations;  // base.metadata.annotations (string values)
};

// Reads one egress/ingress rule object of a policy or a sandbox.
NetRule read_net_rule(const Cursor& rule);

}  // namespace sandgate::model
