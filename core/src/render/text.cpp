// Human output in the style of rustc and Elm: what is wrong, where (file:line:col), the source
// line with a caret under the value, and how to fix it. Colour only when asked (a TTY).
#include <algorithm>
#include <map>
#include <string_view>
#include <vector>

#include <fmt/color.h>
#include <fmt/format.h>

#include "sandgate/document.h"
#include "sandgate/render.h"
#include "util/text.h"

namespace sandgate {
namespace {

struct Style {
  bool color;
  std::string paint(std::string_view s, fmt::text_style st) const {
    return color ? fmt::format(st, "{}", s) : std::string(s);
  }
};

fmt::text_style severity_style(Severity s) {
  switch (s) {
    case Severity::error: return fmt::fg(fmt::terminal_color::bright_red) | fmt::emphasis::bold;
    case Severity::warning: return fmt::fg(fmt::terminal_color::bright_yellow) | fmt::emphasis::bold;
    case Severity::info: return fmt::fg(fmt::terminal_color::bright_cyan) | fmt::emphasis::bold;
  }
  return {};
}

// Line starts of each quoted source, found once per render: looking every diagnostic's line up
// from the start of the text made the text output quadratic (found through a slow fuzz_sandbox
// input: 90,000 diagnostics on as many lines took 27 s, against 2 s for --format json).
class LineCache {
 public:
  std::string_view line(std::string_view text, int line) {
    std::vector<std::size_t>& starts = starts_[text.data()];
    if (starts.empty()) {
      starts.push_back(0);
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') starts.push_back(i + 1);
      }
    }
    if (line < 1 || static_cast<std::size_t>(line) > starts.size()) return {};
    std::size_t start = starts[static_cast<std::size_t>(line) - 1];
    auto end = text.find('\n', start);
    std::string_view l = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    return l;
  }

