#include "document/yaml_errors.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "document/yaml_flow_brackets.h"
#include "document/yaml_indicator_as_text.h"
#include "document/yaml_properties_indent.h"
#include "document/yaml_quoted.h"
#include "util/text.h"

namespace sandgate::detail {
namespace {

// yaml-cpp's messages are ASCII but may quote one raw byte of the input ("unknown escape
// character: \xc3", the first byte of a multi-byte character): escaped, so that diagnostics stay
// valid UTF-8 (the JSON and SARIF outputs must be).
std::string ascii_message(const std::string& msg) {
  std::string out;
  for (unsigned char ch : msg.empty() ? std::string("malformed YAML") : msg) {
    if (ch < 0x80) {
      out += static_cast<char>(ch);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[ch >> 4];
      out += kHex[ch & 15];
    }
  }
  return out;
}

// The two usual causes that yaml-cpp's wording ("illegal map value") hides: a tab indenting the
// line or the one before (YAML forbids tabs in indentation), and a key longer than 1024
// characters (YAML then does not read it as a key at all).
std::string layout_hint(std::string_view text, const LineIndex& lines, const YAML::Mark& mark) {
  for (int l = mark.line; l >= 0 && l >= mark.line - 1; --l) {
    std::size_t i = lines.offset_of(l, 0);
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) {
      if (text[i] == '\t') return "YAML does not allow tabs for indentation; indent with spaces";
      ++i;
    }
  }
  if (mark.column > 1024) {
    return "a key longer than 1024 characters is not read as a key; shorten it, or write it as \"? key\" "
           "on its own line";
  }
  return {};
}

int indent_of(std::string_view line) {
  return static_cast<int>(leading_spaces(line));
}

bool blank_or_comment(std::string_view line) {
  std::size_t i = static_cast<std::size_t>(indent_of(line));
  while (i < line.size() && line[i] == '\t') ++i;
  return i == line.size() || line[i] == '#';
}

// What a line of a block collection starts with, to name it: its key or item, up to 40 characters.
std::string_view lead_of(std::string_view line) {
  line.remove_prefix(static_cast<std::size_t>(indent_of(line)));
  std::size_t end = 0;
  while (end < line.size() && end < 40 && !(line[end] == ':' && (end + 1 == line.size() || line[end + 1] == ' '))) ++end;
  // Not inside a UTF-8 sequence (found by fuzz_policy_yaml: the hint must stay UTF-8).
  while (end > 0 && end < line.size() && (static_cast<unsigned char>(line[end]) & 0xC0) == 0x80) --end;
  while (end > 0 && line[end - 1] == ' ') --end;
  return line.substr(0, end);
}

// Whether the line leaves a block open for the next one to fill: it ends with a key's `:` or is a
// `-` alone (a comment after either allowed).
bool opens_block(std::string_view line) {
  std::size_t hash = line.find(" #");
  if (hash != std::string_view::npos) line = line.substr(0, hash);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  return !line.empty() && (line.back() == ':' || (line.back() == '-' && line.size() == static_cast<std::size_t>(indent_of(line)) + 1));
}

// `"max_cpu" (line 3, 4 spaces in)`: a line above, as a level to line up with.
std::string level_name(std::string_view lead, int line, int indent) {
  return shown_text(lead) + " (line " + std::to_string(line) + ", " +
         (indent == 0 ? std::string("at the start of the line") : std::to_string(indent) + (indent == 1 ? " space in" : " spaces in")) + ")";
}

// The line that holds byte `offset`.
std::string_view line_holding(std::string_view text, std::size_t offset, std::size_t& start) {
  start = std::min(offset, text.size());
  while (start > 0 && text[start - 1] != '\n' && text[start - 1] != '\r') --start;
  std::size_t end = text.find_first_of("\r\n", start);
  return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// yaml-cpp says "end of map not found" or "illegal map value" for a line indented to no level of
// the block around it (one space short, or one too many after a complete value). The lines above
// that the line could line up with: the nearest deeper and the nearest shallower level, each named
// by its key and line. Empty when the line lines up with a level, or follows a key it may fill.
std::string indentation_hint(std::string_view text, const LineIndex& lines, const YAML::Mark& mark, const std::string& msg) {
  if (msg != "end of map not found" && msg != "end of sequence not found" && msg != "illegal map value") return {};
  std::size_t start = 0;
  std::string_view here = line_holding(text, lines.offset_of(mark.line, 0), start);
  if (blank_or_comment(here)) return {};
  const int cur = indent_of(here);
  struct Level {
    int indent;
    int line;  // 1-based
    std::string_view lead;
    bool item;  // a list item's dash
  };
  std::vector<Level> levels;  // the nearest line above at each smaller indentation
  int prev_indent = -1;
  bool prev_opens = false;
  int prev_line = 0;
  std::string_view prev_lead;
  for (std::size_t s = start; s > 0 && levels.size() < 64;) {
    std::size_t b = 0;
    std::string_view l = line_holding(text, s - 1, b);  // the line above (empty between \r and \n)
    s = b;
    if (blank_or_comment(l)) continue;
    const int line = lines.at_offset(b).line;
    const int i = indent_of(l);
    const std::string_view lead = lead_of(l);
    if (prev_indent < 0) {
      prev_indent = i;
      prev_opens = opens_block(l);
      prev_line = line;
      prev_lead = lead;
    }
    bool item = lead.rfind("- ", 0) == 0;
    // `- runner_id: a`: the item's keys line up with runner_id, two columns in from the dash.
    if (item && lead.size() > 2 && lead[2] != ' ' && lead[2] != '-' && (levels.empty() || i + 2 < levels.back().indent)) {
      levels.push_back({i + 2, line, lead.substr(2), false});
    }
    if (levels.empty() || i < levels.back().indent) levels.push_back({i, line, lead, item});
    if (i == 0) break;
  }
  // A key does not line up with a list item's dash (a sequence's items are not its keys).
  const bool here_is_item = here.substr(static_cast<std::size_t>(cur)).rfind("- ", 0) == 0 || here.substr(static_cast<std::size_t>(cur)) == "-";
  if (levels.empty() || (cur > prev_indent && prev_opens)) return {};
  // `egress:` then `- dns_name: …` left of it: the item meant to fill the key is outside it.
  if (prev_opens && here_is_item && cur < prev_indent) {
    return "a list item of " + shown_text(prev_lead) + " (line " + std::to_string(prev_line) + ") goes at its column or deeper: indent it " +
           std::to_string(prev_indent) + (prev_indent == 1 ? " space" : " spaces") + " or more";
  }
  // `- c` left of the items `- a`, `- b` above it: one list, misaligned.
  if (here_is_item && cur < prev_indent) {
    for (const Level& l : levels) {
      if (l.item && l.indent > cur) {
        return "this list item is left of the items above it: line it up with " + level_name(l.lead, l.line, l.indent);
      }
      if (l.indent <= cur) break;
    }
  }
  bool deeper_than_value = cur > prev_indent;  // after a complete value: only a level above fits
  const Level* deeper = nullptr;
  const Level* shallower = nullptr;
  for (const Level& l : levels) {
    if (l.indent == cur && !deeper_than_value && (here_is_item || !l.item)) return {};
    if (l.indent == cur && l.item && !here_is_item) continue;
    if (l.indent > cur && (!deeper || l.indent < deeper->indent)) deeper = &l;
    if (l.indent < cur && (!shallower || l.indent > shallower->indent)) shallower = &l;
  }
  auto name = [](const Level& l) { return level_name(l.lead, l.line, l.indent); };
  std::string out = "this line is indented " + std::to_string(cur) + (cur == 1 ? " space" : " spaces") +
                    ", which matches no level above it: line it up with ";
  if (deeper && shallower && !deeper_than_value) return out + name(*deeper) + " or with " + name(*shallower);
  if (shallower) return out + name(*shallower);
  if (deeper) return out + name(*deeper);
  return {};
}

// yaml-cpp 0.7 ends a plain scalar inside [ ] or { } at any `?` (YAML 1.1's reading), then fails
// on the `?` with "unknown token"; YAML 1.2, PyYAML and go-yaml read `[https://x.io/a?b=c]` as one
// value. Empty when the error at `offset` is not such a `?` (`? ` alone is an explicit key, which
// yaml-cpp reads).
SyntaxExplanation question_mark_in_flow(std::string_view text, std::size_t offset) {
  if (offset >= text.size() || text[offset] != '?') return {};
  auto ends_value = [&](std::size_t i) {
    char c = text[i];
    return c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == '\n' || c == '\r' ||
           (c == ':' && (i + 1 == text.size() || is_blank_or_break(text[i + 1])));
  };
  std::size_t start = offset;
  while (start > 0 && !ends_value(start - 1)) --start;
  std::size_t end = offset;
  while (end < text.size() && !ends_value(end)) ++end;
  while (start < end && is_blank_or_break(text[start])) ++start;
  while (end > start && is_blank_or_break(text[end - 1])) --end;
  std::string_view value = text.substr(start, end - start);
  if (value == "?") return empty_explicit_key(offset);  // `[?]`, `{?}`
  if (value.find_first_of("\"'#") != std::string_view::npos) {
    // `?"x"`, `?x#`: not a value to quote whole; a `?` glued to what follows it.
    return {"the YAML could not be read: the YAML reader sandgate uses (yaml-cpp 0.7) reads this \"?\" inside [ ] or "
            "{ } as neither a key's \"? \" nor part of a value",
            "write \"? \" with a space for a key, or remove the \"?\""};
  }
  return {"the YAML could not be read: " + shown_text(value) +
              " has a \"?\" inside [ ] or { }, where the YAML reader sandgate uses (yaml-cpp 0.7) ends an unquoted value",
          value.size() <= 80 ? "quote it: " + quoted(value) : "quote the value"};
}

}  // namespace

SyntaxExplanation explain_anchor_name(std::string_view name, std::size_t at, char sigil) {
  auto portable = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  };
  auto bad = std::find_if_not(name.begin(), name.end(), portable);
  if (bad == name.end()) return {};
  // A multi-byte character is named whole.
  std::size_t i = static_cast<std::size_t>(bad - name.begin());
  std::size_t len = 1;
  while (i + len < name.size() && (static_cast<unsigned char>(name[i + len]) & 0xC0) == 0x80) ++len;
  return {std::string("the YAML is malformed: the ") + (sigil == '*' ? "alias " : "anchor ") +
              shown_text(sigil + std::string(name)) + " has " +
              shown_text(name.substr(i, len)) +
              " in its name, where YAML readers disagree: yaml-cpp takes it into the name, PyYAML and Kubernetes "
              "end the name before it",
          sigil == '*' ? "if " + shown_text("*" + std::string(name)) + " is text (a value starting with '*' is an alias), quote it: " +
                             quoted("*" + std::string(name)) + "; an alias's name holds letters, digits, '-' and '_' only"
                       : "name anchors with letters, digits, '-' and '_' only, and write a space after the name; if no "
                         "anchor was meant, remove the '&'",
          at};
}

