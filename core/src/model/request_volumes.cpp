// R-VOL (SPEC §6.5) on the request alone: volume and mount-path syntax, unique names and paths,
// sizes and media as written, mounted files, and which containers mount which volume. The
// policy's media and size limits, percentages of the memory request and the 80 % rule need the
// resolved resources and run in `check` (engine/volumes.cpp).
#include <algorithm>
#include <charconv>
#include <unordered_map>

#include "model/request_compiler.h"
#include "quantity/quantity_hint.h"
#include "util/path_overlap.h"
#include "util/text.h"

namespace sandgate::model {
namespace {

constexpr std::string_view k_reserved_roots[] = {"/proc", "/sys", "/dev", "/etc", "/var/run/secrets", "/shared/credentials"};
constexpr const char* k_mount_hint =
    "use an absolute, canonical path such as /work, outside /proc, /sys, /dev, /etc, /var/run/secrets and /shared/credentials";

bool under(std::string_view path, std::string_view root) {
  return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/');
}

// What cwsandbox's _validate_absolute_mount_path refuses before sending (ValueError): "" when
// the path is non-empty, absolute and not /.
std::string sdk_mount_path_problem(std::string_view p) {
  if (p.empty()) return "it is empty";
  if (p.front() != '/') return "it is not absolute";
  if (p == "/") return "it is /";
  return {};
}

// The gateway's validateMountPathBase: "" when the path is fine, else why not.
std::string mount_path_problem(std::string_view p) {
  if (std::string sdk = sdk_mount_path_problem(p); !sdk.empty()) return sdk;
  if (p.size() > 256) return "it is longer than 256 characters";
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

// "disk", "memory", "unspecified" or STORAGE_MEDIUM_*; nullopt when unknown.
std::optional<Medium> parse_medium(std::string_view text) {
  std::string m = ascii_lower(text);
  if (m.rfind("storage_medium_", 0) == 0) m = m.substr(15);
  if (m == "unspecified" || m.empty() || m == "disk") return Medium::disk;  // the platform default is disk-backed
  if (m == "memory") return Medium::memory;
  return std::nullopt;
}

struct Reader {
  RequestCompiler& c;
  std::vector<std::optional<Origin>> mount_at;  // per volume
  std::vector<std::string> mount_path;          // per volume
  std::vector<Origin> name_at;                  // per volume: its name, else the volume

  void check_mount_path(const Cursor& mp) { check_mount_path(c, mp); }
  static void check_mount_path(RequestCompiler& c, const Cursor& mp) {
    std::string problem = mount_path_problem(mp.node->text);
    if (problem.empty()) return;
    // The SDK's own rule (empty, relative, /) is its ValueError; the rest only the server checks.
    c.report(sdk_mount_path_problem(mp.node->text).empty() ? Code::MOUNT_PATH_INVALID : Code::MOUNT_PATH_NOT_ABSOLUTE, mp,
             "mount path " + mp.node->display() + " is not allowed: " + problem, k_mount_hint);
  }
  // `sdk`: a volume's sub_path, which cwsandbox checks itself (_validate_sub_path, ValueError); a
  // volume mount's sub_path is checked by the server only.
  void check_sub_path(const Cursor& sp, bool sdk) {
    if (!sp || !sp.node->is_string()) return;
    std::string problem = sub_path_problem(sp.node->text);
    if (!problem.empty()) {
      c.report(sdk ? Code::MOUNT_PATH_NOT_ABSOLUTE : Code::MOUNT_PATH_INVALID, sp,
               "sub_path " + sp.node->display() + " is not allowed: " + problem, "write a relative path such as data/run1");
    }
  }

  // `built_only`: a volume of a list that a later layer replaced, which the Python SDK built (and
  // so checked) before the merge and then never sent: only its option class's checks run.
  void read(const Cursor& v, std::string_view default_name, bool built_only = false) {
    Volume vol;
    vol.at = origin_of(v);
    vol.name = v["name"].str(std::string(default_name));
    if (!built_only) name_at.push_back(v["name"] ? origin_of(v["name"]) : origin_of(v));
    // A dict with volume_id is a RegisteredVolumeOptions, except that Sandbox(volumes=…) sends a
    // dict without a (truthy) mount_path as it is, an unmounted volume (cwsandbox
    // _spec.volumes_to_proto). SandboxDefaults.from_dict always builds the class; the
    // SandboxDefaults dataclass keeps the dict; a RegisteredVolumeOptions the user built is checked.
    Cursor mp_at = v["mount_path"];
    bool given_registered = v.node->given_as == GivenAs::registered_volume_options;
    bool registered = given_registered || static_cast<bool>(v["volume_id"]);
    bool mounted = mp_at && mp_at.node->is_string() && !mp_at.node->text.empty();
    bool from_dict = c.built_by_from_dict(v.layer);
    bool bypass = registered && !mounted && !given_registered && !from_dict && !built_only;
    if (registered && !bypass) {
      if (!mp_at) {
        c.report(Code::REQUIRED_ARGUMENT, v, "RegisteredVolumeOptions.__init__() missing 1 required keyword-only argument: 'mount_path'",
                 "give the volume a mount_path (SandboxDefaults.from_dict builds a RegisteredVolumeOptions)");
      }
      for (const char* scratch : {"size", "medium", "restore_from_snapshot_id"}) {
        if (Cursor f = v[scratch]) {
          c.report_key(Code::UNKNOWN_KEY, f,
                       "RegisteredVolumeOptions.__init__() got an unexpected keyword argument '" + std::string(scratch) + "'",
                       "a volume with volume_id is a registered volume; " + std::string(scratch) + " belongs to a scratch volume");
        }
      }
    }
    if (bypass) {
      // Sent as {name, volume_id}: nothing else is read.
      mount_path.emplace_back();
      mount_at.emplace_back();
      c.m.volumes.push_back(std::move(vol));
      return;
    }
    if (Cursor m = v["medium"]; m && m.node->is_string()) {
      vol.medium_at = origin_of(m);
      if (std::string lower = ascii_lower(m.node->text); lower != "disk" && lower != "memory" && lower != "unspecified" &&
                                                        parse_medium(lower)) {
        c.report(Code::PYTHON_CLIENT_RULE, m, "'" + lower + "' is not a valid StorageMedium",
                 "the Python SDK takes \"disk\", \"memory\" or \"unspecified\" (any case), not empty or STORAGE_MEDIUM_* names");
      }
      if (auto medium = parse_medium(m.node->text)) {
        vol.medium = *medium;
      } else {
        c.report(Code::VOLUME_MEDIUM_INVALID, m, "medium " + m.node->display() + " is not a storage medium",
                 "use \"disk\" (the default) or \"memory\"");
      }
    } else if (m) {
      vol.medium_at = origin_of(m);
    }
    std::string path;
    std::optional<Origin> path_at;
    if (Cursor mp = v["mount_path"]; mp && mp.node->is_string()) {
      path = mp.node->text;
      path_at = origin_of(mp);
      if (!built_only || !sdk_mount_path_problem(path).empty()) check_mount_path(mp);
    }
    check_sub_path(v["sub_path"], true);
    if (built_only) return;
    if (!v["restore_from_snapshot_id"].str().empty() || !v["file_system_snapshot_id"].str().empty()) c.m.snapshot_storage = true;
    // R-VOL-2: sizes as written (a percentage is resolved against the memory request in check).
    Cursor size = v["size"];
    bool memory = vol.medium == Medium::memory;
    if (size) vol.size_at = origin_of(size);
    if (!size || !size.node->is_string() || size.node->text.empty()) {
      if (memory && !v["volume_id"]) {
        c.report(Code::MEMORY_VOLUME_SIZE_REQUIRED, v, "memory-backed volume \"" + vol.name + "\" declares no size",
                 "give it a size such as \"1Gi\" or \"25%\" (of the memory request): an unbounded RAM-backed volume is rejected");
      }
    } else if (const std::string& text = size.node->text; text.back() == '%') {
      vol.size_text = text;
      std::string_view digits = std::string_view(text).substr(0, text.size() - 1);
      unsigned n = 0;
      auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      bool valid = !digits.empty() && r.ec == std::errc{} && r.ptr == digits.data() + digits.size() && n >= 1 && n <= 100;
      vol.size = Volume::Size::invalid;
      if (!memory) {
        c.report(Code::VOLUME_SIZE_INVALID, size, "size " + size.node->display() + " is a percentage, which only memory-backed volumes take",
                 "give a disk volume an absolute size such as \"10Gi\"");
      } else if (!valid) {
        c.report(Code::VOLUME_SIZE_INVALID, size, "size " + size.node->display() + " must be \"N%\" with N a whole number from 1 to 100");
      } else {
        vol.size = Volume::Size::percent;
        vol.percent = n;
      }
    } else {
      vol.size_text = text;
      QuantityError err;
      if (auto q = Quantity::parse(text, QuantityGrammar::sdk, &err)) {
        vol.size = Volume::Size::absolute;
        vol.absolute = *q;
      } else {
        vol.size = Volume::Size::invalid;
        c.report(Code::VOLUME_SIZE_INVALID, size, "size " + size.node->display() + " is not a quantity: " + err.message,
                 quantity_hint(text, memory ? "write e.g. \"1Gi\" or \"25%\"" : "write e.g. \"10Gi\""));
      }
    }
    mount_path.push_back(std::move(path));
    mount_at.push_back(std::move(path_at));
    c.m.volumes.push_back(std::move(vol));
  }
};

}  // namespace

void check_built_volume(RequestCompiler& c, const Cursor& v, std::string_view default_name) {
  Reader{c, {}, {}, {}}.read(v, default_name, true);
}

// VolumeMount's own check, on the mounts of a Container built and never sent.
void check_built_mounts(RequestCompiler& c, const Cursor& container) {
  Cursor mounts = container["volume_mounts"];
  for (std::size_t k = 0; k < mounts.size(); ++k) {
    Cursor mp = mounts.at(k)["mount_path"];
    if (mp && mp.node->is_string() && !sdk_mount_path_problem(mp.node->text).empty()) Reader::check_mount_path(c, mp);
  }
}

void read_volumes(RequestCompiler& c) {
  RequestModel& m = c.m;
  Cursor vols = c.field("volumes");
  Cursor fss = c.field("file_system_snapshot");
  if (vols) m.volumes_at = origin_of(vols);
  if (fss && vols && vols.size() > 0) {
    c.report(Code::SNAPSHOT_WITH_VOLUMES, fss, "file_system_snapshot is combined with volumes",
             "the TypeScript SDK rejects the combination; declare the snapshot volume in volumes instead");
  }
  if (fss) m.snapshot_storage = true;
  Reader r{c, {}, {}, {}};
  for (std::size_t i = 0; i < vols.size(); ++i) {
    if (vols.at(i).node->is_object()) r.read(vols.at(i), "");
  }
  if (fss && fss.node->is_object()) r.read(fss, "workspace");
  // R-VOL-1 for the per-container volume_mounts (multi-container form): the same path rules, and
  // unique mount paths within one container.
  Cursor containers = c.field("containers");
  for (std::size_t ci = 0; ci < containers.size(); ++ci) {
    Cursor mounts = containers.at(ci)["volume_mounts"];
    std::unordered_map<std::string_view, Origin> seen;
    for (std::size_t k = 0; k < mounts.size(); ++k) {
      Cursor mp = mounts.at(k)["mount_path"];
      if (mp && mp.node->is_string()) {
        if (!mount_path_problem(mp.node->text).empty()) {
          Reader::check_mount_path(c, mp);
        } else if (auto it = seen.find(mp.node->text); it != seen.end()) {
          Diagnostic& d = c.report(Code::MOUNT_PATH_DUPLICATE, mp, "two volume mounts of one container are at " + mp.node->text,
                                   "mount each volume at its own path");
          c.relate(d, it->second, "the first mount at this path");
        }
        seen.emplace(mp.node->text, origin_of(mp));
      }
      r.check_sub_path(mounts.at(k)["sub_path"], false);
    }
  }

  // R-VOL-1: unique names and mount paths.
  std::unordered_map<std::string_view, std::size_t> names, paths;
  for (std::size_t i = 0; i < m.volumes.size(); ++i) {
    const Volume& v = m.volumes[i];
    if (!v.name.empty()) {
      if (auto it = names.find(v.name); it != names.end()) {
        Diagnostic& d = c.report_at(Code::VOLUME_NAME_DUPLICATE, r.name_at[i], "volume name \"" + v.name + "\" is used twice",
                                    "give each volume its own name");
        c.relate(d, m.volumes[it->second].at, "the first volume with this name");
      } else {
        names.emplace(v.name, i);
      }
    }
    if (!r.mount_path[i].empty()) {
      if (auto it = paths.find(r.mount_path[i]); it != paths.end()) {
        Diagnostic& d = c.report_at(Code::MOUNT_PATH_DUPLICATE, *r.mount_at[i], "two volumes mount at " + r.mount_path[i],
                                    "mount each volume at its own path");
        c.relate(d, *r.mount_at[it->second], "the first volume mounted here");
      } else {
        paths.emplace(r.mount_path[i], i);
      }
    }
  }

  // R-VOL-5 and the mount/file overlap of R-VOL-1.
  std::vector<std::pair<std::string, Cursor>> files;
  auto add_files = [&](const Cursor& mf) {
    if (!mf) return;
    if (mf.node->is_object()) {
      for (const auto& mem : mf.node->members) files.emplace_back(mem.key, mf.member_of(mem));
    } else {
      for (std::size_t i = 0; i < mf.size(); ++i) {
        Cursor f = mf.at(i);
        files.emplace_back(f["path"].str(), f["path"] ? f["path"] : f);
        if (Cursor content = f["content"]; content && !content.node->is_string()) {
          c.report(Code::MOUNTED_FILE_CONTENT_NOT_TEXT, content,
                   "mounted file content is " + std::string(content.node->kind_name()) +
                       (content.node->is_scalar() ? " (" + content.node->display() + ")" : "") + ", not text",
                   "the Python SDK writes str(value) into the file; write the text you mean, quoted");
        }
      }
    }
  };
  add_files(c.field("mounted_files"));
  for (std::size_t i = 0; i < containers.size(); ++i) add_files(containers.at(i)["mounted_files"]);
  std::unordered_map<std::string_view, std::size_t> file_paths;
  std::vector<std::string_view> absolute_files;  // the files that take part in the overlap check
  std::vector<std::size_t> absolute_index;       // their index in `files`
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& [path, at] = files[i];
    // An entry without its path has the schema's missing-field error, or an unknown key told it
    // meant the path (`file_path`): not a second one here.
    if (path.empty() && !at["mount_path"] && c.error_under(at.layer, at.path())) continue;
    if (path.empty() || path.front() != '/') {
      c.report(Code::MOUNTED_FILE_PATH_INVALID, at,
               path.empty() ? std::string("a mounted file has an empty path") : "mounted file path \"" + path + "\" is not absolute",
               "give the full path including the file name, e.g. /app/config.json");
      continue;
    }
    absolute_files.push_back(path);
    absolute_index.push_back(i);
    if (auto it = file_paths.find(path); it != file_paths.end()) {
      Diagnostic& d = c.report(Code::MOUNTED_FILE_DUPLICATE, at, "mounted file path " + path + " is used twice", "mount each file once");
      c.relate(d, origin_of(files[it->second].second), "the first file at this path");
    } else {
      file_paths.emplace(path, i);
    }
  }
  // A mount path equal to, above or under a mounted file: found through each path's ancestors
  // (util/path_overlap.h), not by comparing every file with every volume.
  // (Most requests mount neither: the index is not built for nothing.)
  if (!absolute_files.empty() && !r.mount_path.empty()) {
    std::vector<std::string_view> volume_paths(r.mount_path.begin(), r.mount_path.end());
    for (auto [fi, vi] : overlapping_paths(absolute_files, volume_paths)) {
      const auto& [path, at] = files[absolute_index[fi]];
      Diagnostic& d = c.report_at(Code::MOUNT_PATH_FILE_OVERLAP, *r.mount_at[vi],
                                  "volume \"" + m.volumes[vi].name + "\" mounts at " + r.mount_path[vi] + ", which overlaps the mounted file " + path,
                                  "mount the volume elsewhere, or move the file");
      c.relate(d, origin_of(at), "the mounted file");
    }
  }