 private:
  std::map<const char*, std::vector<std::size_t>> starts_;
};

// Byte offset of the 1-based code-point column `column` in `line`.
std::size_t byte_at_column(std::string_view line, int column) {
  std::size_t i = 0;
  for (int c = 1; c < column && i < line.size(); ++c) {
    ++i;
    while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

// How many code points the caret should cover: the token that starts at `from`.
int token_width(std::string_view line, std::size_t from) {
  if (from >= line.size()) return 1;
  // A NUL, another control character or a byte that is not UTF-8 is one column (displayable()
  // shows it as one symbol); binary text has no blanks to end a "token", and the caret ran to the
  // end of the line.
  bool is_nul = false;
  auto b = static_cast<unsigned char>(line[from]);
  if (b < 0x20 || b == 0x7F || find_invalid_utf8(line.substr(from, 4), is_nul) == 0) return 1;
  std::size_t end = from;
  char q = line[from];
  if (q == '{' || q == '[') {
    // A flow collection: up to its closing bracket when that is on this line, else the bracket.
    int depth = 0;
    char quote = 0;
    for (std::size_t i = from; i < line.size(); ++i) {
      char c = line[i];
      if (quote) {
        if (c == '\\' && quote == '"') ++i;
        else if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        end = i + 1;
        break;
      }
    }
    if (end == from) return 1;
  } else if (q == '"' || q == '\'') {
    end = line.find(q, from + 1);
    end = end == std::string_view::npos ? line.size() : end + 1;
  } else {
    auto blank = [&](std::size_t i) { return line[i] == ' ' || line[i] == '\t'; };
    while (end < line.size() && !blank(end) && line[end] != ',' && line[end] != '}' && line[end] != ']' &&
           line[end] != '#' && !(line[end] == ':' && (end + 1 == line.size() || blank(end + 1)))) {
      ++end;
    }
  }
  int width = 0;
  for (std::size_t i = from; i < end; ++i) {
    if (line[i] == '\t') width += 4;  // as displayable() shows it
    else if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++width;
  }
  return std::max(width, 1);
}

// The line as a terminal can show it: tabs as 4 spaces; a byte that is not UTF-8 as U+FFFD and a
// control character as its symbol (NUL as ␀), each still one column wide — the raw bytes made the
// output "binary" to grep and could move a terminal's cursor.
std::string displayable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  auto append_valid = [&](std::string_view part) {
    for (char c : part) {
      auto b = static_cast<unsigned char>(c);
      if (c == '\t') {
        out.append(4, ' ');
      } else if (b < 0x20 || b == 0x7F) {
        // U+2400 + b (U+2421 for DEL), in UTF-8.
        append_utf8(out, b == 0x7F ? 0x2421 : 0x2400 + b);
      } else {
        out.push_back(c);
      }
    }
  };
  while (!s.empty()) {
    bool is_nul = false;
    std::size_t bad = find_invalid_utf8(s, is_nul);
    if (bad >= s.size()) {
      append_valid(s);
      break;
    }
    append_valid(s.substr(0, bad + (is_nul ? 1 : 0)));  // a NUL is a control character like the others
    if (!is_nul) out += "\xEF\xBF\xBD";
    s.remove_prefix(bad + 1);
  }
  return out;
}

// The source line of `source` with a caret under its column; returns the gutter padding used.
std::string quote(std::string& out, const SourceLocation& source, const SourceTexts& sources, const Style& st, LineCache& lines,
                  fmt::text_style caret_style, char caret) {
  auto blue = fmt::fg(fmt::terminal_color::bright_blue) | fmt::emphasis::bold;
  std::string lineno = std::to_string(source.line);
  std::string pad(lineno.size(), ' ');
  out += pad + st.paint("--> ", blue) + fmt::format("{}:{}:{}\n", source.file, source.line, source.column);
  auto it = sources.find(source.file);
  if (it == sources.end()) return pad;
  std::string_view line = lines.line(it->second, source.line);
  std::size_t at = byte_at_column(line, source.column);
  // A long line (minified JSON) is shown as a window around the column, with "…" where it is
  // cut: quoting the whole line for each diagnostic made the output grow with diagnostics ×
  // line length (4,000 unknown keys on one 47 KB line printed 280 MB).
  constexpr std::size_t k_context = 100;
  std::string left_cut, right_cut;
  if (line.size() > 3 * k_context) {
    std::size_t from = at > k_context ? at - k_context : 0;
    std::size_t to = std::min(line.size(), at + k_context);
    while (from > 0 && (static_cast<unsigned char>(line[from]) & 0xC0) == 0x80) --from;
    while (to < line.size() && (static_cast<unsigned char>(line[to]) & 0xC0) == 0x80) ++to;
    if (from > 0) left_cut = "…";
    if (to < line.size()) right_cut = "…";
    line = line.substr(from, to - from);
    at -= from;
  }
  // Tabs are shown as 4 spaces, other bytes as displayable() shows them; the caret moves the same way.
  std::string before = left_cut + displayable(line.substr(0, at));
  int indent = 0;
  for (char c : before) indent += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  out += pad + st.paint(" |", blue) + "\n";
  out += st.paint(lineno + " |", blue) + " " + left_cut + displayable(line) + right_cut + "\n";
  out += pad + st.paint(" |", blue) + " " + std::string(static_cast<std::size_t>(indent), ' ') +
         st.paint(std::string(static_cast<std::size_t>(token_width(line, at)), caret), caret_style) + "\n";
  return pad;
}

void render_one(std::string& out, const Diagnostic& d, const SourceTexts& sources, const Style& st, LineCache& lines) {
  const CodeInfo& info = d.info();
  out += st.paint(to_string(d.severity), severity_style(d.severity));
  out += st.paint(fmt::format("[{}]", info.name), severity_style(d.severity));
  out += st.paint(": ", fmt::emphasis::bold);
  out += st.paint(d.message, fmt::emphasis::bold);
  out += "\n";
  auto blue = fmt::fg(fmt::terminal_color::bright_blue) | fmt::emphasis::bold;
  std::string pad = "  ";
  if (d.source && d.source->line > 0) {
    pad = quote(out, *d.source, sources, st, lines, severity_style(d.severity), '^');
  } else if (d.source) {
    out += "  " + st.paint("--> ", blue) + d.source->file + "\n";
  }
  std::string where = d.path.empty() ? "/" : d.path;
  std::string facts = fmt::format("at {}{} · rule {}", d.input.empty() ? "" : d.input + " ", where, info.rule);
  if (!info.reason.empty()) facts += " · " + std::string(info.reason);
  if (!info.grpc_code.empty()) facts += " · " + std::string(info.grpc_code);
  if (!info.python_exception.empty()) facts += " · " + std::string(info.python_exception);
  out += pad + st.paint(" = ", blue) + facts + "\n";
  if (!d.hint.empty()) out += pad + st.paint(" = help: ", blue) + d.hint + "\n";
  // The other side of the problem (SPEC §3 `related`): where the limit, the denied prefix or the
  // first occurrence is written, quoted like the main span, as rustc shows secondary spans.
  for (const auto& r : d.related) {
    auto green = fmt::fg(fmt::terminal_color::bright_green) | fmt::emphasis::bold;
    out += st.paint("note", green) + st.paint(": ", fmt::emphasis::bold) + r.message + "\n";
    std::string note_pad = "  ";
    if (r.source && r.source->line > 0) {
      note_pad = quote(out, *r.source, sources, st, lines, green, '-');
    } else if (r.source) {
      out += "  " + st.paint("--> ", blue) + r.source->file + "\n";
    }
    out += note_pad + st.paint(" = ", blue) + fmt::format("at {}{}", r.input.empty() ? "" : r.input + " ", r.path.empty() ? "/" : r.path) + "\n";
  }
  out += "\n";
}

}  // namespace

std::string render_text(const std::vector<Report>& reports, const SourceTexts& sources, const TextOptions& options) {
  Style st{options.color};
  std::string out;
  LineCache lines;
  for (const auto& rep : reports) {
    int errors = 0, warnings = 0, infos = 0;
    for (const auto& d : rep.result.diagnostics()) {
      if (d.severity == Severity::info && !options.show_info) continue;
      render_one(out, d, sources, st, lines);
      (d.severity == Severity::error ? errors : d.severity == Severity::warning ? warnings : infos)++;
    }
    std::vector<std::string> counts;
    if (errors) counts.push_back(fmt::format("{} error{}", errors, errors == 1 ? "" : "s"));
    if (warnings) counts.push_back(fmt::format("{} warning{}", warnings, warnings == 1 ? "" : "s"));
    if (infos && options.show_info) counts.push_back(fmt::format("{} note{}", infos, infos == 1 ? "" : "s"));
    std::string verdict = rep.result.ok() ? st.paint(rep.command == "policy validate" ? "valid" : "ok",
                                                   fmt::fg(fmt::terminal_color::bright_green) | fmt::emphasis::bold)
                                        : st.paint(rep.command == "policy validate" ? "invalid" : "rejected",
                                                   fmt::fg(fmt::terminal_color::bright_red) | fmt::emphasis::bold);
    std::string tail;
    for (std::size_t i = 0; i < counts.size(); ++i) tail += (i ? ", " : "") + counts[i];
    out += fmt::format("{}: {}{}\n", rep.file, verdict, tail.empty() ? "" : " (" + tail + ")");
  }
  return out;
}

std::string codes_to_markdown() {
  std::string out =
      "# Diagnostic codes\n\n"
      "<!-- Generated by `sandgate codes --format markdown` from core/include/sandgate/codes.def. Do not edit. -->\n\n"
      "Every diagnostic sandgate reports carries one of these codes. The table is the single source of\n"
      "the C++ enum, the Python and Node exception mapping, the TypeScript code union and this page.\n\n"
      "- **severity** is the default; a client rule (side `python` or `typescript`) is an error for the\n"
      "  client you send through (`--client`) and a warning for the other one.\n"
      "- **reason** and **gRPC** are what the server answers when it has them; `—` means the problem is\n"
      "  found before any request (the SDK raises, or the input is malformed).\n\n"
      "| code | rule | severity | reason | gRPC | Python exception | JS exception | side | meaning |\n"
      "|---|---|---|---|---|---|---|---|---|\n";
  auto cell = [](std::string_view s) { return s.empty() ? std::string("—") : "`" + std::string(s) + "`"; };
  for (const auto& c : all_codes()) {
    std::string summary(c.summary);
    std::string escaped;
    for (char ch : summary) escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
    out += fmt::format("| <a id=\"{0}\"></a>`{0}` | {1} | {2} | {3} | {4} | {5} | {6} | {7} | {8} |\n", c.name, c.rule,
                       to_string(c.severity), cell(c.reason), cell(c.grpc_code), cell(c.python_exception),
                       cell(c.js_exception), to_string(c.side), escaped);
  }
  return out;
}

}  // namespace sandgate
