// R-IMG, R-SEC, R-INST (SPEC §6.7; reference policy model §1.4, §1.7, §1.8).
#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "engine/rules.h"
#include "util/prefix_set.h"

namespace sandgate::engine {
namespace {

struct ImageRef {
  std::string repository;  // registry/path, e.g. docker.io/library/python
  std::string tag;         // "" when none
  std::string digest;      // "" when none
};

// Docker's normalisation: no registry host → docker.io; one path component on Docker Hub →
// library/<name>; default tag is not added (an allowlist entry without a tag matches any tag).
ImageRef parse_image(std::string_view ref) {
  ImageRef out;
  if (auto at = ref.find('@'); at != std::string_view::npos) {
    out.digest = std::string(ref.substr(at + 1));
    ref = ref.substr(0, at);
  }
  auto slash = ref.rfind('/');
  auto colon = ref.rfind(':');
  if (colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    out.tag = std::string(ref.substr(colon + 1));
    ref = ref.substr(0, colon);
  }
  std::string_view first = ref.substr(0, ref.find('/'));
  bool has_registry = ref.find('/') != std::string_view::npos &&
                      (first.find('.') != std::string_view::npos || first.find(':') != std::string_view::npos || first == "localhost");
  std::string repo = has_registry ? std::string(ref) : "docker.io/" + std::string(ref);
  if (repo.rfind("index.docker.io/", 0) == 0) repo = "docker.io/" + repo.substr(16);  // before adding library/
  if (repo.rfind("docker.io/", 0) == 0 && repo.find('/', 10) == std::string::npos) repo.insert(10, "library/");
  out.repository = repo;
  return out;
}

// A registry entry as a path prefix ending in '/': segment-aware, so "ghcr.io/acme" holds
// "ghcr.io/acme/x" but not "ghcr.io/acme-evil/x" ("" when the entry holds nothing).
std::string registry_prefix(std::string prefix) {
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  if (prefix.empty()) return {};
  if (prefix.find('/') == std::string::npos && prefix.find('.') == std::string::npos && prefix != "localhost") {
    prefix = "docker.io/" + prefix;  // "library" or an org on Docker Hub
  }
  return prefix + "/";
}

// The policy's image lists, indexed once per check: each container's image is then one lookup,
// not a pass over every entry (containers × allowed_registries / allowed_images).
struct ImageAllowlist {
  PrefixSet registries;  // registry_prefix() of each entry; a repository + "/" must start with one
  std::string registry_list;  // for messages: the first entries, then how many more
  struct Repository {
    bool any_tag = false;  // an entry without tag or digest allows every tag
    std::unordered_set<std::string> tags, digests;
  };
  std::unordered_map<std::string, Repository> images;

