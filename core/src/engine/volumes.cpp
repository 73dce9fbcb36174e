// R-VOL (SPEC §6.5): volume names and mount paths, memory-backed sizes (absolute or N% of the
// memory request), the 80 % rule per container, the policy's media and size limits, and mounted
// file paths.
#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <unordered_set>

#include "engine/rules.h"
#include "util/path_overlap.h"

namespace sandgate::engine {
namespace {

constexpr std::string_view k_reserved_roots[] = {"/proc", "/sys", "/dev", "/etc", "/var/run/secrets", "/shared/credentials"};

bool under(std::string_view path, std::string_view root) { return path_under(path, root); }

// The gateway's validateMountPathBase: "" when the path is fine, else why not.
std::string mount_path_problem(std::string_view p) {
  if (p.empty()) return "it is empty";
  if (p.size() > 256) return "it is longer than 256 characters";
  if (p.front() != '/') return "it is not absolute";
  if (p == "/") return "it is /";
  if (p.back() == '/') return "it ends with '/' (not canonical)";
  std::size_t start = 1;
  while (start <= p.size()) {
    auto slash = p.find('/', start);
    std::string_view seg = p.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (seg.empty()) return "it has an empty segment ('//'; not canonical)";
    if (seg == "." || seg == "..") return "it has a '" + std::string(seg) + "' segment (not canonical)";
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  for (auto root : k_reserved_roots) {
    if (under(p, root)) return "it is under the reserved directory " + std::string(root);
  }
  return {};
}

std::string sub_path_problem(std::string_view p) {
  if (p.empty()) return {};
  if (p.front() == '/') return "it starts with '/' (sub_path is relative)";
  std::size_t start = 0;
  while (start <= p.size()) {
    auto slash = p.find('/', start);
    std::string_view seg = p.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (seg.empty() || seg == "." || seg == "..") return "it has an empty, '.' or '..' segment (not canonical)";
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return {};
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

// "disk", "memory", "unspecified" or STORAGE_MEDIUM_*; "" when unknown.
std::string parse_medium(const std::string& text) {
  std::string m = lower(text);
  if (m.rfind("storage_medium_", 0) == 0) m = m.substr(15);
  if (m == "unspecified" || m.empty()) return "disk";  // the platform default is disk-backed
  if (m == "disk" || m == "memory") return m;
  return {};
}

struct Volume {
  Cursor at;
  std::string name;
  std::string medium = "disk";
  std::string mount_path;
  Cursor mount_at;
  std::optional<Quantity> size;  // resolved absolute size
  bool restores_snapshot = false;
};

}  // namespace

void check_volumes(Context& ctx) {
  const auto& pm = *ctx.pm;
  Cursor root = ctx.root();
  Cursor vols = root["volumes"];
  Cursor fss = root["file_system_snapshot"];
  if (fss && vols && vols.size() > 0) {
    ctx.report(Code::SNAPSHOT_WITH_VOLUMES, fss, "file_system_snapshot is combined with volumes",
               "the TypeScript SDK rejects the combination; declare the snapshot volume in volumes instead");
  }
  // The total memory request, after defaults: the base of "N%" sizes.
  std::optional<Quantity> memory_request;
  for (const auto& c : ctx.containers) {
    if (c.req_mem) memory_request = memory_request ? memory_request->plus(*c.req_mem) : *c.req_mem;
  }

  std::vector<Volume> volumes;
  auto read_volume = [&](const Cursor& v, const std::string& default_name) {
    Volume vol;
    vol.at = v;
    vol.name = v["name"].str(default_name);
    if (Cursor m = v["medium"]; m && m.node->is_string()) {
      std::string medium = parse_medium(m.node->text);
      if (medium.empty()) {
        ctx.report(Code::VOLUME_MEDIUM_INVALID, m, "medium " + m.node->display() + " is not a storage medium",
                   "use \"disk\" (the default) or \"memory\"");
      } else {
        vol.medium = medium;
      }
    }
    if (Cursor mp = v["mount_path"]; mp && mp.node->is_string()) {
      vol.mount_path = mp.node->text;
      vol.mount_at = mp;
      std::string problem = mount_path_problem(vol.mount_path);
      if (!problem.empty()) {
        ctx.report(Code::MOUNT_PATH_INVALID, mp, "mount path " + mp.node->display() + " is not allowed: " + problem,
                   "use an absolute, canonical path such as /work, outside /proc, /sys, /dev, /etc, /var/run/secrets and /shared/credentials");
      }
    }
    if (Cursor sp = v["sub_path"]; sp && sp.node->is_string()) {
      std::string problem = sub_path_problem(sp.node->text);
      if (!problem.empty()) ctx.report(Code::MOUNT_PATH_INVALID, sp, "sub_path " + sp.node->display() + " is not allowed: " + problem);
    }
    vol.restores_snapshot = v["restore_from_snapshot_id"].str().size() > 0 || v["file_system_snapshot_id"].str().size() > 0;
    // R-VOL-2: sizes.
    Cursor size = v["size"];
    bool memory = vol.medium == "memory";
    if (!size || !size.node->is_string() || size.node->text.empty()) {
      if (memory && !v["volume_id"]) {
        ctx.report(Code::MEMORY_VOLUME_SIZE_REQUIRED, v, "memory-backed volume \"" + vol.name + "\" declares no size",
                   "give it a size such as \"1Gi\" or \"25%\" (of the memory request): an unbounded RAM-backed volume is rejected");
      }
    } else if (const std::string& text = size.node->text; !text.empty() && text.back() == '%') {
      std::string_view digits = std::string_view(text).substr(0, text.size() - 1);
      unsigned n = 0;
      auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      bool valid = !digits.empty() && r.ec == std::errc{} && r.ptr == digits.data() + digits.size() && n >= 1 && n <= 100;
      if (!memory) {
        ctx.report(Code::VOLUME_SIZE_INVALID, size, "size " + size.node->display() + " is a percentage, which only memory-backed volumes take",
                   "give a disk volume an absolute size such as \"10Gi\"");
      } else if (!valid) {
        ctx.report(Code::VOLUME_SIZE_INVALID, size, "size " + size.node->display() + " must be \"N%\" with N a whole number from 1 to 100");
      } else if (memory_request) {
        vol.size = memory_request->fraction_floor(n, 100);
        ctx.touched(pointer_join(pointer_join("/volumes", std::to_string(volumes.size())), "size"), "R-VOL-2");
      } else if (std::none_of(ctx.containers.begin(), ctx.containers.end(), [](const ContainerResources& c) { return c.invalid; })) {
        // No memory request to take the percentage of: the platform resolves it against its own
        // (unpublished) default, so the size is unknown (SPEC preamble: unknown → warning).
        Diagnostic& d = ctx.report(Code::VOLUME_SIZE_INVALID, size,
                                   "size " + size.node->display() + " is a percentage of the memory request, but no memory request is declared and the policy has no default_memory",
                                   "declare a memory request, or give the volume an absolute size");
        d.severity = Severity::warning;
      }
    } else {
      QuantityError err;
      vol.size = Quantity::parse(text, QuantityGrammar::sdk, &err);
      if (!vol.size) {
        ctx.report(Code::VOLUME_SIZE_INVALID, size, "size " + size.node->display() + " is not a quantity: " + err.message,
                   memory ? "write e.g. \"1Gi\" or \"25%\"" : "write e.g. \"10Gi\"");
      }
    }
    // R-VOL-4: the policy's media and per-volume size.
    if (!pm.allowed_media.empty()) {
      std::string wanted = memory ? "STORAGE_MEDIUM_MEMORY" : "STORAGE_MEDIUM_DISK";
      bool ok = std::find(pm.allowed_media.begin(), pm.allowed_media.end(), wanted) != pm.allowed_media.end() ||
                (!memory && std::find(pm.allowed_media.begin(), pm.allowed_media.end(), "STORAGE_MEDIUM_UNSPECIFIED") != pm.allowed_media.end());
      if (!ok) {
        ctx.report(Code::VOLUME_MEDIUM_NOT_ALLOWED, v["medium"] ? v["medium"] : v,
                   "volume \"" + vol.name + "\" is " + vol.medium + "-backed, and the policy's allowed_media does not include " + wanted,
                   "use an allowed medium");
      }
    }
    if (vol.size && pm.max_size.value && *vol.size > *pm.max_size.value) {
      ctx.report(Code::VOLUME_TOO_LARGE, size, "volume \"" + vol.name + "\" is " + vol.size->canonical() +
                                                   ", larger than the policy's max_size " + pm.max_size.text,
                 "use at most " + pm.max_size.text);
    }
    volumes.push_back(std::move(vol));
  };
  for (std::size_t i = 0; i < vols.size(); ++i) {
    if (vols.at(i).node->is_object()) read_volume(vols.at(i), "");
  }
  if (fss && fss.node->is_object()) read_volume(fss, "workspace");

  // R-VOL-1 for the per-container volume_mounts (multi-container form): the same path rules, and
  // unique mount paths within one container.
  Cursor cs = root["containers"];
  for (std::size_t ci = 0; ci < cs.size(); ++ci) {
    Cursor mounts = cs.at(ci)["volume_mounts"];
    std::unordered_set<std::string_view> seen;
    for (std::size_t k = 0; k < mounts.size(); ++k) {
      Cursor mp = mounts.at(k)["mount_path"];
      if (mp && mp.node->is_string()) {
        std::string problem = mount_path_problem(mp.node->text);
        if (!problem.empty()) {
          ctx.report(Code::MOUNT_PATH_INVALID, mp, "mount path " + mp.node->display() + " is not allowed: " + problem,
                     "use an absolute, canonical path such as /work, outside /proc, /sys, /dev, /etc, /var/run/secrets and /shared/credentials");
        } else if (!seen.insert(mp.node->text).second) {
          ctx.report(Code::MOUNT_PATH_DUPLICATE, mp, "two volume mounts of one container are at " + mp.node->text,
                     "mount each volume at its own path");
        }
      }
      if (Cursor sp = mounts.at(k)["sub_path"]; sp && sp.node->is_string()) {
        std::string problem = sub_path_problem(sp.node->text);
        if (!problem.empty()) ctx.report(Code::MOUNT_PATH_INVALID, sp, "sub_path " + sp.node->display() + " is not allowed: " + problem);
      }
    }
  }

  // R-VOL-1: unique names and mount paths (hash sets: no pairwise comparison).
  std::unordered_set<std::string_view> names, mount_paths;
  for (std::size_t i = 0; i < volumes.size(); ++i) {
    if (!volumes[i].name.empty() && !names.insert(volumes[i].name).second) {
      ctx.report(Code::VOLUME_NAME_DUPLICATE, volumes[i].at["name"] ? volumes[i].at["name"] : volumes[i].at,
                 "volume name \"" + volumes[i].name + "\" is used twice", "give each volume its own name");
    }
    if (!volumes[i].mount_path.empty() && !mount_paths.insert(volumes[i].mount_path).second) {
      ctx.report(Code::MOUNT_PATH_DUPLICATE, volumes[i].mount_at, "two volumes mount at " + volumes[i].mount_path,
                 "mount each volume at its own path");
    }
  }

  // R-VOL-5 and the mount/file overlap of R-VOL-1.
  std::vector<std::pair<std::string, Cursor>> files;
  auto add_files = [&](const Cursor& mf) {
    if (!mf) return;
    if (mf.node->is_object()) {
      for (const auto& m : mf.node->members) files.emplace_back(m.key, Cursor{&m.value, &m, pointer_join(mf.path, m.input_key())});
    } else {
      for (std::size_t i = 0; i < mf.size(); ++i) {
        Cursor f = mf.at(i);
        files.emplace_back(f["path"].str(), f["path"] ? f["path"] : f);
      }
    }
  };
  add_files(root["mounted_files"]);
  Cursor containers = root["containers"];
  for (std::size_t i = 0; i < containers.size(); ++i) add_files(containers.at(i)["mounted_files"]);
  // Which volumes overlap which files, found without comparing every pair (util/path_overlap.h;
  // a repeated file path or mount path takes part once: its repeats are reported as duplicates).
  std::vector<std::vector<std::size_t>> overlaps(files.size());
  {
    std::vector<std::string_view> file_paths, mounts;
    for (const auto& f : files) file_paths.push_back(f.first.empty() || f.first.front() != '/' ? std::string_view() : f.first);
    for (const auto& v : volumes) mounts.push_back(v.mount_path);
    for (const auto& [fi, vi] : overlapping_paths(file_paths, mounts)) overlaps[fi].push_back(vi);
  }
  std::unordered_set<std::string_view> file_seen;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& [path, at] = files[i];
    if (path.empty() || path.front() != '/') {
      ctx.report(Code::MOUNTED_FILE_PATH_INVALID, at,
                 path.empty() ? std::string("a mounted file has an empty path") : "mounted file path \"" + path + "\" is not absolute",
                 "give the full path including the file name, e.g. /app/config.json");
      continue;
    }
    if (!file_seen.insert(path).second) {
      ctx.report(Code::MOUNTED_FILE_DUPLICATE, at, "mounted file path " + path + " is used twice", "mount each file once");
    }
    for (std::size_t vi : overlaps[i]) {
      const Volume& v = volumes[vi];
      ctx.report(Code::MOUNT_PATH_FILE_OVERLAP, v.mount_at,
                 "volume \"" + v.name + "\" mounts at " + v.mount_path + ", which overlaps the mounted file " + path,
                 "mount the volume elsewhere, or move the file");
    }
  }

  // R-VOL-3: memory-backed volumes per container ≤ 80 % of its memory request. A volume with a
  // mount_path mounts on the primary container; containers' volume_mounts name others.
  std::unordered_map<std::string_view, int> container_of;  // the first container of each name
  for (std::size_t i = 0; i < ctx.containers.size(); ++i) container_of.emplace(ctx.containers[i].name, static_cast<int>(i));
  auto container_index = [&](const std::string& name) -> int {
    auto it = container_of.find(name);
    return it == container_of.end() ? -1 : it->second;
  };
  // For each volume name, the containers whose volume_mounts name it (in container order, once each).
  std::unordered_map<std::string, std::vector<int>> mounted_on;
  for (std::size_t ci = 0; ci < containers.size(); ++ci) {
    Cursor mounts = containers.at(ci)["volume_mounts"];
    int idx = mounts.size() > 0 ? container_index(containers.at(ci)["name"].str()) : -1;
    if (idx < 0) continue;
    for (std::size_t k = 0; k < mounts.size(); ++k) {
      auto& list = mounted_on[mounts.at(k)["volume"].str()];
      if (list.empty() || list.back() != idx) list.push_back(idx);
    }
  }
  for (auto& [name, list] : mounted_on) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  int primary = 0;
  for (std::size_t i = 0; i < ctx.containers.size(); ++i) {
    if (ctx.containers[i].primary) primary = static_cast<int>(i);
  }
  for (std::size_t vi = 0; vi < volumes.size(); ++vi) {
    const auto& v = volumes[vi];
    if (v.medium != "memory" || !v.size) continue;
    std::vector<int> targets;
    if (!v.mount_path.empty() && !ctx.containers.empty()) targets.push_back(primary);
    if (auto it = mounted_on.find(v.name); it != mounted_on.end()) {
      for (int idx : it->second) {
        if (targets.empty() || idx != targets.front()) targets.push_back(idx);  // the list has no repeats
      }
    }
    if (targets.empty()) ctx.unmounted_memory_volumes = ctx.unmounted_memory_volumes.plus(*v.size);
    for (int t : targets) ctx.containers[static_cast<std::size_t>(t)].memory_volumes =
        ctx.containers[static_cast<std::size_t>(t)].memory_volumes.plus(*v.size);
  }
  for (const auto& c : ctx.containers) {
    if (c.memory_volumes.is_zero() || !c.req_mem) continue;
    if (c.memory_volumes.times(5) > c.req_mem->times(4)) {
      Cursor at = vols ? vols : ctx.root();
      for (const auto& v : volumes) {
        if (v.medium == "memory") {
          at = v.at["size"] ? v.at["size"] : v.at;
          break;
        }
      }
      ctx.report(Code::MEMORY_VOLUMES_OVER_80_PERCENT, at,
                 "memory-backed volumes on " + (ctx.multi_container ? "container \"" + c.name + "\"" : std::string("the sandbox")) +
                     " total " + human_bytes(c.memory_volumes) + ", more than 80 % of its memory request " + c.req_mem_text,
                 "shrink the volumes to at most " + human_bytes(c.req_mem->fraction_floor(4, 5)) + " in all, or raise the memory request");
    }
  }
}

}  // namespace sandgate::engine
