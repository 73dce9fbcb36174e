// R-IMG, R-SEC, R-INST (SPEC §6.7; reference policy model §1.4, §1.7, §1.8). Images were parsed
// when the request and the policy were compiled; matching compares strings only.
#include <algorithm>

#include "engine/rules.h"
#include "util/text.h"

namespace sandgate::engine {
namespace {

const ImageRef& sdk_default_image() {
  static const ImageRef image = parse_image("python:3.11");
  return image;
}

// n[0] of an image finding: why it is refused.
enum ImageProblem : std::int64_t { k_registry = 0, k_image = 1 };

void image_message(const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
  const auto* img = static_cast<const ImageRef*>(x.p[0]);
  if (x.n[0] == k_registry) {
    // A long allowlist is named by its first entries.
    constexpr std::size_t k_listed = 10;
    const auto& all = cx.policy.allowed_registries;
    std::string list;
    for (std::size_t i = 0; i < all.size() && i < k_listed; ++i) list += (list.empty() ? "" : ", ") + all[i];
    if (all.size() > k_listed) list += " and " + std::to_string(all.size() - k_listed) + " more";
    m = "image \"" + img->text + "\" (" + img->repository + ") is not from an allowed registry (" + list + ")";
    h = "use an image from an allowed registry";
  } else {
    m = "image \"" + img->text + "\" is not in the policy's allowed_images";
    h = "use one of the allowed images";
  }
}

// Whether the policy refuses `img`; sets the finding's reason and related place.
// The allowlists are indexed when the policy is compiled: a lookup per image, not a scan.
std::optional<ImageProblem> image_problem(const ImageRef& img, const model::PolicyModel& pm) {
  if (!pm.registry_prefixes.empty() && !pm.registry_allows(img.repository)) return k_registry;
  if (!pm.image_entries.empty() && !pm.image_allows(img)) return k_image;
  return std::nullopt;
}

Finding& report_image(Findings& f, FindingPlace at, const ImageRef& img, ImageProblem problem, const model::PolicyModel& pm,
                      FindingFormat format) {
  Finding& found = f.add(Code::IMAGE_NOT_ALLOWED, at, format);
  found.p[0] = &img;
  found.n[0] = problem;
  relate_policy(found, problem == k_registry ? pm.allowed_registries_origin : pm.allowed_images_origin, "the allowlist is set here");
  return found;
}

void check_image(const ImageRef& img, const model::Origin& at, const model::PolicyModel& pm, Findings& f) {
  if (auto problem = image_problem(img, pm)) report_image(f, in_request(at), img, *problem, pm, image_message);
}

void check_security_context(const model::SecurityContext& sc, const model::PolicyModel& pm, Findings& f) {
  if (!sc.present) return;
  if (sc.privileged_at && !pm.allow_privileged) {
    Finding& found = f.add(Code::SECURITY_NOT_ALLOWED, in_request(*sc.privileged_at), [](const FindingContext&, const Finding&, std::string& m, std::string& h) {
      m = "privileged containers are not allowed by the policy (allow_privileged is false)";
      h = "drop privileged, or add the capabilities you need";
    });
    relate_policy(found, pm.allow_privileged_origin, "allow_privileged is set here");
  }
  for (const auto& cap : sc.capabilities_add) {
    if (std::binary_search(pm.capability_names.begin(), pm.capability_names.end(), cap.normalized)) continue;
    Finding& found = f.add(Code::SECURITY_NOT_ALLOWED, in_request(cap.at), [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
      const auto* capability = static_cast<const model::SecurityContext::Capability*>(x.p[0]);
      m = "capability " + capability->display + " is not in the policy's allowed_capabilities" +
          (cx.policy.allowed_capabilities.empty() ? " (empty: no capability may be added)" : "");
      h = "remove it from capabilities_add";
    });
    found.p[0] = &cap;
    relate_policy(found, pm.allowed_capabilities_origin, "the allowed capabilities are listed here");
  }
  if (const model::Text& sp = sc.seccomp_profile) {
    const auto& allowed = pm.allowed_seccomp_profiles;
    bool ok = allowed.empty() ? sp.value == "RuntimeDefault" : std::binary_search(pm.seccomp_sorted.begin(), pm.seccomp_sorted.end(), sp.value);
    if (!ok) {
      Finding& found = f.add(Code::SECURITY_NOT_ALLOWED, in_request(sp.origin), [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
        const auto* profile = static_cast<const model::Text*>(x.p[0]);
        m = "seccomp profile \"" + profile->value + "\" is not allowed" +
            (cx.policy.allowed_seccomp_profiles.empty() ? " (with no allowlist only RuntimeDefault is)" : "");
        h = "use RuntimeDefault or leave it unset";
      });
      found.p[0] = &sp;
      relate_policy(found, pm.allowed_seccomp_profiles_origin, "the allowed profiles are listed here");
    }
  }
}

}  // namespace

void check_image_security_instance(const RuleInput& in, const model::PolicyModel& pm, Findings& f) {
  const model::RequestModel& req = in.request;
  bool allowlist = !pm.registry_prefixes.empty() || !pm.image_entries.empty();
  // R-IMG: every container's image, including the SDK default when none is set.
  if (req.multi_container) {
    for (const auto& c : req.containers) {
      if (allowlist && c.image) check_image(*c.image, *c.image_at, pm, f);
      check_security_context(c.security, pm, f);
    }
  } else if (allowlist && req.image) {
    check_image(*req.image, *req.image_at, pm, f);
  } else if (allowlist && req.image_default) {
    if (auto problem = image_problem(sdk_default_image(), pm)) {
      report_image(f, request_root(), sdk_default_image(), *problem, pm, [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
        image_message(cx, x, m, h);
        m += " (the SDK's default image)";
        h = "set container_image";
      });
    }
  }
  // Containers that the policy's base contributes are checked the same way.
  if (allowlist) {
    for (const auto& b : pm.base_images) {
      if (b.image.text.empty()) continue;
      if (auto problem = image_problem(b.image, pm)) {
        Finding& found = report_image(f, in_policy(b.origin), b.image, *problem, pm, [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
          image_message(cx, x, m, h);
          m = "the policy's own base container: " + m;
        });
        found.related = {};
        found.related_note = nullptr;
      }
    }
  }
  // R-SEC
  check_security_context(req.security, pm, f);
  // R-INST
  if (const model::Text& it = req.instance_type) {
    const auto& allowed = pm.allowed_instance_types;
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), it.value) == allowed.end()) {
      Finding& found = f.add(Code::INSTANCE_TYPE_NOT_ALLOWED, in_request(it.origin), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
        std::string list;
        for (const auto& a : cx.policy.allowed_instance_types) list += (list.empty() ? "" : ", ") + a;
        m = "instance_type \"" + cx.request.instance_type.value + "\" is not allowed (" + list + ")";
        std::string meant = nearest_allowed(cx.request.instance_type.value, cx.policy.allowed_instance_types);
        h = meant.empty() ? "pin an allowed instance type, or leave it unset" : "did you mean " + quoted(meant) + "? Or leave it unset";
      });
      relate_policy(found, pm.allowed_instance_types_origin, "the allowed instance types are listed here");
    }
  }
}

}  // namespace sandgate::engine
