// R-ANN (SPEC §6.1): client annotations are checked against the policy (denied prefixes, count),
// then merged under the policy's base annotations, which win; the merged set must fit Kubernetes'
// limit and carry valid SUNK values. The key syntax (R-ANN-3) was checked when the request was
// compiled, so a malformed key never reaches the prefix comparison.
#include <algorithm>

#include "engine/rules.h"

namespace sandgate::engine {
namespace {

constexpr std::string_view k_sunk_prefix = "sunk.coreweave.com/";

bool starts_with(std::string_view s, std::string_view prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

// A Linux UID/GID in decimal: 0..4294967294 ((uid_t)-1 means "no id" and is never a real one).
bool all_digits(std::string_view s) {
  if (s.empty() || s.size() > 10 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  std::uint64_t v = 0;
  for (char c : s) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  return v <= 4294967294ULL;
}

// A client annotation that reaches the pod: a string value under a non-empty key the base does not pin.
bool reaches_pod(const model::Annotation& a, const model::PolicyModel& pm) { return a.string_value && !pm.base_annotation(a.key); }

// R-ANN-7 on one resolved annotation; `at` is where it is written (request or policy).
void check_sunk_value(std::string_view key, std::string_view value, FindingPlace at, bool gpu, Findings& f) {
  std::string_view name = key.substr(k_sunk_prefix.size());
  auto report = [&](std::int64_t problem) {
    Finding& found = f.add(Code::SUNK_ANNOTATION_INVALID, at, [](const FindingContext&, const Finding& x, std::string& m, std::string& h) {
      std::string k(x.s[0]), v(x.s[1]);
      switch (x.n[0]) {
        case 0: {
          bool user = k.size() >= 7 && k.compare(k.size() - 7, 7, "user-id") == 0;
          m = k + " is \"" + v + "\", but Slurm needs a numeric Linux " + (user ? "UID" : "GID") + " (0..4294967294)";
          h = "use the number (id -u on a login node), e.g. \"1000\", not a user name";
          break;
        }
        case 1:
          m = "sunk.coreweave.com/exclusive is \"" + v + "\"; Slurm accepts none, user or ok";
          h = "use \"none\", \"user\" or \"ok\"";
          break;
        default:
          m = "sunk.coreweave.com/exclusive \"ok\" must not be used on GPU pods";
          h = "use \"none\" or \"user\"";
      }
    });
    found.s[0] = key;
    found.s[1] = value;
    found.n[0] = problem;
  };
  if ((name == "user-id" || name == "group-id") && !all_digits(value)) report(0);
  if (name == "exclusive") {
    if (value != "none" && value != "user" && value != "ok") {
      report(1);
    } else if (value == "ok" && gpu) {
      report(2);
    }
  }
}

}  // namespace

void check_annotations(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f) {
  const auto& annotations = in.request.annotations;
  for (const auto& a : annotations) {
    if (!a.key_ok) continue;
    // R-ANN-2: a plain, case-sensitive starts_with on the key exactly as given, against the
    // prefixes sorted once (nested prefixes: the shortest is named).
    if (auto match = pm.denied_prefix_set.find(a.key)) {
      std::size_t i = match->index;
      std::string_view prefix = match->prefix;
      Finding& found = f.add(Code::ANNOTATION_DENIED_PREFIX, in_request_key(a.origin), [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
        const auto* ann = static_cast<const model::Annotation*>(x.p[0]);
        std::string denied(x.s[0]);
        m = "annotation key \"" + ann->key + "\" starts with the denied prefix \"" + denied + "\"";
        h = cx.policy.base_annotation(ann->key) ? "the policy pins this key itself; remove it from the request"
                                                : "remove it; the runner's policy does not let sandboxes set " + denied + "* annotations";
      });
      found.p[0] = &a;
      found.s[0] = prefix;
      relate_policy(found, pm.denied_annotation_prefix_origins[i], "the prefix is denied here");
    }
  }
  // R-ANN-4: the policy's count applies to the client's annotations.
  if (pm.max_annotation_count > 0 && static_cast<std::int64_t>(annotations.size()) > pm.max_annotation_count) {
    Finding& found = f.add(Code::ANNOTATION_COUNT, in_request_or_root(in.request.annotations_at), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
      m = std::to_string(cx.request.annotations.size()) + " annotations, more than the policy's max_annotation_count " +
          std::to_string(cx.policy.max_annotation_count);
      h = "drop some annotations";
    });
    relate_policy(found, pm.max_annotation_count_origin, "the limit is set here");
  }

  // R-ANN-1: client ∪ base, the policy's value winning on the same key.
  for (const auto& a : in.request.annotations) {
    if (!a.string_value) continue;
    const model::BaseAnnotation* b = pm.base_annotation(a.key);
    if (!b || b->value == a.value) continue;
    Finding& found = f.add(Code::ANNOTATION_OVERRIDDEN, in_request_key(a.origin), [](const FindingContext&, const Finding& x, std::string& m, std::string& h) {
      const auto* client = static_cast<const model::Annotation*>(x.p[0]);
      const auto* base = static_cast<const model::BaseAnnotation*>(x.p[1]);
      m = "annotation \"" + client->key + "\" is pinned by the policy: the sandbox gets \"" + base->value + "\", not \"" + client->value + "\"";
      h = "remove it from the request";
    });
    found.p[0] = &a;
    found.p[1] = b;
    relate_policy(found, b->origin, "the policy pins it here");
  }

  // R-ANN-7: SUNK keys must be values Slurm accepts; group-id follows user-id.
  bool gpu = in.request.gpu() != nullptr;
  bool uid = false, gid = false;
  std::size_t total = 0;
  for (const auto& a : annotations) {
    if (!reaches_pod(a, pm)) continue;
    total += a.key.size() + a.value.size();
    if (!starts_with(a.key, k_sunk_prefix)) continue;
    check_sunk_value(a.key, a.value, in_request(a.origin), gpu, f);
    uid = uid || a.key == "sunk.coreweave.com/user-id";
    gid = gid || a.key == "sunk.coreweave.com/group-id";
  }
  std::string_view uid_value;
  for (const auto& b : pm.base_annotations) {
    total += b.key.size() + b.value.size();
    if (!starts_with(b.key, k_sunk_prefix)) continue;
    check_sunk_value(b.key, b.value, in_policy(b.origin), gpu, f);
    uid = uid || b.key == "sunk.coreweave.com/user-id";
    gid = gid || b.key == "sunk.coreweave.com/group-id";
  }
  res.group_id_from_user_id = uid && !gid;
  if (res.group_id_from_user_id) {
    const model::BaseAnnotation* b = pm.base_annotation("sunk.coreweave.com/user-id");
    if (b) {
      uid_value = b->value;
    } else {
      for (const auto& a : annotations) {
        if (a.key == "sunk.coreweave.com/user-id" && a.string_value) uid_value = a.value;
      }
    }
    total += std::string_view("sunk.coreweave.com/group-id").size() + uid_value.size();
  }

  // R-ANN-5: the resolved annotations must fit Kubernetes' 256 KiB.
  if (total > 256 * 1024) {
    Finding& found = f.add(Code::ANNOTATIONS_TOO_LARGE, in_request_or_root(in.request.annotations_at), [](const FindingContext&, const Finding& x, std::string& m, std::string& h) {
      m = "the resolved annotations hold " + std::to_string(x.n[0]) + " bytes of keys and values, more than Kubernetes' 262144";
      h = "move large data to mounted files";
    });
    found.n[0] = static_cast<std::int64_t>(total);
  }
}

std::vector<ResolvedAnnotation> resolved_annotations(const model::RequestModel& req, const model::PolicyModel& pm, const Resolution& res) {
  std::vector<ResolvedAnnotation> out;
  const std::size_t most = req.annotations.size() + pm.base_annotations.size();
  if (most == 0) return out;
  out.reserve(most + 1);  // + the group-id SUNK derives
  // The base entries a client key names, by index: base_annotation finds them in the sorted base,
  // so no set of the client's keys is built (this runs for every message, slurm mapping and
  // resolved request that lists the annotations).
  std::vector<bool> pinned_by_client(pm.base_annotations.size());
  for (const auto& a : req.annotations) {
    if (!a.string_value) continue;
    const model::BaseAnnotation* b = pm.base_annotation(a.key);
    if (b) pinned_by_client[static_cast<std::size_t>(b - pm.base_annotations.data())] = true;
    out.push_back({a.key, b ? std::string_view(b->value) : std::string_view(a.value), &a, b, false});
  }
  for (std::size_t i = 0; i < pm.base_annotations.size(); ++i) {
    const model::BaseAnnotation& b = pm.base_annotations[i];
    if (!pinned_by_client[i]) out.push_back({b.key, b.value, nullptr, &b, false});
  }
  if (res.group_id_from_user_id) {
    for (const auto& r : out) {
      if (r.key == "sunk.coreweave.com/user-id") {
        out.push_back({"sunk.coreweave.com/group-id", r.value, nullptr, nullptr, true});
        break;
      }
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> slurm_job_parameters(const model::RequestModel& req, const model::PolicyModel& pm,
                                                                      const Resolution& res) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& a : resolved_annotations(req, pm, res)) {
    if (!starts_with(a.key, k_sunk_prefix)) continue;
    if (out.empty()) out.reserve(4);  // partition, account, user-id, group-id: the usual few
    out.emplace_back(std::string(a.key.substr(k_sunk_prefix.size())), std::string(a.value));
  }
  return out;
}

}  // namespace sandgate::engine