  explicit ImageAllowlist(const model::PolicyModel& pm) {
    std::vector<std::string> prefixes;
    for (const auto& r : pm.allowed_registries) {
      if (std::string p = registry_prefix(r); !p.empty()) prefixes.push_back(std::move(p));
    }
    registries = PrefixSet(prefixes);
    constexpr std::size_t k_listed = 10;
    for (std::size_t i = 0; i < pm.allowed_registries.size() && i < k_listed; ++i) {
      registry_list += (registry_list.empty() ? "" : ", ") + pm.allowed_registries[i];
    }
    if (pm.allowed_registries.size() > k_listed) {
      registry_list += " and " + std::to_string(pm.allowed_registries.size() - k_listed) + " more";
    }
    for (const auto& entry : pm.allowed_images) {
      ImageRef e = parse_image(entry);
      Repository& r = images[e.repository];
      if (!e.digest.empty()) {
        r.digests.insert(e.digest);
      } else if (!e.tag.empty()) {
        r.tags.insert(e.tag);
      } else {
        r.any_tag = true;
      }
    }
  }
  bool in_registry(const ImageRef& img) const { return registries.find(img.repository + "/").has_value(); }
  bool image_allowed(const ImageRef& img) const {
    auto it = images.find(img.repository);
    if (it == images.end()) return false;
    const Repository& r = it->second;
    // An untagged, undigested reference is the :latest tag.
    std::string tag = img.tag.empty() && img.digest.empty() ? std::string("latest") : img.tag;
    return r.any_tag || (!img.digest.empty() && r.digests.count(img.digest)) || (!tag.empty() && r.tags.count(tag));
  }
};

// The policy's capability and seccomp allowlists, hashed once per check.
struct SecurityAllowlist {
  std::unordered_set<std::string> capabilities;  // upper_cap() of each entry
  std::unordered_set<std::string_view> seccomp;
};

std::string upper_cap(std::string s) {
  for (auto& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  if (s.rfind("CAP_", 0) == 0) s = s.substr(4);
  return s;
}

void check_image(Context& ctx, const ImageAllowlist& allow, const std::string& image,
                 const std::function<void(std::string, std::string)>& report) {
  const auto& pm = *ctx.pm;
  if (image.empty() || (pm.allowed_registries.empty() && pm.allowed_images.empty())) return;
  ImageRef ref = parse_image(image);
  if (!pm.allowed_registries.empty() && !allow.in_registry(ref)) {
    report("image \"" + image + "\" (" + ref.repository + ") is not from an allowed registry (" + allow.registry_list + ")",
           "use an image from an allowed registry");
    return;
  }
  if (!pm.allowed_images.empty() && !allow.image_allowed(ref)) {
    report("image \"" + image + "\" is not in the policy's allowed_images", "use one of the allowed images");
  }
}

void check_security_context(Context& ctx, const SecurityAllowlist& allow, const Cursor& sc) {
  if (!sc || !sc.node->is_object()) return;
  const auto& pm = *ctx.pm;
  if (Cursor p = sc["privileged"]; p.boolean(false) && !pm.allow_privileged) {
    ctx.report(Code::SECURITY_NOT_ALLOWED, p, "privileged containers are not allowed by the policy (allow_privileged is false)",
               "drop privileged, or add the capabilities you need");
  }
  Cursor caps = sc["capabilities_add"];
  for (std::size_t i = 0; i < caps.size(); ++i) {
    Cursor cap = caps.at(i);
    std::string want = upper_cap(cap.str());
    bool ok = allow.capabilities.count(want) > 0;
    if (!ok) {
      ctx.report(Code::SECURITY_NOT_ALLOWED, cap,
                 "capability " + cap.node->display() + " is not in the policy's allowed_capabilities" +
                     (pm.allowed_capabilities.empty() ? " (empty: no capability may be added)" : ""),
                 "remove it from capabilities_add");
    }
  }
  if (Cursor sp = sc["seccomp_profile"]; sp && sp.node->is_string() && !sp.node->text.empty()) {
    const std::string& v = sp.node->text;
    const auto& allowed = pm.allowed_seccomp_profiles;
    bool ok = allowed.empty() ? v == "RuntimeDefault" : allow.seccomp.count(v) > 0;
    if (!ok) {
      ctx.report(Code::SECURITY_NOT_ALLOWED, sp,
                 "seccomp profile \"" + v + "\" is not allowed" + (allowed.empty() ? " (with no allowlist only RuntimeDefault is)" : ""),
                 "use RuntimeDefault or leave it unset");
    }
  }
}

}  // namespace

void check_image_security_instance(Context& ctx) {
  Cursor root = ctx.root();
  const ImageAllowlist images(*ctx.pm);
  SecurityAllowlist security;
  for (const auto& a : ctx.pm->allowed_capabilities) security.capabilities.insert(upper_cap(a));
  for (const auto& a : ctx.pm->allowed_seccomp_profiles) security.seccomp.insert(a);
  // R-IMG: every container's image, including the SDK default when none is set.
  Cursor containers = root["containers"];
  if (containers && containers.node->is_array()) {
    for (std::size_t i = 0; i < containers.size(); ++i) {
      Cursor img = containers.at(i)["image"];
      check_image(ctx, images, img.str(), [&](std::string m, std::string h) { ctx.report(Code::IMAGE_NOT_ALLOWED, img, std::move(m), std::move(h)); });
      check_security_context(ctx, security, containers.at(i)["security_context"]);
    }
  } else {
    Cursor img = root["container_image"];
    std::string image = img ? img.str() : std::string("python:3.11");
    check_image(ctx, images, image, [&](std::string m, std::string h) {
      if (img) {
        ctx.report(Code::IMAGE_NOT_ALLOWED, img, std::move(m), std::move(h));
      } else {
        ctx.report(Code::IMAGE_NOT_ALLOWED, root, std::move(m) + " (the SDK's default image)", "set container_image");
      }
    });
  }
  // Containers that the policy's base contributes are checked the same way.
  if (ctx.pm->base) {
    Cursor base{ctx.pm->base, nullptr, ctx.pm->base_origin.path};
    Cursor bc = base["spec"]["containers"];
    for (std::size_t i = 0; i < bc.size(); ++i) {
      Cursor img = bc.at(i)["image"];
      check_image(ctx, images, img.str(), [&](std::string m, std::string h) {
        ctx.report_policy(Code::IMAGE_NOT_ALLOWED, {img.path, img.mark()}, "the policy's own base container: " + m, std::move(h));
      });
    }
  }
  // R-SEC
  check_security_context(ctx, security, root["security_context"]);
  // R-INST
  if (Cursor it = root["instance_type"]; it && it.node->is_string() && !it.node->text.empty()) {
    const auto& allowed = ctx.pm->allowed_instance_types;
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), it.node->text) == allowed.end()) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      ctx.report(Code::INSTANCE_TYPE_NOT_ALLOWED, it, "instance_type \"" + it.node->text + "\" is not allowed (" + list + ")",
                 "pin an allowed instance type, or leave it unset");
    }
  }
}

}  // namespace sandgate::engine
