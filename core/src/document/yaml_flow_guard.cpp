#include "document/yaml_flow_guard.h"

namespace sandgate::detail {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }  // a lone \r was rejected before
bool is_flow_indicator(char c) { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'; }

// n × factor + extra, without overflow for absurd limits.
std::size_t saturating(std::size_t n, std::size_t factor, std::size_t extra) {
  constexpr std::size_t k_max = static_cast<std::size_t>(-1) / 8;
  return n > k_max ? k_max : n * factor + extra;
}

class FlowLexer {
 public:
  FlowLexer(std::string_view text, const Limits& limits)
      : t_(text), max_depth_(static_cast<std::size_t>(limits.max_depth > 0 ? limits.max_depth : 0)),
        max_values_(saturating(limits.max_nodes, 1, 2)),
        max_extras_(saturating(limits.max_nodes, 4, 0)) {}

  FlowBreach run() {
    while (pos_ < t_.size() && breach_ == std::string_view::npos) block_line();
    FlowBreach out;
    out.cut = breach_;
    if (breach_ != std::string_view::npos) {
      for (auto it = open_.rbegin(); it != open_.rend(); ++it) out.closers += *it == '[' ? ']' : '}';
      out.closers += '\n';
    }
    return out;
  }

 private:
  // Where the next token of a block line stands.
  struct Context {
    long parent = -1;     // indentation a block scalar's lines must exceed
    long chain_col = -1;  // column of the key or node that started here (-2: the next token)
    bool after_indicator = false;  // the last token was `-`, `?` or `:`
  };

  std::string_view t_;
  std::size_t max_depth_;
  // Two lower bounds of the node count: keys are not nodes, and a `:` stands for at most one key,
  // so values − colons ≤ nodes, give or take the one key whose `:` is still to come; and every
  // `,` ends an entry that holds a node (`[,,]` holds nulls), so commas < nodes.
  std::size_t max_values_;
  // `?`, `:`, tags and anchors are not nodes either; a node has at most one of each, so four per
  // node is far beyond any sensible document. One that needs more costs a second parse (the
  // prefix shows no limit, so the loader parses the whole text), not a wrong answer.
  std::size_t max_extras_;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  std::size_t values_ = 0;
  std::size_t colons_ = 0;
  std::size_t commas_ = 0;
  std::size_t extras_ = 0;  // `?`, `:`, tags and anchors
  std::size_t breach_ = std::string_view::npos;
  std::string open_;  // the flow collections open at pos_, innermost last
  bool plain_open_ = false;  // the last line ended inside a plain scalar
  long plain_parent_ = -1;   // … whose continuation lines are indented deeper than this
  bool block_scalar_ = false;
  long block_parent_ = -1;
  bool pending_parent_set_ = false;  // the last line ended with an indicator
  long pending_parent_ = -1;

  char at(std::size_t i) const { return i < t_.size() ? t_[i] : '\n'; }
  bool blank_or_end(std::size_t i) const { return i >= t_.size() || is_blank(t_[i]) || t_[i] == '\n'; }
  long column() const { return static_cast<long>(pos_ - line_start_); }

  void skip_line() {
    while (pos_ < t_.size() && t_[pos_] != '\n') ++pos_;
    if (pos_ < t_.size()) ++pos_;
    line_start_ = pos_;
  }
  void newline() {
    ++pos_;
    line_start_ = pos_;
  }

  bool document_marker() const {
    std::string_view rest = t_.substr(pos_);
    return (rest.substr(0, 3) == "---" || rest.substr(0, 3) == "...") && blank_or_end(pos_ + 3);
  }

  void block_line() {
    line_start_ = pos_;
    std::size_t indent = 0;
    while (at(pos_ + indent) == ' ') ++indent;
    std::size_t first = pos_ + indent;
    while (first < t_.size() && is_blank(t_[first])) ++first;
    bool blank = first >= t_.size() || t_[first] == '\n';
    if (indent == 0 && document_marker()) {
      block_scalar_ = plain_open_ = pending_parent_set_ = false;
      if (t_[pos_] == '.') return skip_line();
      pos_ += 3;
      return tokens(Context{});
    }
    if (block_scalar_) {
      if (blank || static_cast<long>(indent) > block_parent_) return skip_line();
      block_scalar_ = false;
    }
    if (blank) return skip_line();  // blank lines neither end nor continue anything
    if (t_[first] == '#' || (indent == 0 && t_[first] == '%')) {
      plain_open_ = false;  // a comment ends a plain scalar; a directive line holds no nodes
      return skip_line();
    }
    pos_ = first;
    if (plain_open_ && static_cast<long>(indent) > plain_parent_) return continue_plain();
    plain_open_ = false;
    Context ctx;
    ctx.parent = pending_parent_set_ ? pending_parent_ : -1;
    ctx.chain_col = static_cast<long>(indent);
    pending_parent_set_ = false;
    tokens(ctx);
  }

  // A continuation line of a multi-line plain scalar: text, up to `: ` or ` #`.
  void continue_plain() {
    std::size_t end = scan_block_plain(pos_, /*first_char_taken=*/false);
    if (at(end) == ':') {
      plain_open_ = false;
      pos_ = end + 1;
      Context ctx;
      ctx.parent = ctx.chain_col = plain_parent_;
      ctx.after_indicator = true;
      return tokens(ctx);
    }
    if (at(end) != '\n') plain_open_ = false;  // a comment
    pos_ = end;
    skip_line();
  }

  void end_line(const Context& ctx) {
    if (ctx.after_indicator) {
      pending_parent_set_ = true;
      pending_parent_ = ctx.parent;
    }
    skip_line();
  }

  // The tokens of a block line, from a token start; flow collections and quoted scalars may
  // carry it over several lines.
  void tokens(Context ctx) {
    while (breach_ == std::string_view::npos) {
      while (pos_ < t_.size() && is_blank(t_[pos_])) ++pos_;
      char c = at(pos_);
      if (c == '\n' || c == '#') return end_line(ctx);
      if ((c == '-' || c == '?') && blank_or_end(pos_ + 1)) {
        ctx.parent = column();
        ctx.chain_col = -2;
        ctx.after_indicator = true;
        ++pos_;
        continue;
      }
      if (c == ':' && blank_or_end(pos_ + 1)) {
        if (ctx.chain_col == -2 || ctx.chain_col == column()) {
          // An explicit value (`: x` with no key before it on this line): like `? `, what follows
          // may itself be a key, so it starts a new chain.
          ctx.parent = column();
          ctx.chain_col = -2;
        } else {
          ctx.parent = ctx.chain_col;  // `key: value`: the value belongs to the key's mapping
        }
        ctx.after_indicator = true;
        ++pos_;
        continue;
      }
      if (ctx.chain_col == -2) ctx.chain_col = column();
      if (c == '!' || c == '&') {  // properties: the node follows
        skip_name();
        continue;
      }
      ctx.after_indicator = false;
      if (c == '[' || c == '{') {
        flow();
        continue;
      }
      if (c == '"' || c == '\'') {
        quoted(c);
        continue;
      }
      if (c == '*') {
        skip_name();
        continue;
      }
      if (c == '|' || c == '>') {
        block_scalar_ = true;
        block_parent_ = ctx.parent;
        return skip_line();
      }
      if (c == ',' || c == ']' || c == '}' || c == '%' || c == '@' || c == '`') {
        ++pos_;  // yaml-cpp rejects these here; nothing to count
        continue;
      }
      std::size_t end = scan_block_plain(pos_, /*first_char_taken=*/true);
      pos_ = end;
      if (at(end) == ':') {
        ctx.parent = ctx.chain_col;
        ctx.after_indicator = true;
        ++pos_;
        continue;
      }
      if (at(end) == '\n') {  // not a comment: the next lines may continue it
        plain_open_ = true;
        plain_parent_ = ctx.chain_col;
      }
      return skip_line();
    }
  }

  // A plain scalar in block context ends at `: `, at ` #` or at the end of the line. Returns the
  // offset of the `:`, of the blank before `#`, or of the line end.
  std::size_t scan_block_plain(std::size_t p, bool first_char_taken) const {
    if (first_char_taken) ++p;
    for (; p < t_.size() && t_[p] != '\n'; ++p) {
      if (t_[p] == ':' && blank_or_end(p + 1)) return p;
      if (is_blank(t_[p]) && at(p + 1) == '#') return p;
    }
    return p;
  }

  void skip_name() {
    if (at(pos_) == '!' && at(pos_ + 1) == '<') {  // verbatim tag: !<…>
      while (pos_ < t_.size() && t_[pos_] != '>' && t_[pos_] != '\n') ++pos_;
      if (at(pos_) == '>') ++pos_;
      return;
    }
    ++pos_;
    while (pos_ < t_.size() && !blank_or_end(pos_) && !is_flow_indicator(t_[pos_])) ++pos_;
  }

  void quoted(char quote) {
    ++pos_;
    while (pos_ < t_.size()) {
      char c = t_[pos_];
      if (c == '\n') {
        newline();
      } else if (quote == '"' && c == '\\') {
        pos_ += at(pos_ + 1) == '\n' ? 1 : 2;
      } else if (c == quote) {
        if (quote == '\'' && at(pos_ + 1) == '\'') {
          pos_ += 2;
        } else {
          ++pos_;
          return;
        }
      } else {
        ++pos_;
      }
    }
  }

  enum class Token { value, colon, comma, close, extra };

  // Counts one flow token; false when the prefix to parse ends before it. The prefix never ends
  // inside a token: an alias or a quote cut short is a syntax error, not a limit.
  bool count(Token kind) {
    bool too_many = false;
    switch (kind) {
      case Token::value: too_many = values_ >= colons_ + max_values_; break;
      case Token::comma: too_many = commas_ >= max_values_; break;
      case Token::colon:
      case Token::extra: too_many = extras_ >= max_extras_; break;
      case Token::close: break;
    }
    if (too_many) {
      breach_ = pos_;
      return false;
    }
    if (kind == Token::value) ++values_;
    if (kind == Token::comma) ++commas_;
    if (kind == Token::colon) ++colons_;
    if (kind == Token::colon || kind == Token::extra) ++extras_;
    return true;
  }

  // The kind of token at pos_ in a flow collection; `after_json_like` is true right after a
  // quoted scalar or a closing bracket, where `:` is always a value indicator.
  Token flow_token_kind(char c, bool after_json_like) const {
    switch (c) {
      case '[':
      case '{':
      case '"':
      case '\'':
      case '*':
        return Token::value;
      case ',':
        return Token::comma;
      case ']':
      case '}':
        return Token::close;
      case '!':
      case '&':
        return Token::extra;
      case '?':
        return blank_or_end(pos_ + 1) ? Token::extra : Token::value;
      case ':': {
        char next = at(pos_ + 1);
        bool indicator = after_json_like || blank_or_end(pos_ + 1) || next == ',' || next == ']' || next == '}';
        return indicator ? Token::colon : Token::value;
      }
      default:
        return Token::value;  // a plain scalar
    }
  }

  // One flow collection, from its `[` or `{` to the matching close, with yaml-cpp's flow rules.
  void flow() {
    std::size_t depth = 0;
    bool json_like = false;
    while (pos_ < t_.size() && breach_ == std::string_view::npos) {
      char c = t_[pos_];
      if (is_blank(c)) {
        ++pos_;
        continue;
      }
      if (c == '\n') {
        newline();
        continue;
      }
      if (c == '#') {  // yaml-cpp reads a comment at any token start
        while (pos_ < t_.size() && t_[pos_] != '\n') ++pos_;
        continue;
      }
      Token kind = flow_token_kind(c, json_like);
      if (!count(kind)) return;
      json_like = c == '"' || c == '\'' || c == ']' || c == '}';
      if (c == '[' || c == '{') {
        ++pos_;
        open_ += c;
        if (++depth > max_depth_) {
          breach_ = pos_;  // the prefix keeps this bracket: it is the level too many
          return;
        }
      } else if (c == ']' || c == '}') {
        ++pos_;
        open_.pop_back();
        if (--depth == 0) return;
      } else if (c == '"' || c == '\'') {
        quoted(c);
      } else if (c == '!' || c == '&' || c == '*') {
        skip_name();
      } else if (kind == Token::value) {
        pos_ = scan_flow_plain(pos_);
      } else {
        ++pos_;  // , ? :
      }
    }
  }

  // A plain scalar in a flow collection ends at one of ,?[]{}, at `:` before a blank or ,]},
  // or before a comment; it may go on over several lines.
  std::size_t scan_flow_plain(std::size_t p) {
    ++p;  // the first character belongs to it whatever it is
    while (p < t_.size()) {
      char c = t_[p];
      if (is_flow_indicator(c) || c == '?') return p;
      if (c == ':' && (blank_or_end(p + 1) || at(p + 1) == ',' || at(p + 1) == ']' || at(p + 1) == '}')) return p;
      if ((is_blank(c) || c == '\n') && at(p + 1) == '#') return p;
      if (c == '\n') line_start_ = p + 1;
      ++p;
    }
    return p;
  }
};

}  // namespace

FlowBreach find_flow_limit_breach(std::string_view text, const Limits& limits) {
  return FlowLexer(text, limits).run();
}

}  // namespace sandgate::detail
