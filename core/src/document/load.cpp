// load_document: the checks every text gets before a parser sees it (size, UTF-8, NUL), then the
// YAML or JSON front end.
#include <cstdio>

#include "document/line_index.h"
#include "document/loaders.h"
#include "sandgate/document.h"

namespace sandgate {
namespace {

bool starts_like_json(std::string_view text) {
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{' || c == '[';
  }
  return false;
}

std::string size_text(std::size_t bytes) {
  if (bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

Format format_for_path(std::string_view path) {
  auto ends_with = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
  };
  if (ends_with(".json")) return Format::json;
  if (ends_with(".yaml") || ends_with(".yml")) return Format::yaml;
  return Format::auto_detect;
}

Document load_document(std::string_view text, Format format, std::string file, std::string input,
                       const Limits& limits) {
  return detail::load_text(text, format, std::move(file), std::move(input), limits, detail::TextRole::document);
}

Document detail::load_text(std::string_view text, Format format, std::string file, std::string input,
                           const Limits& limits, TextRole role, Mark origin) {
  Document doc;
  doc.file = std::move(file);
  doc.input = std::move(input);
  DiagnosticSink sink(doc.diagnostics, doc.file, doc.input);

  if (text.size() > limits.max_bytes) {
    sink.add(Code::DOC_TOO_LARGE, "", origin,
             "the document is larger than the limit of " + size_text(limits.max_bytes) + " (at least " +
                 std::to_string(text.size()) + " bytes)",
             "split it, or raise the size limit");
    return doc;
  }
  // A UTF-8 byte order mark is allowed (YAML permits it; editors write it) and skipped.
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);

  LineIndex lines(text, origin);
  bool is_nul = false;
  std::size_t bad = find_invalid_utf8(text, is_nul);
  if (bad != std::string_view::npos) {
    if (is_nul) {
      sink.add(Code::NUL_BYTE, "", lines.at_offset(bad), "the text contains a NUL character at byte " +
                                                              std::to_string(bad),
               "remove it; sandgate reads UTF-8 text only");
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[bad]));
      sink.add(Code::INVALID_UTF8, "", lines.at_offset(bad),
               std::string("the text is not valid UTF-8: byte ") + hex + " at offset " + std::to_string(bad),
               "save the file as UTF-8");
    }
    return doc;
  }

  if (format == Format::auto_detect) format = starts_like_json(text) ? Format::json : Format::yaml;
  doc.format = format;
  if (format == Format::json) {
    Diagnostics json_diags;
    DiagnosticSink json_sink(json_diags, doc.file, doc.input);
    doc.loaded = detail::load_json(text, lines, limits, doc.root, json_sink, role == TextRole::json_line);
    // Flow-style YAML also starts with `{`: when JSON fails on syntax, try YAML before giving up.
    bool syntax_only = !json_diags.empty() && json_diags.front().code == Code::SYNTAX;
    if (!doc.loaded && syntax_only && role == TextRole::document && format_for_path(doc.file) != Format::json) {
      Diagnostics yaml_diags;
      DiagnosticSink yaml_sink(yaml_diags, doc.file, doc.input);
      Node yaml_root;
      if (detail::load_yaml(text, lines, limits, yaml_root, yaml_sink)) {
        doc.root = std::move(yaml_root);
        doc.loaded = true;
        doc.format = Format::yaml;
        doc.diagnostics.insert(doc.diagnostics.end(), yaml_diags.begin(), yaml_diags.end());
        return doc;
      }
    }
    doc.diagnostics.insert(doc.diagnostics.end(), json_diags.begin(), json_diags.end());
  } else {
    doc.loaded = detail::load_yaml(text, lines, limits, doc.root, sink);
  }
  return doc;
}

}  // namespace sandgate
