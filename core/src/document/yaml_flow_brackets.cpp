#include "document/yaml_flow_brackets.h"

#include <algorithm>
#include <vector>

#include "document/yaml_quoted.h"
#include "util/text.h"

namespace sandgate::detail {
namespace {

constexpr std::size_t npos = std::string_view::npos;

// Past the lines of a block scalar whose header line is indented by `indent`: the rest of the
// header's line, then every empty line and every line indented more.
std::size_t block_scalar_end(std::string_view text, std::size_t header, std::size_t indent) {
  std::size_t i = text.find('\n', header);
  while (i != npos) {
    std::size_t next = i + 1;
    std::size_t spaces = leading_spaces(text.substr(next));
    std::size_t after = next + spaces;
    bool blank = after >= text.size() || text[after] == '\n' || text[after] == '\r';
    if (!blank && spaces <= indent) return i;
    i = text.find('\n', next);
  }
  return text.size();
}

struct OpenBracket {
  std::size_t at;
  // The first comment directly inside it that holds its closing bracket (`{cpu: "1", #note}`).
  std::size_t closer_in_comment = npos;
};

// The brackets of a text, read from its start one token at a time.
class BracketLexer {
 public:
  explicit BracketLexer(std::string_view text) : text_(text) {}

  std::size_t position() const { return i_; }
  bool at_end() const { return i_ >= text_.size(); }
  const std::vector<OpenBracket>& open() const { return open_; }
  // Whether the bracket opened at `watched` has been closed since watch() was called.
  void watch(std::size_t at) { watched_ = at; }
  bool watched_closed() const { return watched_closed_; }
  // False at a quoted value never closed: the text cannot be followed past it.
  bool readable() const { return readable_; }

  // Reads blanks, a comment or one token (at most a few characters past `i_`).
  void step() {
    const char c = text_[i_];
    if (c == '\n') {
      ++i_;
      indent_ = leading_spaces(text_.substr(i_));
      if (open_.empty()) prev_ = '\n';
      return;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i_;
      return;
    }
    if (c == '#' && (i_ == 0 || is_blank_or_break(text_[i_ - 1]))) {
      const std::size_t end = std::min(text_.find('\n', i_), text_.size());
      if (!open_.empty() && open_.back().closer_in_comment == npos &&
          text_.substr(i_, end - i_).find(text_[open_.back().at] == '[' ? ']' : '}') != npos) {
        open_.back().closer_in_comment = i_;
      }
      i_ = end;
      return;
    }
    constexpr std::string_view k_may_matter = "\"'[]{}|>#\n";
    if (k_may_matter.find(c) == npos) {
      // Plain text, most of what is read: on to the next character that may matter.
      prev_ = c;
      for (++i_; i_ < text_.size() && k_may_matter.find(text_[i_]) == npos; ++i_) {
        if (!is_blank_or_break(text_[i_])) prev_ = text_[i_];
      }
      return;
    }
    const bool after_blank = i_ > 0 && is_blank_or_break(text_[i_ - 1]);
    const bool token_start = open_.empty() ? prev_ == '\n' || ((prev_ == ':' || prev_ == '-' || prev_ == '?') && after_blank)
                                           : std::string_view("[{,:?]}").find(prev_) != npos;
    if (token_start && (c == '"' || c == '\'')) {
      const std::size_t close = closing_quote(text_, i_);
      if (close == npos) {
        readable_ = false;
        i_ = text_.size();
        return;
      }
      i_ = close + 1;
      prev_ = c;
      return;
    }
    if ((c == '[' || c == '{') && (token_start || !open_.empty())) {
      open_.push_back({i_});
    } else if ((c == ']' || c == '}') && !open_.empty()) {
      if (open_.back().at == watched_) watched_closed_ = true;
      open_.pop_back();
    } else if (open_.empty() && token_start && (c == '|' || c == '>')) {
      i_ = block_scalar_end(text_, i_, indent_);
      return;
    }
    prev_ = c;
    ++i_;
  }

  // Reads every token that starts before `limit`.
  void read_to(std::size_t limit) {
    while (i_ < limit && i_ < text_.size()) step();
  }

 private:
  std::string_view text_;
  std::size_t i_ = 0;
  std::vector<OpenBracket> open_;
  char prev_ = '\n';  // the last character of the last token: '\n' at a block line's start
  std::size_t indent_ = 0;
  std::size_t watched_ = npos;
  bool watched_closed_ = false;
  bool readable_ = true;
};

std::size_t line_number(std::string_view text, std::size_t offset) {
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

}  // namespace

bool inside_flow_collection(std::string_view text, std::size_t offset) {
  BracketLexer lex(text);
  lex.read_to(offset);
  return !lex.open().empty();
}

SyntaxExplanation explain_unclosed_flow(std::string_view text, std::size_t error_offset, const std::string& msg) {
  const bool list = msg == "end of sequence flow not found";
  if (!list && msg != "end of map flow not found") return {};
  BracketLexer lex(text);
  lex.read_to(error_offset);
  // A bracket at the error itself is the one when none is open before it (a `{` ending the text).
  if (lex.open().empty() && !lex.at_end() && lex.position() == error_offset &&
      (text[error_offset] == '[' || text[error_offset] == '{')) {
    lex.step();
  }
  if (!lex.readable() || lex.open().empty()) return {};
  const std::size_t open_at_error = lex.open().back().at;  // the innermost open where the parser stopped
  lex.watch(open_at_error);
  lex.read_to(text.size());
  if (!lex.readable() || lex.watched_closed() || text[open_at_error] != (list ? '[' : '{')) return {};
  std::size_t closer_in_comment = npos;
  for (const OpenBracket& o : lex.open()) {
    if (o.at == open_at_error) closer_in_comment = o.closer_in_comment;
  }
  std::string hint = list ? "close it with ']' after its last item" : "close it with '}' after its last entry";
  if (closer_in_comment != npos) {
    hint = std::string("the '") + (list ? ']' : '}') + "' on line " + std::to_string(line_number(text, closer_in_comment)) +
           " is inside a comment (a '#' after a space starts one): quote the value holding the '#', or close the " +
           (list ? "list" : "map") + " before the comment";
  }
  return {std::string("the YAML is malformed: the ") + (list ? "list that starts here with '['" : "map that starts here with '{'") +
              " is never closed",
          std::move(hint), open_at_error};
}

SyntaxExplanation explain_stray_flow_end(std::string_view text, std::size_t error_offset, const std::string& msg) {
  if (msg != "illegal flow end" || error_offset >= text.size()) return {};
  const char closer = text[error_offset];
  if (closer != ']' && closer != '}') return {};
  const char opener = closer == ']' ? '[' : '{';
  BracketLexer lex(text);
  lex.read_to(error_offset);
  if (!lex.readable() || lex.position() != error_offset) return {};  // the closer is inside a token
  const std::string shown = std::string("'") + closer + "'";
  if (lex.open().empty()) {
    return {"the YAML is malformed: this " + shown + " closes nothing: no '" + opener + "' before it is open",
            "remove it, or quote the value it belongs to", error_offset};
  }
  const std::size_t other = lex.open().back().at;
  if (text[other] == opener) return {};
  const bool map_open = text[other] == '{';
  return {"the YAML is malformed: this " + shown + " cannot close the " + (map_open ? "map" : "list") + " that '" +
              text[other] + "' opened on line " + std::to_string(line_number(text, other)) + ", which is still open",
          std::string("close the ") + (map_open ? "map with '}'" : "list with ']'") + " first, or quote the value that holds the " +
              shown,
          error_offset};
}

}  // namespace sandgate::detail
