#include "document/yaml_properties_indent.h"

#include <string>

#include "util/text.h"

namespace sandgate::detail {
namespace {

std::size_t line_end(std::string_view text, std::size_t from) {
  std::size_t end = text.find('\n', from);
  return end == std::string_view::npos ? text.size() : end;
}

std::size_t spaces_from(std::string_view text, std::size_t i) {
  return i < text.size() ? leading_spaces(text.substr(i)) : 0;
}

// Only spaces (and a CRLF's "\r") up to the line's end.
bool white_line(std::string_view text, std::size_t start) {
  std::size_t i = start + spaces_from(text, start);
  return i >= text.size() || text[i] == '\n' || (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n');
}

// The indentation of the nearest line above `line_start` indented less than `column`, past empty
// lines and comments: the key or item a value on a line of its own belongs to. npos when none.
std::size_t owner_indentation(std::string_view text, std::size_t line_start, std::size_t column) {
  while (line_start > 0) {
    std::size_t start = line_start - 1;  // the line break that ends the line above
    while (start > 0 && text[start - 1] != '\n') --start;
    line_start = start;
    const std::size_t indent = spaces_from(text, start);
    if (white_line(text, start) || (start + indent < text.size() && text[start + indent] == '#')) continue;
    if (indent < column) return indent;
  }
  return std::string_view::npos;
}

}  // namespace

EntryWithProperties entry_with_properties(std::string_view text, std::size_t line_start) {
  EntryWithProperties e;
  const std::size_t end = line_end(text, line_start);
  std::size_t i = line_start + spaces_from(text, line_start);
  while (i + 1 < end && (text[i] == '-' || text[i] == '?' || text[i] == ':') && text[i + 1] == ' ') {
    e.indicator = text[i];
    e.indicator_column = i - line_start;
    i += 2;
    i += spaces_from(text, i);
  }
  if (i >= end || (text[i] != '&' && text[i] != '!')) return e;
  const char sigil = text[i];
  const std::size_t properties_column = i - line_start;
  while (i < end && (text[i] == '&' || text[i] == '!')) {
    while (i < end && text[i] != ' ') ++i;
    i += spaces_from(text, i);
  }
  if (i >= end || text[i] == '#' || text[i] == '\r') return e;  // the value is on a later line
  if (e.indicator == 0) {
    // The value of a key or item on the line above: the other readers need its lines right of that.
    e.indicator_column = owner_indentation(text, line_start, properties_column);
    if (e.indicator_column == std::string_view::npos) return e;
  }
  e.sigil = sigil;
  e.properties_column = properties_column;
  e.value = i;
  if (text[i] == '|' || text[i] == '>') {
    for (std::size_t j = i + 1; j < end && j <= i + 2; ++j) {
      if (text[j] >= '1' && text[j] <= '9') e.digit = text[j] - '0';
    }
  }
  e.line_start = line_start;
  e.found = true;
  return e;
}

SyntaxExplanation value_left_of_properties(std::string_view text, const EntryWithProperties& entry, std::size_t last_line) {
  if (!entry.found) return {};
  const std::string indicator = entry.indicator != 0 ? "the '" + std::string(1, entry.indicator) + "'" : "the key or item above";
  // The value's lines below the entry, up to `last_line`, that are not white space only (a comment
  // is one of them: in a block it is text): the first that yaml-cpp reads otherwise. Without a
  // digit, that is one left of where yaml-cpp needs the value's lines; with one, a line between
  // the two readings' indentations of the block (indicator + digit and tag + digit).
  const std::size_t needed = entry.properties_column + (entry.digit != 0 ? static_cast<std::size_t>(entry.digit) : 1);
  std::size_t misread = std::string_view::npos;
  std::size_t misread_column = 0;
  for (std::size_t below = line_end(text, entry.line_start); below < text.size(); below = line_end(text, below)) {
    ++below;
    if (below > last_line) break;
    if (white_line(text, below)) continue;
    const std::size_t column = spaces_from(text, below);
    if (column > entry.indicator_column && column < needed) {
      misread = below;
      misread_column = column;
      break;
    }
    if (last_line == std::string_view::npos) break;  // the first line alone
  }
  if (entry.digit != 0) {
    if (last_line != std::string_view::npos && misread == std::string_view::npos) return {};
    return {"this block's indentation digit counts from the column of the tag or anchor before it to yaml-cpp, and from " +
                indicator + " to other YAML readers: they read different values",
            "put the tag or anchor on a line of its own, with the block below it, or drop the digit", entry.value};
  }
  if (misread == std::string_view::npos) return {};
  const char* what = entry.sigil == '&' ? "anchor" : "tag";
  std::size_t lead = entry.line_start + spaces_from(text, entry.line_start);
  std::string_view shown = text.substr(lead, std::min<std::size_t>(line_end(text, lead) - lead, 40));
  if (!shown.empty() && shown.back() == '\r') shown.remove_suffix(1);
  while (shown.size() == 40 && (static_cast<unsigned char>(shown.back()) & 0x80) != 0) shown.remove_suffix(1);
  return {"the YAML is malformed: this line continues the value of " + shown_text(shown) + " above it, whose " + what +
              " yaml-cpp reads as setting the value's indentation: the value's next lines must stand right of that " + what +
              " (other YAML readers need them only right of " + indicator + ")",
          "indent this line and the value's other lines by " + std::to_string(entry.properties_column + 1) + " spaces or more",
          misread + misread_column};
}

SyntaxExplanation explain_value_left_of_properties(std::string_view text, const LineIndex& lines, int line0) {
  // The entry: the nearest line above that starts one and is indented less than every line after
  // it, past empty lines, comments and the value's lines yaml-cpp read.
  const std::size_t error_line = lines.offset_of(line0, 0);
  std::size_t least = spaces_from(text, error_line);
  for (int l = line0 - 1; l >= 0 && least > 0; --l) {
    const std::size_t s = lines.offset_of(l, 0);
    const std::size_t indent = spaces_from(text, s);
    if (white_line(text, s) || (s + indent < text.size() && text[s + indent] == '#')) continue;
    EntryWithProperties entry = entry_with_properties(text, s);
    if (entry.found && entry.indicator_column < least) return value_left_of_properties(text, entry, error_line);
    least = std::min(least, indent);
  }
  return {};
}

}  // namespace sandgate::detail
