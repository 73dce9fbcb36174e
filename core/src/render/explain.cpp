// `sandgate explain`: the resolved sandbox as a tree, each value with where it came from and the
// rule that decided it.
#include <fmt/color.h>
#include <fmt/format.h>

#include <map>

#include "sandgate/render.h"
#include "util/text.h"

namespace sandgate {
namespace {

struct Printer {
  const Result& r;
  bool color;
  std::map<std::string, std::string> from;
  std::map<std::string, std::string> rules;
  std::string out;

  std::string dim(std::string_view s) const {
    return color ? fmt::format(fmt::fg(fmt::terminal_color::bright_black), "{}", s) : std::string(s);
  }
  std::string key(std::string_view s) const { return color ? fmt::format(fmt::emphasis::bold, "{}", s) : std::string(s); }

  static std::string scalar(const Node& n) {
    switch (n.kind) {
      case NodeKind::string: return quoted(n.text);
      case NodeKind::null: return "null";
      case NodeKind::array: return "[]";
      case NodeKind::object: return "{}";
      default: return n.display();
    }
  }

  void annotate(std::string line, const std::string& pointer) {
    std::string note;
    if (auto it = from.find(pointer); it != from.end()) note = it->second;
    if (auto it = rules.find(pointer); it != rules.end()) note += (note.empty() ? "" : " ") + ("(" + it->second + ")");
    constexpr std::size_t k_column = 52;
    std::size_t width = 0;
    for (char c : line) width += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    if (!note.empty()) line += std::string(width < k_column ? k_column - width : 1, ' ') + dim("← " + note);
    out += line + "\n";
  }

  void walk(const Node& n, const std::string& pointer, const std::string& label, int depth) {
    std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
    bool leaf = (!n.is_object() && !n.is_array()) || (n.is_object() && n.members.empty()) || (n.is_array() && n.items.empty());
    if (leaf) {
      annotate(indent + key(label) + ": " + scalar(n), pointer);
      return;
    }
    std::string rule_note;
    if (auto it = rules.find(pointer); it != rules.end()) rule_note = "  " + dim("(" + it->second + ")");
    out += indent + key(label) + ":" + rule_note + "\n";
    if (n.is_object()) {
      for (const auto& m : n.members) walk(m.value, pointer_join(pointer, m.key), m.key, depth + 1);
    } else {
      for (std::size_t i = 0; i < n.items.size(); ++i) walk(n.items[i], pointer_join(pointer, i), "- [" + std::to_string(i) + "]", depth + 1);
    }
  }
};

}  // namespace

std::string render_explain(const Report& rep, const SourceTexts& sources, const TextOptions& options) {
  const Result& r = rep.result;
  Printer p{r, options.color, {}, {}, {}};
  for (const auto& [k, v] : r.provenance()) p.from[k] = v;
  for (const auto& [k, v] : r.rules_applied()) {
    auto& s = p.rules[k];
    if (s.find(v) == std::string::npos) s += (s.empty() ? "" : ", ") + v;
  }
  std::string head = rep.file + ": " + (r.ok() ? "accepted" : "rejected");
  head += " · placement " + std::string(r.placement_mode());
  if (!r.runner_id().empty()) head += " on runner " + std::string(r.runner_id());
  head += " · QoS " + std::string(r.qos_class());
  p.out += head + "\n";
  if (auto rc = r.runtime_class()) p.out += "runtime class: " + rc->value + "  " + p.dim("← " + rc->from) + "\n";
  if (auto gpu = r.gpu()) {
    std::string types;
    for (const auto& t : gpu->eligible_types) types += (types.empty() ? "" : ", ") + t;
    p.out += "gpu: " + std::to_string(gpu->count) + (types.empty() ? "" : " (eligible: " + types + ")") + "\n";
  }
  if (auto slurm = r.slurm()) {
    p.out += "slurm: CPUsPerTask=" + std::to_string(slurm->cpus_per_task) + " MinMemoryNode=" +
             std::to_string(slurm->min_memory_node) + "M via " + slurm->scheduler + "\n";
  }
  p.out += "resolved:\n";
  for (const auto& m : r.resolved().members) p.walk(m.value, pointer_join("", m.key), m.key, 1);
  std::vector<Report> one{rep};
  bool any = false;
  for (const auto& d : r.diagnostics()) any = any || d.severity != Severity::info || options.show_info;
  if (any) p.out += "\n" + render_text(one, sources, options);
  return p.out;
}

}  // namespace sandgate
