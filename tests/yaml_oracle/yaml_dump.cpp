// The YAML loader's answers for many texts at once, for run.py to hold against PyYAML.
// Reads records from standard input, each a decimal byte count, a line feed, then that many bytes;
// writes one JSON line per record: {"loaded": bool, "value": <the tree>, "errors": [[code, line,
// column, message], …]} (errors only: warnings and notes are not verdicts). The tree keeps what
// plain JSON would blur: an integer is {"int": "<decimal>" or "past int64"}, a float {"float": "<%.17g, inf, -inf
// or nan>"}, a map {"map": [[key, value], …]} in input order.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include "sandgate/document.h"
#include "sandgate/render.h"

namespace {

std::string json_string(const std::string& s) { return sandgate::node_to_json(sandgate::Node::make_string(s)); }

void write_tree(const sandgate::Node& n, std::string& out) {
  using sandgate::NodeKind;
  switch (n.kind) {
    case NodeKind::null:
      out += "null";
      return;
    case NodeKind::boolean:
      out += n.boolean ? "true" : "false";
      return;
    case NodeKind::integer:
      // Past int64 the loader keeps the literal (for messages) and the engine refuses the value.
      out += "{\"int\":" + json_string(n.int_overflow ? "past int64" : std::to_string(n.integer)) + "}";
      return;
    case NodeKind::number: {
      char buf[40];
      if (std::isnan(n.number)) {
        std::snprintf(buf, sizeof buf, "nan");
      } else if (std::isinf(n.number)) {
        std::snprintf(buf, sizeof buf, n.number > 0 ? "inf" : "-inf");
      } else {
        std::snprintf(buf, sizeof buf, "%.17g", n.number);
      }
      out += "{\"float\":\"" + std::string(buf) + "\"}";
      return;
    }
    case NodeKind::string:
      out += json_string(n.text);
      return;
    case NodeKind::array:
      out += '[';
      for (std::size_t i = 0; i < n.items.size(); ++i) {
        if (i > 0) out += ',';
        write_tree(n.items[i], out);
      }
      out += ']';
      return;
    case NodeKind::object:
      out += "{\"map\":[";
      for (std::size_t i = 0; i < n.members.size(); ++i) {
        if (i > 0) out += ',';
        out += '[' + json_string(n.members[i].key) + ',';
        write_tree(n.members[i].value, out);
        out += ']';
      }
      out += "]}";
      return;
  }
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string count;
  while (std::getline(std::cin, count)) {
    std::size_t size = std::stoul(count);
    std::string text(size, '\0');
    if (!std::cin.read(text.data(), static_cast<std::streamsize>(size))) {
      std::cerr << "yaml_dump: a record is shorter than its byte count\n";
      return 2;
    }
    sandgate::Document doc = sandgate::load_document(text, sandgate::Format::yaml, "t.yaml", "policy");
    std::string out = "{\"loaded\":";
    out += doc.loaded ? "true" : "false";
    out += ",\"value\":";
    if (doc.loaded) {
      write_tree(doc.root, out);
    } else {
      out += "null";
    }
    out += ",\"errors\":[";
    bool first = true;
    for (const auto& d : doc.diagnostics) {
      if (d.severity != sandgate::Severity::error) continue;
      if (!first) out += ',';
      first = false;
      out += '[' + json_string(std::string(d.name())) + ',' + std::to_string(d.source ? d.source->line : 0) + ',' +
             std::to_string(d.source ? d.source->column : 0) + ',' + json_string(d.message) + ']';
    }
    out += "]}\n";
    std::cout << out;
  }
  return 0;
}
