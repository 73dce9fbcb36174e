// R-IMG, R-SEC, R-INST (SPEC §6.7; reference policy model §1.4, §1.7, §1.8).
#include <algorithm>
#include <functional>

#include "engine/rules.h"

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

// Segment-aware prefix: "ghcr.io/acme" holds "ghcr.io/acme/x" but not "ghcr.io/acme-evil/x".
bool in_registry(const std::string& repository, std::string prefix) {
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  if (prefix.empty()) return false;
  if (prefix.find('/') == std::string::npos && prefix.find('.') == std::string::npos && prefix != "localhost") {
    prefix = "docker.io/" + prefix;  // "library" or an org on Docker Hub
  }
  return repository == prefix || (repository.size() > prefix.size() && repository.compare(0, prefix.size(), prefix) == 0 &&
                                  repository[prefix.size()] == '/');
}

bool image_allowed(const ImageRef& img, const std::string& entry) {
  ImageRef e = parse_image(entry);
  if (e.repository != img.repository) return false;
  if (!e.digest.empty()) return e.digest == img.digest;
  // An untagged, undigested reference is the :latest tag.
  if (!e.tag.empty()) return e.tag == (img.tag.empty() && img.digest.empty() ? std::string("latest") : img.tag);
  return true;
}

std::string upper_cap(std::string s) {
  for (auto& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  if (s.rfind("CAP_", 0) == 0) s = s.substr(4);
  return s;
}

void check_image(Context& ctx, const std::string& image, const std::function<void(std::string, std::string)>& report) {
  const auto& pm = *ctx.pm;
  if (image.empty() || (pm.allowed_registries.empty() && pm.allowed_images.empty())) return;
  ImageRef ref = parse_image(image);
  if (!pm.allowed_registries.empty() &&
      std::none_of(pm.allowed_registries.begin(), pm.allowed_registries.end(), [&](const std::string& p) { return in_registry(ref.repository, p); })) {
    std::string list;
    for (const auto& r : pm.allowed_registries) list += (list.empty() ? "" : ", ") + r;
    report("image \"" + image + "\" (" + ref.repository + ") is not from an allowed registry (" + list + ")",
           "use an image from an allowed registry");
    return;
  }
  if (!pm.allowed_images.empty() &&
      std::none_of(pm.allowed_images.begin(), pm.allowed_images.end(), [&](const std::string& e) { return image_allowed(ref, e); })) {
    report("image \"" + image + "\" is not in the policy's allowed_images", "use one of the allowed images");
  }
}

void check_security_context(Context& ctx, const Cursor& sc) {
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
    bool ok = std::any_of(pm.allowed_capabilities.begin(), pm.allowed_capabilities.end(),
                          [&](const std::string& a) { return upper_cap(a) == want; });
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
    bool ok = allowed.empty() ? v == "RuntimeDefault" : std::find(allowed.begin(), allowed.end(), v) != allowed.end();
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
  // R-IMG: every container's image, including the SDK default when none is set.
  Cursor containers = root["containers"];
  if (containers && containers.node->is_array()) {
    for (std::size_t i = 0; i < containers.size(); ++i) {
      Cursor img = containers.at(i)["image"];
      check_image(ctx, img.str(), [&](std::string m, std::string h) { ctx.report(Code::IMAGE_NOT_ALLOWED, img, std::move(m), std::move(h)); });
      check_security_context(ctx, containers.at(i)["security_context"]);
    }
  } else {
    Cursor img = root["container_image"];
    std::string image = img ? img.str() : std::string("python:3.11");
    check_image(ctx, image, [&](std::string m, std::string h) {
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
      check_image(ctx, img.str(), [&](std::string m, std::string h) {
        ctx.report_policy(Code::IMAGE_NOT_ALLOWED, {img.path, img.mark()}, "the policy's own base container: " + m, std::move(h));
      });
    }
  }
  // R-SEC
  check_security_context(ctx, root["security_context"]);
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
