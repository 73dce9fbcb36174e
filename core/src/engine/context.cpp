#include "engine/context.h"

#include "util/diagnostics.h"

namespace sandgate::engine {

const GpuRequest* Context::gpu() const {
  for (const auto& c : containers) {
    if (c.gpu && c.gpu->count > 0) return &*c.gpu;
  }
  return nullptr;
}

void apply_client(Diagnostic& d, const std::string& client) {
  Side side = d.info().side;
  bool other = (side == Side::python && client == "typescript") || (side == Side::typescript && client == "python");
  if (!other || d.severity != Severity::error) return;
  d.severity = Severity::warning;
  std::string sdk = side == Side::python ? "Python" : "TypeScript";
  std::string note = "only the " + sdk + " SDK rejects this before sending";
  d.hint = d.hint.empty() ? note : d.hint + " (" + note + ")";
}

const std::string& Context::file_of(std::uint8_t layer) const {
  static const std::string k_empty;
  const Document* d = layer < layers.size() ? layers[layer] : nullptr;
  if (!d) d = layers[k_sandbox];
  return d ? d->file : k_empty;
}

Diagnostic& Context::report_input(Code code, const std::string& input, const std::string& file, const std::string& path,
                                  Mark mark, std::string message, std::string hint) {
  DiagnosticSink sink(result.diagnostics, file, input);
  Diagnostic& d = sink.add(code, path, mark, std::move(message), std::move(hint));
  apply_client(d, options.client);
  return d;
}

std::string Context::input_path(const std::string& merged_path, std::uint8_t layer) const {
  if (merged_path.size() < 2 || merged_path[0] != '/' || layer >= 4) return merged_path;
  std::size_t end = merged_path.find('/', 1);
  std::string token = merged_path.substr(1, end == std::string::npos ? std::string::npos : end - 1);
  std::string rest = end == std::string::npos ? std::string() : merged_path.substr(end);
  const Member* member = nullptr;
  for (const auto& m : req.members) {
    if (m.input_key() == token) member = &m;
  }
  if (!member) return merged_path;
  if (auto it = layer_spelling.find(member->key); it != layer_spelling.end() && !it->second[layer].empty()) {
    token = it->second[layer];
  }
  // A concatenated list: the merged index becomes the index in the item's own layer.
  if (auto it = merged_list_index.find(member->key); it != merged_list_index.end() && rest.size() > 1) {
    std::size_t next = rest.find('/', 1);
    std::string index = rest.substr(1, next == std::string::npos ? std::string::npos : next - 1);
    if (!index.empty() && index.find_first_not_of("0123456789") == std::string::npos) {
      std::size_t i = std::stoul(index);
      if (i < it->second.size()) {
        rest = "/" + std::to_string(it->second[i]) + (next == std::string::npos ? std::string() : rest.substr(next));
      }
    }
  }
  return "/" + token + rest;
}

Diagnostic& Context::report(Code code, const Cursor& at, std::string message, std::string hint) {
  std::uint8_t layer = at.node ? at.node->origin : (at.member ? at.member->value.origin : k_sandbox);
  if (layer == k_no_layer) layer = k_sandbox;
  return report_input(code, k_input_names[layer], file_of(layer), input_path(at.path, layer), at.mark(),
                      std::move(message), std::move(hint));
}

Diagnostic& Context::report_key(Code code, const Cursor& at, std::string message, std::string hint) {
  Diagnostic& d = report(code, at, std::move(message), std::move(hint));
  if (at.member && at.member->key_mark.known() && d.source) {
    d.source->line = at.member->key_mark.line;
    d.source->column = at.member->key_mark.column;
  }
  return d;
}

std::string human_bytes(const Quantity& q) {
  auto bytes = q.ceil_units();
  if (!bytes || *bytes < 1024 || q.ceil_units() != q.ceil_div(1)) return q.canonical();
  static constexpr const char* k_units[] = {"Ki", "Mi", "Gi", "Ti", "Pi"};
  std::int64_t v = *bytes;
  int unit = -1;
  while (v % 1024 == 0 && unit < 4) {
    v /= 1024;
    ++unit;
  }
  if (unit >= 0 && (unit >= 1 || v < 1024)) return std::to_string(v) + k_units[unit];
  return "≈" + std::to_string(q.ceil_div(1024 * 1024).value_or(0)) + "Mi";
}

Diagnostic& Context::report_policy(Code code, const model::Origin& where, std::string message, std::string hint) {
  std::string file = policy ? policy->file() : std::string();
  std::string input = "policy";
  if (primary && primary->policy && policy == primary->policy.get()) input = "runners";
  return report_input(code, input, file, where.path, where.mark, std::move(message), std::move(hint));
}

std::string Context::policy_origin(const std::string& field) const { return "policy." + field; }

namespace {
// The resolved sandbox speaks canonical snake_case only: drop the input spellings.
void canonical_keys(Node& n) {
  for (auto& m : n.members) {
    m.original_key.clear();
    canonical_keys(m.value);
  }
  for (auto& item : n.items) canonical_keys(item);
}
}  // namespace

void Context::resolve(const std::string& pointer, Node value, const std::string& from) {
  canonical_keys(value);
  std::vector<std::string> tokens;
  pointer_split(pointer, tokens);
  Node* cur = &result.resolved;
  if (!cur->is_object()) *cur = Node::make_object();
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    bool last = i + 1 == tokens.size();
    if (cur->is_array()) {
      std::size_t idx = std::stoul(tokens[i]);
      while (cur->items.size() <= idx) cur->items.push_back(Node::make_null());
      cur = &cur->items[idx];
    } else {
      if (!cur->is_object()) *cur = Node::make_object();
      Node* next = cur->find(tokens[i]);
      if (!next) next = &cur->add(tokens[i], Node::make_null());
      cur = next;
    }
    if (last) *cur = std::move(value);
  }
  // Provenance names the layer for every leaf under `pointer`.
  std::vector<std::pair<std::string, const Node*>> stack{{pointer, cur}};
  auto& prov = result.provenance;
  // Replace any provenance recorded for this subtree before. How many recorded leaves lie at or
  // under each path is kept in a hash map, so that finding none (the usual case) does not scan
  // every entry: once per resolved container, that scan made a list of containers quadratic.
  auto under_pointer = [&](const std::string& p) {
    return p == pointer || (p.size() > pointer.size() && p.compare(0, pointer.size(), pointer) == 0 && p[pointer.size()] == '/');
  };
  // Calls f on `path` and on each of its ancestors but the root ("/a/b" → "/a/b", "/a").
  auto for_each_level = [](const std::string& path, const auto& f) {
    f(path);
    for (std::size_t k = path.size(); k-- > 1;) {
      if (path[k] == '/') f(path.substr(0, k));
    }
  };
  auto recorded = provenance_under.find(pointer);
  if (pointer.empty() ? !prov.empty() : recorded != provenance_under.end()) {
    std::erase_if(prov, [&](const auto& p) {
      if (!under_pointer(p.first)) return false;
      for_each_level(p.first, [&](const std::string& level) {
        auto it = provenance_under.find(level);
        if (it != provenance_under.end() && --it->second == 0) provenance_under.erase(it);
      });
      return true;
    });
  }
  while (!stack.empty()) {
    auto [path, node] = stack.back();
    stack.pop_back();
    if (node->is_object() && !node->members.empty()) {
      for (auto it = node->members.rbegin(); it != node->members.rend(); ++it) {
        stack.emplace_back(pointer_join(path, it->key), &it->value);
      }
    } else if (node->is_array() && !node->items.empty()) {
      for (std::size_t i = node->items.size(); i-- > 0;) stack.emplace_back(pointer_join(path, i), &node->items[i]);
    } else {
      for_each_level(path, [&](const std::string& level) { ++provenance_under[level]; });
      prov.emplace_back(path, from.empty() ? k_layer_names[node->origin < k_layer_names.size() ? node->origin : 0] : from);
    }
  }
}

void Context::touched(const std::string& pointer, std::string_view rule) {
  result.rules_applied.emplace_back(pointer, std::string(rule));
}

void stamp(Node& n, std::uint8_t origin) {
  n.origin = origin;
  for (auto& item : n.items) stamp(item, origin);
  for (auto& m : n.members) stamp(m.value, origin);
}

}  // namespace sandgate::engine