namespace {

// The anchor or alias written on the line holding `offset` or the line before, up to `offset`,
// whose name explain_anchor_name rejects: yaml-cpp's errors for `&key: value` in a block mapping
// ("end of map not found", "illegal map value") come before the anchor reaches the loader, and
// `*a:` is "the referenced anchor is not defined". Quoted text and comments are skipped.
SyntaxExplanation anchor_before(std::string_view text, const LineIndex& lines, const YAML::Mark& mark, std::size_t offset) {
  std::size_t from = lines.offset_of(mark.line > 0 ? mark.line - 1 : 0, 0);
  char quote = 0;
  for (std::size_t i = from; i <= offset && i < text.size(); ++i) {
    char c = text[i];
    bool token_start = i == from || is_blank_or_break(text[i - 1]) || text[i - 1] == '[' || text[i - 1] == '{' ||
                       text[i - 1] == ',';
    if (quote) {
      if (c == quote) quote = 0;
      if (c == '\n') quote = 0;  // a line of its own: quoting is not followed across lines here
    } else if ((c == '"' || c == '\'') && token_start) {
      quote = c;
    } else if (c == '#' && token_start) {
      i = text.find('\n', i);
      if (i == std::string_view::npos) break;
    } else if ((c == '&' || c == '*') && token_start) {
      std::size_t end = i + 1;
      while (end < text.size() && !is_blank_or_break(text[end]) &&
             std::string_view("[]{},").find(text[end]) == std::string_view::npos) {
        ++end;
      }
      if (SyntaxExplanation e = explain_anchor_name(text.substr(i + 1, end - i - 1), i, c); !e.message.empty()) return e;
    }
  }
  return {};
}

// `{a:{b: 1}}`, `[a:[1]]`: inside [ ] or { }, PyYAML reads a `:` glued to a `{` or `[` as a key's
// `:` and its value; yaml-cpp 0.7 fails with "end of map flow not found" at the bracket.
SyntaxExplanation colon_glued_to_bracket(std::string_view text, std::size_t offset, const std::string& msg) {
  if (msg != "end of map flow not found" && msg != "end of sequence flow not found") return {};
  if (offset == 0 || offset >= text.size() || text[offset - 1] != ':' || (text[offset] != '{' && text[offset] != '[')) return {};
  return {"the YAML is malformed: this ':' inside [ ] or { } has a " + shown_text(text.substr(offset, 1)) +
              " right after it; YAML readers disagree on whether it ends a key",
          "write a space after the ':'", offset - 1};
}

// The \u escape of 4 hex digits that starts at `at`, or -1.
long u_escape_at(std::string_view text, std::size_t at) {
  if (at + 6 > text.size() || text[at] != '\\' || text[at + 1] != 'u') return -1;
  long v = 0;
  auto [end, ec] = std::from_chars(text.data() + at + 2, text.data() + at + 6, v, 16);
  return ec == std::errc{} && end == text.data() + at + 6 ? v : -1;
}

// yaml-cpp says "invalid unicode: 55357" for an escape that is half of a UTF-16 surrogate pair
// (`\uD83D\uDE00`, which JSON encoders such as Python's json.dumps write for 😀). YAML has no
// surrogate pairs: PyYAML keeps the two halves as two broken characters, yaml-cpp refuses them.
// The mark is right after the escape.
SyntaxExplanation surrogate_escape(std::string_view text, std::size_t offset, const std::string& msg) {
  static constexpr std::string_view k_prefix = "invalid unicode: ";
  if (msg.rfind(k_prefix, 0) != 0 || offset < 6) return {};
  std::size_t at = offset - 6;
  long half = u_escape_at(text, at);
  if (half < 0xD800 || half > 0xDFFF) return {};
  std::string escape(text.substr(at, 6));
  SyntaxExplanation out;
  out.at = at;
  out.message = "the YAML could not be read: the escape " + escape +
                " is half of a UTF-16 surrogate pair, which YAML does not combine into one character";
  long low = u_escape_at(text, offset);
  if (half <= 0xDBFF && low >= 0xDC00 && low <= 0xDFFF) {
    unsigned long code_point = 0x10000 + ((static_cast<unsigned long>(half) - 0xD800) << 10) + (static_cast<unsigned long>(low) - 0xDC00);
    char buf[16];
    std::snprintf(buf, sizeof buf, "\\U%08lX", code_point);
    out.hint = "write " + escape + std::string(text.substr(offset, 6)) + " as one escape, " + buf +
               ", or as the character itself";
  } else {
    out.hint = "write the character itself, or its \\U escape of 8 hex digits";
  }
  return out;
}

// A key glued to its value (`runner_ids:[a]`, `container_image:python`) is one plain scalar to
// YAML; the error comes at that line or a later one ("illegal map value" on the next key). The
// line itself or one of the two lines above, when one of them is written so.
std::string glued_colon_hint(std::string_view text, const LineIndex& lines, const YAML::Mark& mark) {
  std::size_t start = 0;
  std::string_view l = line_holding(text, lines.offset_of(mark.line, 0), start);
  for (int looked = 0; looked < 3;) {
    if (!blank_or_comment(l)) {
      ++looked;
      if (std::string fix = glued_colon_fix(l); !fix.empty()) {
        return "YAML needs a space after a key's ':' (line " + std::to_string(lines.at_offset(start).line) +
               "): write " + shown_text(fix);
      }
    }
    if (start == 0) break;
    l = line_holding(text, start - 1, start);
  }
  return {};
}

// `placement_mode: cks runner_ids: [a]`: two keys on one line (a line break lost), which YAML
// reads as a value holding ": ". The second key, outside quotes and brackets, or "".
std::string_view second_key_on_line(std::string_view line) {
  std::size_t i = line.find(": ");
  if (i == std::string_view::npos) return {};
  const std::size_t value_start = i + 2;
  int depth = 0;
  // A quote or bracket opens a value only where a token starts: at the value's start, or after
  // `[`, `{`, `,` or `:` inside a flow collection. Elsewhere it is part of a plain value
  // (`Bob's box`, `x[1]`), and the key after it is still found.
  auto starts_token = [&](std::size_t at) {
    std::size_t k = at;
    while (k > value_start && line[k - 1] == ' ') --k;
    if (k == value_start) return true;
    const char p = line[k - 1];
    return depth > 0 && (p == '[' || p == '{' || p == ',' || p == ':');
  };
  for (std::size_t j = value_start; j < line.size(); ++j) {
    char c = line[j];
    if ((c == '"' || c == '\'') && starts_token(j)) {
      j = closing_quote(line, j);  // past the quoted value
      if (j == std::string_view::npos) return {};
    } else if (c == '#' && line[j - 1] == ' ') {
      return {};
    } else if ((c == '[' || c == '{') && starts_token(j)) {
      ++depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (depth == 0 && c == ':' && (j + 1 == line.size() || line[j + 1] == ' ')) {
      std::size_t k = j;
      while (k > value_start && line[k - 1] != ' ') --k;
      if (k == j || line[k - 1] != ' ') return {};
      return line.substr(k, j - k);
    }
  }
  return {};
}

// `volumes: - {…}`: a list item on its key's line, which YAML reads as a block entry where none
// may start ("illegal block entry").
std::string item_on_key_line_hint(std::string_view text, std::size_t offset, const std::string& msg) {
  if (msg != "illegal block entry" || offset >= text.size() || text[offset] != '-') return {};
  std::size_t start = 0;
  std::string_view line = line_holding(text, offset, start);
  std::string_view before = line.substr(0, offset - start);
  while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
  std::string_view lead = before.substr(static_cast<std::size_t>(indent_of(before)));
  if (lead.rfind("- ", 0) == 0 && !before.empty() && before.back() != ':') {
    return "two list items on one line: start the second, \"- …\", on a line of its own, lined up with the first";
  }
  if (before.empty() || before.back() != ':') return {};
  before.remove_suffix(1);
  std::string_view key = before.substr(static_cast<std::size_t>(indent_of(before)));
  return "a list item starts on a line of its own: write " + shown_text(std::string(key) + ":") +
         " and the item on the next line, indented, as \"  - …\"";
}

}  // namespace

bool question_mark_ends_text(std::string_view text, std::size_t at) {
  return at < text.size() && text[at] == '?' &&
         std::all_of(text.begin() + static_cast<std::ptrdiff_t>(at) + 1, text.end(), is_blank_or_break);
}

SyntaxExplanation empty_explicit_key(std::size_t at) {
  return {"the key after this '?' is empty: YAML reads it as a null key, and the keys here are names",
          "write the key after the '?' (\"? name\"), or write \"name: value\" without the '?'", at};
}

SyntaxExplanation directive_in_document(std::size_t at) {
  return {"the YAML is malformed: a line that starts with \"%\" is a YAML directive, which ends the document above it",
          "remove the line, or indent it under its key", at};
}

SyntaxExplanation directive_without_document_start(std::size_t at) {
  return {"the YAML is malformed: a line that starts with \"%\" is a YAML directive, which must be followed by a "
          "line \"---\"; YAML readers disagree on what follows one without it",
          "remove the \"%\" if the line is a key; if it is a directive, write --- on the line after it", at};
}

SyntaxExplanation explain_unmarked_document(std::string_view text, const LineIndex& lines, std::size_t first,
                                            std::size_t second) {
  std::size_t start = 0;
  std::string_view here = line_holding(text, second, start);
  std::string_view lead = here.substr(static_cast<std::size_t>(indent_of(here)));
  if (lead.rfind("---", 0) == 0 || lead.rfind("...", 0) == 0) return {};
  // The nearest line above that is neither blank nor a comment: a marker there starts this document.
  for (std::size_t s = start; s > 0;) {
    std::size_t above = 0;
    std::string_view l = line_holding(text, s - 1, above);
    s = above;
    if (blank_or_comment(l)) continue;
    std::string_view t = l.substr(static_cast<std::size_t>(indent_of(l)));
    if (t.rfind("---", 0) == 0 || t.rfind("...", 0) == 0) return {};
    // yaml-cpp reads the lines after a directive as a second document.
    if (l[0] == '%') return directive_in_document(above);
    break;
  }
  std::size_t first_start = 0;
  std::string_view first_line = line_holding(text, first, first_start);
  int first_indent = indent_of(first_line);
  int cur = indent_of(here);
  if (cur >= first_indent) return {};
  SyntaxExplanation out;
  out.at = start + static_cast<std::size_t>(cur);
  out.message = "the YAML is malformed: this line is indented less than the document's first line, so it is in no "
                "collection of the document (a second document would start with ---)";
  out.hint = "line it up with " + level_name(lead_of(first_line), lines.at_offset(first_start).line, first_indent);
  return out;
}

SyntaxExplanation explain_yaml_error(std::string_view text, const LineIndex& lines, const YAML::Exception& e) {
  if (e.mark.is_null()) return {"the YAML is malformed: " + ascii_message(e.msg), {}};
  std::size_t offset = lines.offset_of(e.mark.line, e.mark.column);
  if (SyntaxExplanation q = question_mark_in_flow(text, offset); !q.message.empty()) return q;
  if (question_mark_ends_text(text, offset)) return empty_explicit_key(offset);
  if (SyntaxExplanation a = anchor_before(text, lines, e.mark, offset); !a.message.empty()) return a;
  if (SyntaxExplanation c = colon_glued_to_bracket(text, offset, e.msg); !c.message.empty()) return c;
  if (SyntaxExplanation s = surrogate_escape(text, offset, e.msg); !s.message.empty()) return s;
  if (SyntaxExplanation p = explain_value_left_of_properties(text, lines, e.mark.line); !p.message.empty()) return p;
  // After the explanations above, which know more of the cause: a line left of a tag is a plain
  // value's continuation, where the bracket lexer would see a bracket start a token.
  if (SyntaxExplanation u = explain_unclosed_flow(text, offset, e.msg); !u.message.empty()) return u;
  if (SyntaxExplanation f = explain_stray_flow_end(text, offset, e.msg); !f.message.empty()) return f;
  if (SyntaxExplanation t = explain_indicator_as_text(text, offset, e.msg); !t.message.empty()) return t;
  std::string hint = layout_hint(text, lines, e.mark);
  if (hint.empty()) hint = item_on_key_line_hint(text, offset, e.msg);
  if (hint.empty() && (e.msg == "illegal map value" || e.msg == "end of map not found" || e.msg == "end of sequence not found")) {
    hint = glued_colon_hint(text, lines, e.mark);
    std::size_t start = 0;
    std::string_view line = line_holding(text, offset, start);
    if (std::string_view second = second_key_on_line(line); hint.empty() && !second.empty()) {
      // `resources: max_cpu: 8`: the first key has no value of its own; the second belongs under it.
      std::size_t first_colon = line.find(": ");
      std::string_view between = line.substr(first_colon + 2, static_cast<std::size_t>(second.data() - line.data()) - first_colon - 2);
      bool first_empty = between.find_first_not_of(' ') == std::string_view::npos;
      std::size_t at = static_cast<std::size_t>(second.data() - line.data());
      if (at >= 2 && line.substr(at - 2, 2) == "- ") {
        hint = "a list item after a value on one line: start " + shown_text(line.substr(at - 2, second.size() + 2)) +
               " on a line of its own, lined up with the item before it";
      } else {
        hint = "two keys on one line: start " + shown_text(second) + " on a line of its own, " +
               (first_empty ? "indented under " + shown_text(lead_of(line)) : std::string("lined up with the key before it"));
        if (first_empty) {
          // `display_name: prod: eu` is more likely one value holding ": ".
          std::string_view value = line.substr(first_colon + 2);
          std::size_t hash = value.find(" #");
          if (hash != std::string_view::npos) value = value.substr(0, hash);
          while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
          if (value.size() <= 60 && value.find_first_of("\"{}[]") == std::string_view::npos) {
            hint += "; or, if " + shown_text(value) + " is one value, quote it: " + quoted(value);
          }
        }
      }
    }
  }
  if (hint.empty()) hint = indentation_hint(text, lines, e.mark, e.msg);
  return {"the YAML is malformed: " + ascii_message(e.msg), hint};
}

}  // namespace sandgate::detail