  // R-VOL-3 needs to know where each volume is mounted: a volume with a mount_path mounts on the
  // primary container; containers' volume_mounts name others.
  if (m.volumes.empty()) return;
  std::size_t primary = 0;
  for (std::size_t i = 0; i < m.containers.size(); ++i) {
    if (m.containers[i].primary) primary = i;
  }
  std::unordered_map<std::string_view, std::size_t> container_by_name;
  for (std::size_t i = 0; i < m.containers.size(); ++i) container_by_name.emplace(m.containers[i].name, i);
  std::unordered_map<std::string_view, std::vector<std::size_t>> volumes_by_name;
  for (std::size_t v = 0; v < m.volumes.size(); ++v) {
    volumes_by_name[m.volumes[v].name].push_back(v);
    if (!r.mount_path[v].empty() && !m.containers.empty()) m.volumes[v].containers.push_back(primary);
  }
  for (std::size_t ci = 0; ci < containers.size(); ++ci) {
    auto named = container_by_name.find(containers.at(ci)["name"].str());
    if (named == container_by_name.end()) continue;
    Cursor mounts = containers.at(ci)["volume_mounts"];
    for (std::size_t k = 0; k < mounts.size(); ++k) {
      auto it = volumes_by_name.find(mounts.at(k)["volume"].str());
      if (it == volumes_by_name.end()) continue;
      for (std::size_t v : it->second) {
        auto& targets = m.volumes[v].containers;
        if (std::find(targets.begin(), targets.end(), named->second) == targets.end()) targets.push_back(named->second);
      }
    }
  }
}

}  // namespace sandgate::model
