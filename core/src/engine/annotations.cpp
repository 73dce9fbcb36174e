// R-ANN (SPEC §6.1): client annotations are checked (key syntax first, then denied prefixes and
// counts), then merged under the policy's base annotations, which win.
#include <algorithm>
#include <unordered_map>

#include "engine/rules.h"
#include "util/net.h"
#include "util/prefix_set.h"

namespace sandgate::engine {
namespace {

constexpr std::string_view k_sunk_prefix = "sunk.coreweave.com/";

std::string hex_code_point(std::string_view s, std::size_t i) {
  // Decodes the UTF-8 sequence at i (the text is valid UTF-8) for a message like U+200B.
  auto u = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned cp = u(i);
  int extra = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : cp >= 0xC0 ? 1 : 0;
  cp &= extra == 3 ? 0x07u : extra == 2 ? 0x0Fu : extra == 1 ? 0x1Fu : 0x7Fu;
  for (int k = 1; k <= extra && i + static_cast<std::size_t>(k) < s.size(); ++k) cp = (cp << 6) | (u(i + static_cast<std::size_t>(k)) & 0x3Fu);
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", cp);
  return buf;
}

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}
bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// Kubernetes' IsQualifiedName: [prefix/]name, prefix a DNS-1123 subdomain (≤ 253), name ≤ 63 of
// [A-Za-z0-9][-A-Za-z0-9_.]*[A-Za-z0-9], ASCII only. Returns "" when valid, else why not.
std::string qualified_name_problem(std::string_view key) {
  for (std::size_t i = 0; i < key.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(key[i]);
    if (c >= 0x80) return "it contains the non-ASCII character " + hex_code_point(key, i);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return "it contains white space";
    if (c < 0x20 || c == 0x7F) return "it contains a control character";
  }
  std::size_t slash = key.find('/');
  std::string_view name = key;
  if (slash != std::string_view::npos) {
    if (key.find('/', slash + 1) != std::string_view::npos) return "it has more than one '/'";
    std::string_view prefix = key.substr(0, slash);
    name = key.substr(slash + 1);
    if (prefix.empty()) return "the prefix before '/' is empty";
    if (prefix.size() > 253) return "the prefix is longer than 253 characters";
    if (!is_dns1123_subdomain(prefix)) {
      bool upper = std::any_of(prefix.begin(), prefix.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
      return upper ? "the prefix must be lowercase (a DNS subdomain)" : "the prefix is not a DNS subdomain (lowercase labels separated by dots)";
    }
  }
  if (name.empty()) return "the name part is empty";
  if (name.size() > 63) return "the name part is longer than 63 characters";
  if (!alnum(name.front()) || !alnum(name.back())) return "the name part must start and end with a letter or digit";
  if (!std::all_of(name.begin(), name.end(), name_char)) return "the name part may hold only letters, digits, '-', '_' and '.'";
  return {};
}

// A Linux UID/GID in decimal: 0..4294967294 ((uid_t)-1 means "no id" and is never a real one).
bool all_digits(std::string_view s) {
  if (s.empty() || s.size() > 10 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  std::uint64_t v = 0;
  for (char c : s) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  return v <= 4294967294ULL;
}

}  // namespace

void resolve_annotations(Context& ctx) {
  const auto& pm = *ctx.pm;
  Cursor ann = ctx.root()["annotations"];
  std::size_t client_count = 0;
  if (ann && ann.node->is_object()) {
    client_count = ann.node->members.size();
    for (const auto& m : ann.node->members) {
      Cursor at{&m.value, &m, pointer_join(ann.path, m.input_key())};
      const std::string& key = m.key;
      // R-ANN-4 / R-ANN-3: the key must be well-formed before any prefix is compared with it.
      if (key.empty()) {
        ctx.report_key(Code::ANNOTATION_EMPTY_KEY, at, "an annotation has an empty key", "remove it");
        continue;
      }
      std::string problem = qualified_name_problem(key);
      if (!problem.empty()) {
        ctx.report_key(Code::ANNOTATION_KEY_INVALID, at, "annotation key \"" + key + "\" is not a valid Kubernetes qualified name: " + problem,
                   "keys are [prefix/]name: a lowercase DNS prefix, one '/', a name of letters, digits, '-', '_', '.'");
        continue;
      }
      // R-ANN-2: a plain, case-sensitive starts_with on the key exactly as given.
      // An empty entry is a prefix of every key (plain starts_with, SPEC R-ANN-3). Of nested
      // matching entries the shortest is named. O(log n) per key (util/prefix_set.h).
      if (auto hit = pm.denied_prefix_set.find(key)) {
        std::string prefix(hit->prefix);
        ctx.report_key(Code::ANNOTATION_DENIED_PREFIX, at, "annotation key \"" + key + "\" starts with the denied prefix \"" + prefix + "\"",
                   pm.base_annotations.count(key) ? "the policy pins this key itself; remove it from the request"
                                                  : "remove it; the runner's policy does not let sandboxes set " + prefix + "* annotations");
      }
      // R-ANN-4, client rule: the TypeScript SDK rejects empty values.
      if (m.value.is_string() && m.value.text.empty()) {
        ctx.report(Code::ANNOTATION_CLIENT_LIMIT, at, "annotation \"" + key + "\" has an empty value", "give it a value or remove it");
      }
    }
    if (pm.max_annotation_count > 0 && static_cast<std::int64_t>(client_count) > pm.max_annotation_count) {
      ctx.report(Code::ANNOTATION_COUNT, ann,
                 std::to_string(client_count) + " annotations, more than the policy's max_annotation_count " +
                     std::to_string(pm.max_annotation_count),
                 "drop some annotations");
    }
    if (client_count > 100) {
      ctx.report(Code::ANNOTATION_CLIENT_LIMIT, ann, std::to_string(client_count) + " annotations; the TypeScript SDK accepts at most 100");
    }
  }

  // R-ANN-1: client ∪ base, the policy's value winning on the same key.
  // Keys are looked up in hash maps built once: the base annotations and the SUNK keys must not
  // each scan every client annotation.
  Node merged = Node::make_object();
  std::unordered_map<std::string, std::size_t> position;   // first merged member of each key
  std::unordered_map<std::string, const Member*> client;   // first client member of each key
  if (ann && ann.node->is_object()) {
    for (const auto& m : ann.node->members) {
      client.emplace(m.key, &m);
      if (!m.key.empty() && m.value.is_string()) {
        position.emplace(m.key, merged.members.size());
        merged.members.push_back(m);
      }
    }
  }
  auto client_at = [&](const std::string& key) {
    auto it = client.find(key);
    if (it == client.end()) return Cursor{};
    return Cursor{&it->second->value, it->second, pointer_join(ann.path, it->second->input_key())};
  };
  for (const auto& [key, value] : pm.base_annotations) {
    Node v = Node::make_string(value);
    v.origin = k_policy_base;
    auto pos = position.find(key);
    if (Node* existing = pos == position.end() ? nullptr : &merged.members[pos->second].value) {
      if (existing->text != value) {
        Cursor at = client_at(key);
        ctx.report_key(Code::ANNOTATION_OVERRIDDEN, at,
                   "annotation \"" + key + "\" is pinned by the policy: the sandbox gets \"" + value + "\", not \"" + existing->text + "\"",
                   "remove it from the request");
      }
      *existing = v;
      ctx.touched(pointer_join("/annotations", key), "R-ANN-1");
    } else {
      position.emplace(key, merged.members.size());
      merged.add(key, v);
    }
  }

  // R-ANN-7: SUNK keys must be values Slurm accepts; group-id follows user-id.
  auto check_sunk = [&](const std::string& key, const Node& value) {
    std::string_view name = std::string_view(key).substr(k_sunk_prefix.size());
    Cursor at = client_at(key);
    auto report = [&](std::string message, std::string hint) {
      if (value.origin == k_policy_base) {
        Cursor base = Cursor{ctx.pm->base, nullptr, ctx.pm->base_origin.path}["metadata"]["annotations"][key];
        ctx.report_policy(Code::SUNK_ANNOTATION_INVALID, {base.path, base.mark()}, std::move(message), std::move(hint));
      } else {
        ctx.report(Code::SUNK_ANNOTATION_INVALID, at, std::move(message), std::move(hint));
      }
    };
    if ((name == "user-id" || name == "group-id") && !all_digits(value.text)) {
      report(key + " is \"" + value.text + "\", but Slurm needs a numeric Linux " + (name == "user-id" ? "UID" : "GID") + " (0..4294967294)",
             "use the number (id -u on a login node), e.g. \"1000\", not a user name");
    }
    if (name == "exclusive") {
      if (value.text != "none" && value.text != "user" && value.text != "ok") {
        report("sunk.coreweave.com/exclusive is \"" + value.text + "\"; Slurm accepts none, user or ok", "use \"none\", \"user\" or \"ok\"");
      } else if (value.text == "ok" && ctx.gpu()) {
        report("sunk.coreweave.com/exclusive \"ok\" must not be used on GPU pods", "use \"none\" or \"user\"");
      }
    }
  };
  for (const auto& m : merged.members) {
    if (m.key.compare(0, k_sunk_prefix.size(), k_sunk_prefix) == 0 && m.value.is_string()) check_sunk(m.key, m.value);
  }
  const Node* uid = merged.find("sunk.coreweave.com/user-id");
  if (uid && !merged.find("sunk.coreweave.com/group-id")) {
    Node gid = *uid;
    gid.origin = k_platform;
    merged.add("sunk.coreweave.com/group-id", gid);
    ctx.touched("/annotations/sunk.coreweave.com~1group-id", "R-ANN-7");
  }

  // R-ANN-5: the resolved annotations must fit Kubernetes' 256 KiB.
  std::size_t total = 0;
  for (const auto& m : merged.members) total += m.key.size() + m.value.text.size();
  if (total > 256 * 1024) {
    ctx.report(Code::ANNOTATIONS_TOO_LARGE, ann ? ann : ctx.root(),
               "the resolved annotations hold " + std::to_string(total) + " bytes of keys and values, more than Kubernetes' 262144",
               "move large data to mounted files");
  }
  if (!merged.members.empty()) ctx.resolve("/annotations", std::move(merged));
}

}  // namespace sandgate::engine
