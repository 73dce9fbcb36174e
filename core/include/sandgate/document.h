// Loading text into a Node tree, within limits, with every problem reported as a diagnostic.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "sandgate/diagnostic.h"
#include "sandgate/node.h"

namespace sandgate {

enum class Format { auto_detect, yaml, json };

// Every limit of SPEC §1.2, configurable; the defaults are the SPEC's.
struct Limits {
  std::size_t max_bytes = 4u << 20;
  int max_depth = 64;
  std::size_t max_nodes = 100000;
  int max_alias_uses = 100;
};

struct Document {
  std::string file;   // as given; used in diagnostics' source
  std::string input;  // which input this is (policy, sandbox, …); used in diagnostics
  Format format = Format::yaml;
  Node root;
  bool loaded = false;  // false when the text could not be turned into a tree at all
  Diagnostics diagnostics;
};

// Parses `text`. Never throws for anything in `text`; problems become diagnostics.
// `file` and `input` label the diagnostics. Auto-detection reads JSON when the text starts with
// `{` or `[` and parses as JSON, and YAML otherwise.
Document load_document(std::string_view text, Format format = Format::auto_detect,
                       std::string file = "", std::string input = "",
                       const Limits& limits = Limits{});

// The format a file name suggests: .json → json, .yaml/.yml → yaml, else auto_detect.
Format format_for_path(std::string_view path);

// Checks that `text` is valid UTF-8 with no NUL; returns the byte offset of the first problem,
// or npos. `is_nul` says which problem it was.
std::size_t find_invalid_utf8(std::string_view text, bool& is_nul);

}  // namespace sandgate
