// YAML front end: yaml-cpp's event API driving our own tree builder. We never use YAML::Load or
// YAML::LoadAll: LoadAll can loop forever on a 9-byte input, and neither gives us duplicate-key
// errors, YAML 1.1 typing, alias budgets or per-node positions.
#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include "document/load_notes.h"
#include "document/loaders.h"
#include "document/scalar_resolver.h"
#include "document/yaml_block_scalar.h"
#include "document/yaml_characters.h"
#include "document/yaml_errors.h"
#include "document/yaml_flow_guard.h"
#include "document/yaml_properties_indent.h"
#include "document/yaml_quoted.h"
#include "util/text.h"

namespace sandgate::detail {
namespace {

constexpr std::string_view k_core_tag_prefix = "tag:yaml.org,2002:";

// Thrown from inside the event handler to stop parsing when a limit is hit.
struct StopParsing : std::exception {};

// Every name that follows a `*` anywhere in the text: a superset of the aliases the document
// uses (yaml-cpp ends an alias name at white space or one of []{},). Only anchors named here
// are copied when they complete, so unused anchors cost nothing.
std::unordered_set<std::string> alias_names(std::string_view text) {
  std::unordered_set<std::string> names;
  for (std::size_t star = text.find('*'); star != std::string_view::npos; star = text.find('*', star + 1)) {
    std::size_t end = star + 1;
    while (end < text.size() && !is_blank_or_break(text[end]) &&
           std::string_view("[]{},").find(text[end]) == std::string_view::npos) {
      ++end;
    }
    if (end > star + 1) names.emplace(text.substr(star + 1, end - star - 1));
  }
  return names;
}

// The null word at `offset` (`~`, `null`, `Null`, `NULL`), or "" when the null was not written
// (an empty value, an empty document).
std::string_view null_word_at(std::string_view text, std::size_t offset) {
  for (std::string_view w : {"null", "Null", "NULL", "~"}) {
    if (text.substr(offset, w.size()) != w) continue;
    std::size_t end = offset + w.size();
    if (end == text.size() || is_blank_or_break(text[end]) ||
        std::string_view(",]}:#").find(text[end]) != std::string_view::npos) {
      return w;
    }
  }
  return {};
}

// yaml-cpp 0.7 decodes the escapes \N and \_ to the single bytes 0x85 and 0xA0 instead of the
// UTF-8 of U+0085 and U+00A0, so a valid document gave values that are not UTF-8 (found by
// fuzz_policy_json, through auto-detection: `"\N…"` rendered as JSON no longer read as JSON or
// YAML). The text was checked to be UTF-8 before parsing, so an invalid byte in a value can only
// come from these escapes. False when `value` needed nothing.
bool repair_nel_nbsp_escapes(const std::string& value, std::string& out) {
  std::string_view rest(value);
  bool changed = false;
  out.clear();
  for (;;) {
    bool is_nul = false;
    std::size_t bad = find_invalid_utf8(rest, is_nul);
    if (bad == std::string_view::npos) break;
    out.append(rest.substr(0, bad));
    unsigned char c = static_cast<unsigned char>(rest[bad]);
    if (!is_nul && (c == 0x85 || c == 0xA0)) {
      out += '\xC2';
      changed = true;
    }
    out += rest[bad];
    rest.remove_prefix(bad + 1);
  }
  out.append(rest);
  return changed;
}

class TreeBuilder : public YAML::EventHandler {
 public:
  TreeBuilder(std::string_view text, const LineIndex& lines, const Limits& limits, DiagnosticSink& sink,
              LoadNotes& notes)
      : text_(text), lines_(lines), limits_(limits), sink_(sink), notes_(notes), referenced_(alias_names(text)) {}

  Node take_root() { return std::move(root_); }
  bool has_root() const { return has_root_; }
  const YAML::Mark& document_start() const { return doc_start_; }
  // Where the document's written content starts and ends, as far as its events tell: from the first
  // event's mark to past the last one (past a quoted scalar's closing quote). npos, 0 when none.
  std::size_t content_start() const { return content_start_; }
  std::size_t content_end() const { return content_end_; }
  bool limit_hit() const { return limit_hit_; }

  void OnDocumentStart(const YAML::Mark& mark) override { doc_start_ = mark; }
  void OnDocumentEnd() override {}

  // Called just before the node that carries the anchor.
  void OnAnchor(const YAML::Mark& mark, const std::string& name) override {
    SyntaxExplanation e = explain_anchor_name(name, 0);
    // YAML 1.2 and yaml-cpp let a second `&v` stand for the aliases after it; PyYAML refuses the text.
    if (e.message.empty() && !anchor_names_.insert(name).second) {
      e = {"the YAML is malformed: the anchor " + shown_text("&" + name) + " is defined twice, which YAML readers disagree on",
           "give each anchor its own name"};
    }
    if (!e.message.empty()) {
      // The event is marked at the node's first property; the anchor may stand after a tag.
      std::size_t from = mark.is_null() ? 0 : lines_.offset_of(mark.line, mark.column);
      std::size_t amp = text_.find("&" + name, from);
      // An anchor on a key names the map the key is in (path() would add an empty key).
      fail_at(expecting_key() ? path_to(stack_.size() - 1) : path(), Code::SYNTAX,
              amp == std::string_view::npos ? to_mark(mark) : lines_.at_offset(amp), std::move(e.message), std::move(e.hint));
    }
    next_anchor_referenced_ = referenced_.count(name) > 0;
  }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Node n;
    n.kind = NodeKind::null;
    n.style = ScalarStyle::plain;
    n.mark = to_mark(mark);
    // Keep the word as written: `null:` and `~:` are keys "null" and "~", and an empty document
    // (nothing written) can be told from an explicit `null`.
    std::size_t offset = lines_.offset_of(mark.line, mark.column);
    // yaml-cpp marks the missing value of a last line without a `:` (`~` or `null` alone after
    // `a: 1`) at its key: that key's word is not the value's.
    bool at_its_key = !expecting_key() && !stack_.empty() && stack_.back().node.is_object() && stack_.back().key_at == offset;
    // The event is marked at the node's first property: `&a null:` is the key "null".
    std::size_t word = offset;
    if (offset < text_.size() && (text_[offset] == '&' || text_[offset] == '!')) {
      std::size_t after = skip_properties(offset);
      if (text_.substr(offset, after - offset).find('\n') == std::string_view::npos) word = after;
    }
    if (!at_its_key) n.text = std::string(null_word_at(text_, word));
    if (n.text.empty()) {
      // Properties on nothing (`!<>&a`, `!!null`) are held to the glued-tag rule as a value's are.
      if (offset < text_.size() && (text_[offset] == '!' || text_[offset] == '&')) skip_properties(offset);
      // yaml-cpp drops the empty verbatim tag `!<>` here too (OnScalar has the case of a value).
      if (text_.substr(offset, 3) == "!<>") bad_tag("!<>", n.mark, scalar_path(n.text));
      if (std::size_t after = after_indicator(offset); after != std::string_view::npos) n.mark = lines_.at_offset(after);
      if (!expecting_key()) check_key_has_colon();
      check_explicit_key_written(offset);
      check_key_written(offset);
      check_flow_entry_written(offset);
    }
    if (!n.text.empty()) saw(word, word + n.text.size());
    key_at_ = offset;
    emit_scalar(std::move(n), anchor);
  }

  // A key of a block mapping with no value written must still have its `:` on its own line
  // (implicit keys are one line long). yaml-cpp 0.7 takes a last line without one (`b` after
  // `a: 1`) as a key with an empty value; PyYAML and the YAML spec reject it. A key written with
  // `?` needs no `:`.
  void check_key_has_colon() {
    if (stack_.empty()) return;  // the document itself is empty
    const Frame& f = stack_.back();
    // A dropped key (a collection, a merge key, a duplicate) is reported already, and a collection
    // key leaves no scalar key to point at.
    if (!f.node.is_object() || !f.block || f.drop_value || f.key_at >= text_.size()) return;
    if (after_explicit_key_indicator(f.key_at)) return;
    for (std::size_t i = f.key_at; i < text_.size() && text_[i] != '\n' && text_[i] != '\r'; ++i) {
      if (text_[i] == ':' && (i + 1 == text_.size() || is_blank_or_break(text_[i + 1]))) return;
    }
    if (std::string glued = glued_colon_fix(f.key); !glued.empty()) {
      fail(Code::SYNTAX, f.key_mark,
           "the YAML is malformed: " + shown_text(f.key) + " is one value to YAML, not a key and its value: its ':' has no space after it",
           "write " + shown_text(glued));
    }
    fail(Code::SYNTAX, f.key_mark, "the YAML is malformed: " + shown_text(f.key) + " has no ':' after it, so it is neither a key with a value nor a list item",
         "write " + shown_text(f.key + ":") + " with its value, or \"- \" before it for a list item");
  }

  // Where the content of the node whose event is marked at `at` starts: past its tag and anchor
  // (an event's mark is at them when it has them: `!!str "x`, `&a "x`). yaml-cpp ends a tag at a
  // `"`, `{`, `[`, `|`, `>` or `\` and reads `!"2"` as `! "2"`, `!{a: 1}` as `! {a: 1}` and `!!str|`
  // as `!!str |`; YAML needs a space between a tag and its value (a tag has no such character), and
  // PyYAML rejects the text.
  [[noreturn]] void fail_glued_tag(std::size_t at) {
    fail(Code::SYNTAX, lines_.at_offset(at), "the YAML is malformed: a tag must be followed by a space before its value",
         "write a space after the tag, or remove the tag");
  }
  std::size_t skip_properties(std::size_t at) {
    while (at < text_.size() && (text_[at] == '!' || text_[at] == '&')) {
      if (text_[at] == '!') {
        if (at + 1 < text_.size() && text_[at + 1] == '<') {
          // A verbatim tag, `!<tag:yaml.org,2002:str>`, holds its own `>`; nothing may follow it.
          if (std::size_t close = text_.find('>', at); close != std::string_view::npos) {
            at = close + 1;
            if (at < text_.size() && !is_blank_or_break(text_[at]) && text_[at] != ',' && text_[at] != ']' && text_[at] != '}') {
              fail_glued_tag(at);
            }
          }
        }
        for (; at < text_.size() && !is_blank_or_break(text_[at]) && text_[at] != ',' && text_[at] != ']' && text_[at] != '}'; ++at) {
          if (text_[at] == '"' || text_[at] == '{' || text_[at] == '[' || text_[at] == '|' || text_[at] == '>' ||
              text_[at] == '\\') {
            fail_glued_tag(at);
          }
        }
      } else {
        while (at < text_.size() && !is_blank_or_break(text_[at])) ++at;
      }
      while (at < text_.size() && is_blank_or_break(text_[at])) ++at;
    }
    return at;
  }

  // The value of a block mapping key, when it starts on a later line, must be indented more than
  // its key (a block list, `- `, may stand at the key's column). yaml-cpp 0.7 also takes a flow
  // collection, quoted scalar or alias at the key's column or left of it (`runner_ids:` then
  // `[a]` below it) as the value; PyYAML and the YAML spec reject that text.
  void check_value_indented(std::size_t offset) {
    if (!value_below_its_key(offset)) return;
    const Frame& f = stack_.back();
    fail(Code::SYNTAX, lines_.at_offset(offset),
         "the YAML is malformed: the value of " + shown_text(f.key) +
             " starts on the next line without being indented more than its key",
         "indent the value, or write it after " + shown_text(f.key + ":") + " on the key's line");
  }
  bool value_below_its_key(std::size_t offset) const {
    if (stack_.empty()) return false;
    const Frame& f = stack_.back();
    if (!f.node.is_object() || !f.block || f.expecting_key || f.drop_value || f.key_at >= offset || offset > text_.size()) return false;
    std::size_t value_line = line_start(offset);
    if (value_line <= f.key_at) return false;  // on the key's line
    // A key written with `?` has its `:` on a line of its own, which the value may follow.
    if (after_explicit_key_indicator(f.key_at)) return false;
    std::size_t key_line = line_start(f.key_at);
    return offset - value_line <= f.key_at - key_line;
  }
  void check_collection_start(std::size_t offset, YAML::EmitterStyle::value style) {
    skip_properties(offset);
    // A block collection's tag or anchor on a line of its own (`a:`, `&x`, `  b: 1`) stands where
    // its value does: yaml-cpp took it at the key's column, PyYAML refuses it there.
    bool properties = offset < text_.size() && (text_[offset] == '!' || text_[offset] == '&');
    if (style != YAML::EmitterStyle::Block || properties) check_value_indented(offset);
  }
  std::size_t line_start(std::size_t offset) const {
    std::size_t i = offset;
    while (i > 0 && text_[i - 1] != '\n' && text_[i - 1] != '\r') --i;
    return i;
  }

  // A `:` that starts an entry of a mapping has no key. YAML 1.2 reads an empty key there,
  // yaml-cpp too; PyYAML (YAML 1.1) and Kubernetes' go-yaml reject the text. In a block mapping it
  // is nearly always a key whose `:` slipped onto the next line (`user-id` then `: "1000"`); inside
  // { } or [ ], a key lost to a typo (`{cpu,: "1"}` was {"cpu": null, "": "1"}). An empty key means
  // nothing to sandgate. A key written with `?` (`? ` then `: value`) is not empty and is not seen
  // here.
  void check_key_written(std::size_t offset) {
    if (!expecting_key() || offset >= text_.size() || text_[offset] != ':') return;
    if (after_explicit_key_indicator(offset)) return;
    fail_at(path_to(stack_.size() - 1), Code::SYNTAX, lines_.at_offset(offset),
            "the YAML is malformed: this ':' has no key before it",
            stack_.back().block ? "write the key and its ':' on one line" : "write the key before the ':'");
  }

  // A `?` with nothing after it on its line is an empty key (YAML's null). sandgate's documents
  // need string keys, and yaml-cpp 0.7 misreads `?` then `: v` on the next line as a map {null: v}
  // used as the key, which would be told as "an object or list is used as a key". Called for a
  // key's empty scalar and for a block map that starts with `:` where a key is expected.
  void check_explicit_key_written(std::size_t offset) {
    if (!expecting_key() || offset > text_.size()) return;
    // `? ` ending the text: yaml-cpp marks the empty key at the `?` itself.
    bool at_indicator = question_mark_ends_text(text_, offset);
    if (!at_indicator && !after_explicit_key_indicator(offset)) return;
    SyntaxExplanation e = empty_explicit_key(at_indicator ? offset : blank_or_comment_run_start(offset) - 1);
    fail_at(path_to(stack_.size() - 1), Code::SYNTAX, lines_.at_offset(e.at), std::move(e.message), std::move(e.hint));
  }

  // Whether the properties in [from, to) hold the non-specific tag `!` on its own.
  bool non_specific_tag_written(std::size_t from, std::size_t to) const {
    for (std::size_t i = from; i < to && i < text_.size(); ++i) {
      bool starts = i == from || is_blank_or_break(text_[i - 1]);
      if (starts && text_[i] == '!' && (i + 1 == text_.size() || is_blank_or_break(text_[i + 1]) || i + 1 == to)) return true;
    }
    return false;
  }

  [[noreturn]] void fail_tag_on_nothing(Mark m) {
    fail(Code::SYNTAX, m, "the YAML is malformed: this '!' tags an empty value",
         "remove the '!', or write the value after it with a space (! \"text\")");
  }

  // `! 17` and `! "17"`: the non-specific tag makes a scalar a string to YAML 1.2 and yaml-cpp, but
  // PyYAML types the text as if plain (17, true, null, the merge key `<<`) whether quoted or not.
  void check_non_specific_tag(const std::string& value, Mark m) {
    Node plain;
    resolve_plain_scalar(value, plain);
    bool merge = value == "<<";  // PyYAML's resolver makes it the merge key
    if ((plain.is_string() && !merge) || !note_room(Code::YAML_TAG, m)) return;
    const char* kind = merge ? "a merge key" : plain.is_bool() ? "a boolean" : plain.is_null() ? "null" : "a number";
    notes_.add(Code::YAML_TAG, scalar_path(value), m,
               "the tag '!' makes " + shown_text(value) + " a string to yaml-cpp (YAML 1.2) and " + kind + " to PyYAML",
               "remove the '!': quote the value for a string, or leave it unquoted for " + std::string(kind));
  }

  // `- &a |` (yaml_properties_indent.h): a block whose tag or anchor follows `- `, `? ` or `: ` at
  // its line's start, read by yaml-cpp with its indentation counted from the tag; `header` is the
  // `|` or `>`, after the properties that start at key_at_.
  void check_block_after_properties(std::size_t header) {
    std::size_t start = line_start(key_at_);
    EntryWithProperties entry = entry_with_properties(text_, start);
    if (!entry.found || entry.value != header) return;  // the tag on a line of its own: read alike
    SyntaxExplanation e = value_left_of_properties(text_, entry, std::string_view::npos);
    if (!e.message.empty()) fail(Code::SYNTAX, lines_.at_offset(e.at), std::move(e.message), std::move(e.hint));
  }

  // A `>` block's value, checked against its text (yaml_block_scalar.h): a `>+` block's line breaks
  // at its end are counted from the text (yaml-cpp drops one when empty lines close the block);
  // `value` itself when it needs nothing, else `fixed`.
  const std::string* check_folded_block(std::size_t header, const std::string& value, std::string& fixed) {
    BlockScalarHeader h = read_block_scalar_header(text_, header);
    if (h.keep && h.indentation_indicator != 0) {
      // The digit makes the indentation depend on the enclosing collection's, which the count
      // below does not follow; a `>` block kept whole and so indented is refused instead.
      fail(Code::SYNTAX, lines_.at_offset(header),
           "this '>' block has both '+' and an indentation digit, a form YAML readers end differently "
           "when empty lines close the block",
           "drop the digit (the block's first line then sets its indentation), or write the block with '|+'");
    }
    if (h.indentation_indicator != 0) return &value;
    BlockLines lines = read_block_lines(text_, header);
    if (!lines.has_content) return &value;  // empty lines only: read alike
    if (lines.ends_in_white_line) {
      fail(Code::SYNTAX, lines_.at_offset(text_.size()),
           "this '>' block ends the text with a line of spaces and no line break, which yaml-cpp folds into the "
           "value as a space where other YAML readers ignore the line",
           "end the file with a line break, or remove the spaces on its last line");
    }
    std::size_t body = value.find_last_not_of('\n');
    if (!h.keep || body == std::string::npos || value.size() - body - 1 == lines.final_breaks) return &value;
    fixed.assign(value, 0, body + 1);
    fixed.append(lines.final_breaks, '\n');
    return &fixed;
  }

  // Inside [ ] or { } a plain value may start with `:` in YAML 1.2 (yaml-cpp reads `{? :x}` as the
  // key ":x"), where PyYAML reads that `:` as a key's (the empty key, and "x" its value) or fails.
  // `at`: where the value's text starts, past its tag and anchor (`[&a :x]` is marked at the `&`).
  void check_flow_plain_start(std::size_t at) {
    if (stack_.empty() || stack_.back().block || at >= text_.size() || text_[at] != ':') return;
    fail(Code::SYNTAX, lines_.at_offset(at), "the YAML is malformed: a value inside [ ] or { } starts with ':', which YAML readers "
                          "disagree on (YAML 1.2 reads it as part of the value, PyYAML as a key's ':')",
         "quote the value");
  }

  // A key after a `?` on a later line must be indented more than the `?`: `? # note` then `name`
  // below it at the `?`'s column is an empty key and then a line without a `:` to YAML and PyYAML;
  // yaml-cpp 0.7 took `name` as the key. (Left of the `?` the line would end the `?`'s mapping.)
  void check_explicit_key_indented(std::size_t offset, int line0) {
    // Cheap tests first, as this runs for every key: the key starts its line, and the line above it
    // ends in a `?` or holds a comment.
    std::size_t own_line = offset;  // walked back over the indentation only, not the whole line
    while (own_line > 0 && (text_[own_line - 1] == ' ' || text_[own_line - 1] == '\t')) --own_line;
    if (own_line == 0 || (text_[own_line - 1] != '\n' && text_[own_line - 1] != '\r')) return;
    std::size_t before = blank_run_start(own_line);
    if (before == 0) return;
    // The start of the line holding before - 1, from the line index (walking the line back would
    // cost its length for every key).
    int l = line0 - 1;
    while (l > 0 && lines_.offset_of(l, 0) > before - 1) --l;
    std::size_t above = lines_.offset_of(l, 0);
    if (text_[before - 1] != '?' && text_.substr(above, before - above).find('#') == std::string_view::npos) return;
    if (!after_explicit_key_indicator(offset)) return;
    std::size_t question = blank_or_comment_run_start(offset) - 1;
    std::size_t key_line = line_start(offset);
    // At the `?`'s column exactly: a line of a block scalar or a plain one continued can end in a
    // `?` too, and is indented more than the keys that follow it.
    if (key_line <= question || offset - key_line != question - line_start(question)) return;
    fail_at(path_to(stack_.size() - 1), Code::SYNTAX, lines_.at_offset(offset),
            "the YAML is malformed: the key after the '?' above starts on a later line without being indented more "
            "than the '?'",
            "write the key on the '?' line (\"? name\"), or indent it");
  }

  // An entry of a flow collection must be written: yaml-cpp 0.7 reads `[a,,b]` and `[,a]` as lists
  // with a null in the gap, and `{a: 1, , b: 2}` as a map with an empty key, where PyYAML and the
  // YAML spec reject them (a trailing comma, `[a, b,]`, is allowed, and yaml-cpp adds nothing for
  // it; an empty key written with its `:`, `{: v}`, is check_key_written's).
  void check_flow_entry_written(std::size_t offset) {
    if (stack_.empty() || stack_.back().block) return;
    const Frame& f = stack_.back();
    bool list = f.node.is_array();
    if (!list && !(f.node.is_object() && f.expecting_key)) return;
    // An anchor or a tag with nothing after it (`[&a]`, `[!!null]`) is a written, empty node: the
    // event's mark is at that property.
    if (offset < text_.size() && (text_[offset] == '&' || text_[offset] == '!')) return;
    // A comment may stand in the gap (`[# note` then `, a]`).
    std::size_t i = blank_or_comment_run_start(offset, true);
    if (i == 0 || (text_[i - 1] != ',' && text_[i - 1] != (list ? '[' : '{'))) return;
    // yaml-cpp gives a plain key that runs over two lines (`{a: 1, b` then `c}`) no key event of
    // its own: an implicit key is one line long, so it reads "b c" as the value of an empty key.
    // PyYAML reads the key "b c". The entry is written; what is wrong is where it breaks.
    if (!list && offset < text_.size() && text_[offset] != ',' && text_[offset] != '}') {
      fail_at(path_to(stack_.size() - 1), Code::SYNTAX, lines_.at_offset(offset),
              "the YAML could not be read: a key inside { } runs over more than one line, and the YAML reader sandgate uses "
              "(yaml-cpp 0.7) then reads it as a value with no key",
              "write the key on one line");
    }
    std::size_t at = offset < text_.size() && text_[offset] == ',' ? offset : i - 1;
    // A missing key names its map; a missing list entry, the index it would have had.
    fail_at(list ? path() : path_to(stack_.size() - 1), Code::SYNTAX, lines_.at_offset(at),
         list ? "the YAML is malformed: a list entry is empty (two commas in a row, or one after [)"
              : "the YAML is malformed: a map entry is empty (two commas in a row, or one after {)",
         list ? "remove the extra comma, or write null for an empty entry" : "remove the extra comma");
  }

  // Where the white space (line breaks included) that ends at `offset` starts: the offset right
  // after the token before it, 0 when there is none.
  std::size_t blank_run_start(std::size_t offset) const {
    std::size_t i = std::min(offset, text_.size());
    while (i > 0 && is_blank_or_break(text_[i - 1])) --i;
    return i;
  }

  // Where the white space and comments before `offset` start: `? # the key` then the key on the
  // next line puts a comment between the indicator and its key.
  std::size_t blank_or_comment_run_start(std::size_t offset, bool flow = false) const {
    std::size_t i = blank_run_start(offset);
    while (i > 0) {
      std::size_t hash = comment_start(line_start(i - 1), i, flow);
      if (hash == std::string_view::npos) break;
      i = blank_run_start(hash);
    }
    return i;
  }
  // The `#` that starts a comment in the line text [from, to), or npos: one at the line's start or
  // after a blank.
  // Inside `[ ]` or `{ }` (`flow`), a `#` right after `[`, `{` or `,` starts one too: those end
  // any token there, and both readers take `[#c` as a comment.
  // Quotes need no tracking: events come in the text's order, so every quoted value before `to`
  // has been read, and a line holding the last one is scanned from its end (which also skips a
  // value over several lines). A quote after that is inside a plain value (`x 'y # c`: the value
  // "x 'y", then a comment) or inside the comment.
  std::size_t comment_start(std::size_t from, std::size_t to, bool flow = false) const {
    const bool in_quote_at_start = from < last_quote_end_ && last_quote_end_ <= to;
    if (in_quote_at_start) from = last_quote_end_;
    for (std::size_t i = from; i < to; ++i) {
      if (text_[i] == '#' && ((i == from && !in_quote_at_start) || is_blank_or_break(text_[i - 1]) ||
                              (flow && (text_[i - 1] == '[' || text_[i - 1] == '{' || text_[i - 1] == ',')))) {
        return i;
      }
    }
    return std::string_view::npos;
  }

  // Whether the token at `offset` follows a `?` (a key written as `? key`, whose `:` may stand on
  // a line of its own).
  bool after_explicit_key_indicator(std::size_t offset) const {
    std::size_t before = blank_or_comment_run_start(offset);
    if (before == 0 || text_[before - 1] != '?') return false;
    // The indicator stands alone: at a line's start or indentation, or after `{`, `[` or `,`
    // (a `?` that ends a plain scalar, `a: what?`, is part of it).
    std::size_t q = before - 1;
    if (q == 0) return true;
    char c = text_[q - 1];
    return is_blank_or_break(c) || c == '{' || c == '[' || c == ',';
  }

  // yaml-cpp marks a value that was not written (`key:` then a newline) at the next token, often
  // lines further down. Where only white space separates it from its `:`, `-` or `?`, the value
  // belongs right after that indicator. npos when something else (a comment) is in between.
  std::size_t after_indicator(std::size_t offset) const {
    std::size_t i = blank_run_start(offset);
    if (i == 0 || i == offset) return std::string_view::npos;
    char c = text_[i - 1];
    return c == ':' || c == '-' || c == '?' ? i : std::string_view::npos;
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Mark m = to_mark(mark);
    key_at_ = mark.is_null() ? 0 : lines_.offset_of(mark.line, mark.column);
    if (!mark.is_null()) {
      saw(key_at_, key_at_ + 1);
      check_value_indented(key_at_);
    }
    if (++alias_uses_ > limits_.max_alias_uses) {
      fail(Code::YAML_ALIAS_LIMIT, m,
           "the document uses more than " + std::to_string(limits_.max_alias_uses) + " YAML aliases",
           "expand the repeated values, or raise the alias limit");
    }
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      fail(Code::SYNTAX, m, "an alias refers to an anchor that is not complete yet (a node cannot contain itself)");
    }
    if (!it->second.kept) fail(Code::SYNTAX, m, "an alias refers to an anchor that sandgate did not keep");
    // A copy is placed without open events: the depth limit has to be checked here, or aliases
    // of nested anchors would stack 64 levels on 64 levels.
    if (stack_.size() + it->second.height > static_cast<std::size_t>(limits_.max_depth)) {
      fail(Code::DOC_TOO_DEEP, m,
           "an alias expands to objects and lists nested deeper than " + std::to_string(limits_.max_depth) + " levels",
           "flatten the document, or raise the depth limit");
    }
    count_nodes(it->second.size, m);
    alias_bytes_ += it->second.bytes;
    if (alias_bytes_ > limits_.max_bytes) {
      fail(Code::YAML_ALIAS_LIMIT, m,
           "aliases expand the document by more than " + std::to_string(limits_.max_bytes) + " bytes of text",
           "expand fewer or smaller values");
    }
    text_bytes_ += it->second.bytes;
    Node copy = it->second.node;
    copy.mark = m;
    place(std::move(copy), it->second.height);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& raw_value) override {
    std::string repaired, decoded;
    bool has_high = std::any_of(raw_value.begin(), raw_value.end(), [](char c) { return (c & 0x80) != 0; });
    const std::string* read = has_high && repair_nel_nbsp_escapes(raw_value, repaired) ? &repaired : &raw_value;
    Node n;
    n.mark = to_mark(mark);
    key_at_ = mark.is_null() ? 0 : lines_.offset_of(mark.line, mark.column);
    if (!mark.is_null()) {
      saw(key_at_, key_at_ + 1);
      check_value_indented(key_at_);
      if (expecting_key()) check_explicit_key_indented(key_at_, mark.line);
    }
    bool bang = false;  // a `!` written alone before the value (yaml-cpp's tag is "!" for any quoted scalar too)
    std::size_t at = key_at_;  // where the value's own text starts
    if (tag != "?" && !mark.is_null()) {
      at = skip_properties(key_at_);
      bang = non_specific_tag_written(key_at_, at);
      // `key: !` ending its line: yaml-cpp takes the next line's key as the tagged value.
      if (at != key_at_ && bang && value_below_its_key(at)) fail_tag_on_nothing(n.mark);
      if (at != key_at_) check_value_indented(at);  // `key: !!str` with the value on the next line
      std::size_t quote_escape = std::string_view::npos;
      std::size_t close = 0;  // the closing quote of a quoted value; 0 for any other
      if (at < text_.size() && (text_[at] == '"' || text_[at] == '\'')) {
        close = closing_quote(text_, at, &quote_escape);
        if (close == std::string_view::npos) {
          // yaml-cpp 0.7 ends an unclosed quoted scalar at the end of the text when the text ends
          // with a line break, and reads all that follows the quote as its value: one missing `"`
          // swallowed the rest of the file silently (`image: "python:3.11` then
          // `max_lifetime_seconds: 60` became one string).
          fail(Code::SYNTAX, lines_.at_offset(at), "the YAML is malformed: the quoted string that starts here is never closed, so it runs to the end of the text",
               std::string("close it with ") + (text_[at] == '"' ? "\"" : "'") + " where the value ends");
          close = 0;
        }
      }
      if (close > 0) {
        saw(at, close + 1);
        last_quote_end_ = close + 1;
        std::string_view inside = text_.substr(at + 1, close - at - 1);
        if (inside.find('\n') != std::string_view::npos && decode_multiline_quoted(inside, text_[at], decoded)) read = &decoded;
      }
      // `a: !` and `{!}`: yaml-cpp reads the non-specific tag on nothing as the string "" (YAML 1.2's
      // reading), where PyYAML refuses the text; an empty string written so is nearly always a
      // tag's `!` typed by mistake.
      bool block_scalar = at < text_.size() && (text_[at] == '|' || text_[at] == '>');
      if (bang && read->empty() && close == 0 && !block_scalar) fail_tag_on_nothing(n.mark);
      if (block_scalar && at != key_at_) check_block_after_properties(at);
      if (block_scalar && text_[at] == '>') read = check_folded_block(at, *read, decoded);
      if (quote_escape != std::string_view::npos) {
        fail(Code::SYNTAX, lines_.at_offset(quote_escape), "the YAML is malformed: \\' is not an escape in YAML",
             "write ' without the backslash: inside \"…\" it needs none");
      }
    }
    const std::string& value = *read;
    if (tag == "?" && !mark.is_null() && key_at_ < text_.size() && text_[key_at_] == '!') {
      // A tag yaml-cpp dropped (the empty verbatim tag `!<>`): PyYAML refuses it.
      std::size_t end = key_at_;
      while (end < text_.size() && !is_blank_or_break(text_[end])) ++end;
      bad_tag(std::string(text_.substr(key_at_, end - key_at_)), n.mark, scalar_path(value));
    }
    if (tag == "?" && !mark.is_null() && key_at_ < text_.size() && text_[key_at_] == '&') at = skip_properties(key_at_);
    if (!mark.is_null()) check_flow_plain_start(at);
    if (tag == "?") {
      resolve_plain_scalar(value, n);
    } else if (tag == "!") {
      n.kind = NodeKind::string;
      n.style = ScalarStyle::quoted;
      n.text = value;
      if (bang) check_non_specific_tag(value, n.mark);
    } else if (tag.rfind(k_core_tag_prefix, 0) == 0) {
      resolve_core_tag(tag, value, n);
    } else {
      bad_tag(tag, n.mark, scalar_path(value));
      n.kind = NodeKind::string;
      n.style = ScalarStyle::quoted;
      n.text = value;
    }
    // An escape ("\0", "\x00") can put a NUL into a value although the text has none.
    if (value.find('\0') != std::string::npos && note_room(Code::NUL_BYTE, n.mark)) {
      notes_.add(Code::NUL_BYTE, scalar_path(value), n.mark,
                 "the value contains a NUL character (written as an escape)",
                 "remove it; C and many tools cut the text there");
    }
    emit_scalar(std::move(n), anchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value style) override {
    Mark m = to_mark(mark);
    if (!mark.is_null()) {
      std::size_t offset = lines_.offset_of(mark.line, mark.column);
      saw(offset, offset + 1);
      check_collection_start(offset, style);
    }
    check_collection_tag(tag, "seq", m);
    open(Node::make_array(), m, anchor);
    stack_.back().block = style == YAML::EmitterStyle::Block;
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value style) override {
    Mark m = to_mark(mark);
    if (!mark.is_null()) {
      std::size_t offset = lines_.offset_of(mark.line, mark.column);
      saw(offset, offset + 1);
      if (offset < text_.size() && text_[offset] == ':') check_explicit_key_written(offset);
      check_collection_start(offset, style);
    }
    Node map = Node::make_object();
    // A local tag naming an SDK option class says what the map stands for (`!SandboxDefaults`).
    if (tag.size() > 1 && tag[0] == '!' && tag[1] != '!') map.given_as = given_as_from_name(std::string_view(tag).substr(1));
    if (map.given_as == GivenAs::none) check_collection_tag(tag, "map", m);
    open(std::move(map), m, anchor);
    stack_.back().block = style == YAML::EmitterStyle::Block;
  }
  void OnMapEnd() override { close(); }

 private:
  struct Frame {
    Node node;
    YAML::anchor_t anchor = 0;
    bool anchor_referenced = false;
    std::size_t nodes_before = 0;
    std::size_t bytes_before = 0;
    std::size_t height = 1;  // levels of collections from this one down
    // Maps alternate key and value events.
    bool expecting_key = true;
    bool drop_value = false;      // the key was rejected (duplicate, merge, not a scalar)
    bool collecting_key = false;  // a collection is being read as a key (to be rejected)
    bool block = false;           // a block mapping or list (not {…} or […])
    std::size_t key_at = 0;       // the byte offset of the current key's event
    Mark key_collection_mark;
    std::string key;
    Mark key_mark;
    std::unordered_set<std::string> keys;  // used once the map grows past a few members
  };
  struct Anchored {
    Node node;  // empty unless kept
    std::size_t size = 0;
    std::size_t bytes = 0;
    std::size_t height = 0;  // 0 for a scalar
    bool kept = false;
  };

  std::size_t key_at_ = 0;  // the byte offset of the last scalar or null event, for take_key
  std::size_t last_quote_end_ = 0;  // just past the closing quote of the last quoted value read
  std::size_t content_start_ = std::string_view::npos;
  std::size_t content_end_ = 0;
  std::string_view text_;
  const LineIndex& lines_;
  const Limits& limits_;
  DiagnosticSink& sink_;
  LoadNotes& notes_;
  std::unordered_set<std::string> referenced_;
  std::unordered_set<std::string> anchor_names_;  // every anchor defined so far
  bool next_anchor_referenced_ = false;
  YAML::Mark doc_start_;
  std::vector<Frame> stack_;
  std::map<YAML::anchor_t, Anchored> anchors_;
  Node root_;
  bool has_root_ = false;
  std::size_t nodes_ = 0;
  std::size_t text_bytes_ = 0;    // scalar and key text placed so far, alias copies included
  std::size_t alias_bytes_ = 0;   // text added by alias copies
  std::size_t copied_nodes_ = 0;  // nodes copied to keep anchors for later aliases
  std::size_t copied_bytes_ = 0;
  int alias_uses_ = 0;
  bool limit_hit_ = false;

  void saw(std::size_t begin, std::size_t end) {
    content_start_ = std::min(content_start_, begin);
    content_end_ = std::max(content_end_, end);
  }

  Mark to_mark(const YAML::Mark& m) const {
    if (m.is_null()) return Mark{};
    return lines_.at_line_byte(m.line, m.column);
  }

  bool expecting_key() const { return !stack_.empty() && stack_.back().node.is_object() && stack_.back().expecting_key; }

  // Inside the value of a rejected key (a duplicate, a merge key, a collection used as a key): that
  // value is read but never placed in the tree, so a note about something in it would name a path
  // the tree does not have (found by fuzz_policy_yaml). The rejected key's own note says enough.
  bool in_dropped_value() const {
    for (std::size_t i = 0; i + 1 < stack_.size(); ++i) {
      if (stack_[i].node.is_object() && (stack_[i].drop_value || stack_[i].collecting_key)) return true;
    }
    return !stack_.empty() && stack_.back().node.is_object() && !stack_.back().expecting_key && stack_.back().drop_value;
  }
  bool note_room(Code code, Mark m) { return !in_dropped_value() && notes_.has_room(code, m); }

  // Paths are built only when a diagnostic needs one: storing each frame's full path would cost
  // O(depth × key length) per node, and keys can be megabytes long.
  static void append_child_token(std::string& out, const Frame& f) {
    out = f.node.is_array() ? pointer_join(out, f.node.items.size()) : pointer_join(out, f.key);
  }
  // The path of the node at stack depth `depth` (0 = the root).
  std::string path_to(std::size_t depth) const {
    std::string out;
    for (std::size_t i = 0; i < depth && i < stack_.size(); ++i) append_child_token(out, stack_[i]);
    return out;
  }
  // The path of the value being read now.
  std::string path() const { return path_to(stack_.size()); }
  // The path of the scalar being read now: a key names its own member.
  std::string scalar_path(const std::string& text) const {
    return expecting_key() ? pointer_join(path_to(stack_.size() - 1), text) : path();
  }

  [[noreturn]] void fail(Code code, Mark m, std::string message, std::string hint = {}) {
    fail_at(path(), code, m, std::move(message), std::move(hint));
  }
  [[noreturn]] void fail_at(std::string where, Code code, Mark m, std::string message, std::string hint = {}) {
    limit_hit_ = code == Code::DOC_TOO_DEEP || code == Code::DOC_TOO_MANY_NODES || code == Code::YAML_ALIAS_LIMIT;
    sink_.add(code, std::move(where), m, std::move(message), std::move(hint));
    throw StopParsing{};
  }

  void bad_tag(const std::string& tag, Mark m, const std::string& where) {
    if (!note_room(Code::YAML_TAG, m)) return;
    std::string shown = tag.rfind(k_core_tag_prefix, 0) == 0 ? "!!" + tag.substr(k_core_tag_prefix.size()) : tag;
    notes_.add(Code::YAML_TAG, where, m,
               "the YAML tag " + shown_text(shown) + " is not part of the core schema",
               "remove the tag; only !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are accepted "
               "(and, on a mapping, the SDK classes !SandboxDefaults, !RegisteredVolumeOptions, !ScratchVolumeOptions and "
               "!ResourceOptions)");
  }

  void resolve_core_tag(const std::string& tag, const std::string& value, Node& n) {
    std::string_view short_tag = std::string_view(tag).substr(k_core_tag_prefix.size());
    if (short_tag != "str" && short_tag != "int" && short_tag != "float" && short_tag != "bool" &&
        short_tag != "null") {
      bad_tag(tag, n.mark, scalar_path(value));
      n.kind = NodeKind::string;
      n.style = ScalarStyle::quoted;
      n.text = value;
      return;
    }
    if (resolve_tagged_scalar(short_tag, value, n)) return;
    if (note_room(Code::YAML_TAG, n.mark)) {
      notes_.add(Code::YAML_TAG, scalar_path(value), n.mark,
                 "the value " + shown_text(value) + " is not a valid !!" + std::string(short_tag),
                 "remove the tag or write a value of that type");
    }
    Mark mark = n.mark;
    n = Node::make_string(value);
    n.style = ScalarStyle::quoted;
    n.mark = mark;
  }

  void check_collection_tag(const std::string& tag, std::string_view expected, Mark m) {
    if (tag.empty() || tag == "?" || tag == "!") return;
    if (tag == std::string(k_core_tag_prefix) + std::string(expected)) return;
    // A collection in key position (`!t [a]: b`) has no member of its own: name the map it is in
    // (path() would append the previous key, or an empty one: found by fuzz_sandbox).
    bad_tag(tag, m, expecting_key() ? path_to(stack_.size() - 1) : path());
  }

  void count_nodes(std::size_t n, Mark m) {
    nodes_ += n;
    if (nodes_ > limits_.max_nodes) {
      fail(alias_uses_ > 0 ? Code::YAML_ALIAS_LIMIT : Code::DOC_TOO_MANY_NODES, m,
           "the document expands to more than " + std::to_string(limits_.max_nodes) + " nodes",
           alias_uses_ > 0 ? "aliases are expanded when counted; expand fewer of them" : "split the document");
    }
  }

  // Keeps a copy of an anchored node for later aliases, within the same budgets that bound what
  // the aliases may expand to: nested anchors would otherwise copy their subtrees once per level.
  void remember_anchor(YAML::anchor_t anchor, bool referenced, const Node& n, std::size_t size,
                       std::size_t bytes, std::size_t height, Mark m) {
    Anchored a;
    a.size = size;
    a.bytes = bytes;
    a.height = height;
    if (referenced) {
      copied_nodes_ += size;
      copied_bytes_ += bytes;
      if (copied_nodes_ > limits_.max_nodes || copied_bytes_ > limits_.max_bytes) {
        fail(Code::YAML_ALIAS_LIMIT, m, "the anchored values that aliases refer to are larger than the node limit",
             "expand fewer or smaller values");
      }
      a.node = n;
      a.kept = true;
    }
    anchors_[anchor] = std::move(a);
  }

  void emit_scalar(Node n, YAML::anchor_t anchor) {
    Mark m = n.mark;
    bool referenced = anchor != 0 && next_anchor_referenced_;
    if (expecting_key()) {
      text_bytes_ += n.text.size();
      if (anchor != 0) remember_anchor(anchor, referenced, n, 1, n.text.size(), 0, m);
      take_key(n);
      return;
    }
    count_nodes(1, m);
    text_bytes_ += n.text.size();
    if (anchor != 0) remember_anchor(anchor, referenced, n, 1, n.text.size(), 0, m);
    place(std::move(n), 0);
  }

  void take_key(const Node& k) {
    Frame& f = stack_.back();
    f.expecting_key = false;
    f.key_at = key_at_;
    f.drop_value = false;
    f.key_mark = k.mark;
    if (!k.is_scalar()) {
      // Only reachable through an alias to a collection.
      f.key.clear();
      reject_collection_key(k.mark);
      return;
    }
    f.key = k.text;
    if (k.style == ScalarStyle::plain && k.text == "<<") {
      if (note_room(Code::YAML_MERGE_KEY, k.mark)) {
        notes_.add(Code::YAML_MERGE_KEY, path_to(stack_.size() - 1), k.mark, "YAML merge keys (<<) are not supported",
                   "write the merged keys out; Kubernetes, PyYAML and yaml-cpp disagree on merges");
      }
      f.drop_value = true;
      return;
    }
    if (is_duplicate(f, f.key)) {
      if (note_room(Code::DUPLICATE_KEY, k.mark)) notes_.duplicate_key(path(), k.mark, f.key, first_key_mark(f.node, f.key));
      f.drop_value = true;
    }
  }

  void reject_collection_key(Mark m) {
    // The note comes before drop_value is set: the key's own note is not "inside" its value.
    if (note_room(Code::SYNTAX, m)) {
      notes_.add(Code::SYNTAX, path_to(stack_.size() - 1), m, "an object or list is used as a key",
                 "keys must be plain strings");
    }
    stack_.back().drop_value = true;
  }

  // The key's first occurrence (the members hold no later one: a duplicate's value is dropped).
  static Mark first_key_mark(const Node& object, const std::string& key) {
    for (const auto& m : object.members) {
      if (m.key == key) return m.key_mark;
    }
    return {};
  }

  static bool is_duplicate(Frame& f, const std::string& key) {
    constexpr std::size_t k_linear = 16;
    if (f.node.members.size() < k_linear) {
      for (const auto& m : f.node.members) {
        if (m.key == key) return true;
      }
      return false;
    }
    if (f.keys.empty()) {
      for (const auto& m : f.node.members) f.keys.insert(m.key);
    }
    return !f.keys.insert(key).second;
  }

  void open(Node n, Mark m, YAML::anchor_t anchor) {
    bool referenced = anchor != 0 && next_anchor_referenced_;
    if (expecting_key()) {
      // A collection used as a key: JSON has no such thing. Read it anyway, to stay in step with
      // the event stream, and reject it when it closes (an unclosed one is a syntax error
      // that yaml-cpp reports; yaml-cpp reads any unclosed `[` as the start of such a key).
      Frame& f = stack_.back();
      f.collecting_key = true;
      f.key_collection_mark = m;
    }
    if (static_cast<int>(stack_.size()) >= limits_.max_depth) {
      fail(Code::DOC_TOO_DEEP, m,
           "objects and lists are nested deeper than " + std::to_string(limits_.max_depth) + " levels",
           "flatten the document, or raise the depth limit");
    }
    count_nodes(1, m);
    Frame f;
    n.mark = m;
    f.node = std::move(n);
    f.anchor = anchor;
    f.anchor_referenced = referenced;
    f.nodes_before = nodes_ - 1;
    f.bytes_before = text_bytes_;
    stack_.push_back(std::move(f));
  }

  void close() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    if (f.anchor != 0) {
      remember_anchor(f.anchor, f.anchor_referenced, f.node, nodes_ - f.nodes_before, text_bytes_ - f.bytes_before,
                      f.height, f.node.mark);
    }
    place(std::move(f.node), f.height);
  }

  // Puts a finished node, `height` levels of collections deep, into its parent, or makes it the root.
  void place(Node n, std::size_t height) {
    if (stack_.empty()) {
      root_ = std::move(n);
      has_root_ = true;
      return;
    }
    Frame& f = stack_.back();
    f.height = std::max(f.height, height + 1);
    if (f.node.is_array()) {
      f.node.items.push_back(std::move(n));
      return;
    }
    if (f.collecting_key) {
      f.collecting_key = false;
      f.expecting_key = false;
      reject_collection_key(f.key_collection_mark);
      return;
    }
    if (f.expecting_key) {
      // Only reachable for an alias used as a key.
      take_key(n);
      return;
    }
    f.expecting_key = true;
    if (f.drop_value) return;
    Member mem;
    mem.key = std::move(f.key);
    mem.key_mark = f.key_mark;
    mem.value = std::move(n);
    if (!f.keys.empty()) f.keys.insert(mem.key);
    f.node.members.push_back(std::move(mem));
  }
};

// Reads further documents without keeping them: only where they start matters.
class Discard : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& m) override { start = m; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    if (++depth > 64) throw StopParsing{};
  }
  void OnSequenceEnd() override { --depth; }
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    if (++depth > 64) throw StopParsing{};
  }
  void OnMapEnd() override { --depth; }
  YAML::Mark start = YAML::Mark::null_mark();
  int depth = 0;
};

bool same_place(const YAML::Mark& a, const YAML::Mark& b) { return a.line == b.line && a.column == b.column; }

// Starts the next document and says where it started; a document cut short by a limit or an
// error has still started.
bool next_document_start(YAML::Parser& parser, YAML::Mark& start) {
  Discard doc;
  bool more = false;
  try {
    more = parser.HandleNextDocument(doc);
  } catch (const StopParsing&) {
    more = true;
  } catch (const YAML::Exception&) {
    more = !doc.start.is_null();
  }
  start = doc.start;
  return more;
}

// What the text holds at `offset`, for a message: up to the next white space, at most 20 bytes.
std::string token_at(std::string_view text, std::size_t offset) {
  std::size_t end = offset;
  while (end < text.size() && end - offset < 20 && !is_blank_or_break(text[end])) ++end;
  if (end == offset) return "the end of the text";
  return shown_text(text.substr(offset, end - offset));
}

// What one run of yaml-cpp found, for load_yaml to decide whether a run over a prefix of the text
// speaks for the whole text.
struct Pass {
  bool loaded = false;
  bool limit_hit = false;
  std::size_t syntax_error_at = std::string_view::npos;  // byte offset of the first syntax error
  std::size_t second_document_at = std::string_view::npos;
};

// yaml-cpp never consumes a token it cannot place (`]`, `,` … at the top level): every further
// document then "starts" at that same token, forever. That is a syntax error, not a second
// document. Returns false when the text turned out to be malformed.
bool check_rest_of_stream(YAML::Parser& parser, const YAML::Mark& first_start, std::string_view text,
                          const LineIndex& lines, DiagnosticSink& sink, Pass& pass) {
  YAML::Mark second;
  if (!next_document_start(parser, second)) return true;
  std::size_t offset = lines.offset_of(second.line, second.column);
  YAML::Mark third;
  bool stuck_at_first = same_place(second, first_start);
  bool stuck_at_second = !stuck_at_first && next_document_start(parser, third) && same_place(third, second);
  if (stuck_at_first || stuck_at_second) {
    pass.syntax_error_at = offset;
    sink.add(Code::SYNTAX, "", lines.at_line_byte(second.line, second.column),
             "the YAML is malformed: unexpected " + token_at(text, offset) +
                 (stuck_at_first ? "" : " after the document"));
    return false;
  }
  std::size_t first = lines.offset_of(first_start.line, first_start.column);
  if (SyntaxExplanation e = explain_unmarked_document(text, lines, first, offset); !e.message.empty()) {
    pass.syntax_error_at = e.at;
    sink.add(Code::SYNTAX, "", lines.at_offset(e.at), e.message, e.hint);
    return false;
  }
  pass.second_document_at = offset;
  sink.add(Code::MULTIPLE_DOCUMENTS, "", lines.at_line_byte(second.line, second.column),
           "the YAML stream holds more than one document", "keep one document per file");
  return true;
}

// The first line in [from, to) that starts with `%` (a directive, outside any scalar there), or npos.
std::size_t directive_line(std::string_view text, std::size_t from, std::size_t to) {
  for (std::size_t p = text.find('%', from); p < to && p != std::string_view::npos; p = text.find('%', p + 1)) {
    if (p == 0 || text[p - 1] == '\n' || text[p - 1] == '\r') return p;
  }
  return std::string_view::npos;
}

// A directive skipped silently: before a document that does not start with `---`, or after the
// document's content with no document after it (yaml_errors.h). Only comments, blank lines,
// directives and `---` stand before the content, and a `%` at a line's start after the content of
// a collection cannot be inside one of its scalars (a block scalar or a plain one continued on a
// line would be indented; a quoted one counts to its closing quote). Returns the directive's
// offset, npos when there is none.
std::size_t reject_skipped_directive(std::string_view text, const LineIndex& lines, std::size_t content_start,
                                     std::size_t content_end, const Node& root, DiagnosticSink& sink) {
  std::size_t last = std::string_view::npos;
  for (std::size_t d = directive_line(text, 0, content_start); d != std::string_view::npos;
       d = directive_line(text, d + 1, content_start)) {
    last = d;
  }
  if (last != std::string_view::npos) {
    bool marked = false;
    for (std::size_t p = text.find("---", last); p != std::string_view::npos && p < content_start; p = text.find("---", p + 1)) {
      bool starts_line = text[p - 1] == '\n' || text[p - 1] == '\r';
      bool ends_word = p + 3 == text.size() || is_blank_or_break(text[p + 3]);
      if (starts_line && ends_word) marked = true;
    }
    if (!marked) {
      SyntaxExplanation e = directive_without_document_start(last);
      sink.add(Code::SYNTAX, "", lines.at_offset(e.at), std::move(e.message), std::move(e.hint));
      return last;
    }
  }
  if (root.is_object() || root.is_array()) {
    if (std::size_t d = directive_line(text, content_end, text.size()); d != std::string_view::npos) {
      SyntaxExplanation e = directive_in_document(d);
      sink.add(Code::SYNTAX, "", lines.at_offset(e.at), std::move(e.message), std::move(e.hint));
      return d;
    }
  }
  return std::string_view::npos;
}

// One run of yaml-cpp over `text` (the whole text, or a prefix of it: see load_yaml).

Pass parse_yaml(std::string_view text, const LineIndex& lines, const Limits& limits, Node& root,
                DiagnosticSink& sink) {
  std::istringstream in{std::string(text)};
  LoadNotes notes(sink);
  TreeBuilder builder(text, lines, limits, sink, notes);
  Pass pass;
  try {
    YAML::Parser parser(in);
    if (!parser.HandleNextDocument(builder) || !builder.has_root()) {
      sink.add(Code::EMPTY_DOCUMENT, "", lines.at_offset(0), "the document is empty",
               "write an object, or {} for an empty one");
    } else {
      root = builder.take_root();
      pass.loaded = check_rest_of_stream(parser, builder.document_start(), text, lines, sink, pass);
      if (pass.loaded && pass.second_document_at == std::string_view::npos) {
        pass.syntax_error_at = reject_skipped_directive(text, lines, builder.content_start(), builder.content_end(), root, sink);
        pass.loaded = pass.syntax_error_at == std::string_view::npos;
      }
      // Nothing written at all (`---` alone, or only properties): empty, not an explicit null.
      if (pass.loaded && root.is_null() && root.text.empty()) {
        sink.add(Code::EMPTY_DOCUMENT, "", root.mark.known() ? root.mark : lines.at_offset(0), "the document is empty",
                 "write an object, or {} for an empty one");
        pass.loaded = false;
      }
    }
  } catch (const StopParsing&) {
  } catch (const YAML::Exception& e) {
    if (!e.mark.is_null()) pass.syntax_error_at = lines.offset_of(e.mark.line, e.mark.column);
    SyntaxExplanation why = explain_yaml_error(text, lines, e);
    Mark m = why.at != std::string_view::npos ? lines.at_offset(why.at)
             : e.mark.is_null()               ? Mark{}
                                              : lines.at_line_byte(e.mark.line, e.mark.column);
    sink.add(Code::SYNTAX, "", m, std::move(why.message), std::move(why.hint));
  } catch (const std::exception& e) {
    sink.add(Code::SYNTAX, "", Mark{}, std::string("the YAML could not be read: ") + e.what());
  }
  pass.limit_hit = builder.limit_hit();
  notes.finish();
  return pass;
}

}  // namespace

bool load_yaml(std::string_view text, const LineIndex& lines, const Limits& limits, Node& root,
               DiagnosticSink& sink) {
  if (reject_unreadable_character(text, lines, sink)) return false;
  // Where the flow collections alone break a limit, parse only up to there: yaml-cpp would
  // otherwise buffer all of them first (see yaml_flow_guard.h). What the parser finds in that
  // prefix stands for the whole text when it is a limit, a syntax error, or a second document
  // starting before the cut (the tokens before the cut read the same either way; a second
  // document means the first one was read whole). Otherwise the lexer was wrong, or the text is
  // merely large: parse the whole text as usual.
  FlowBreach breach = find_flow_limit_breach(text, limits);
  if (breach.cut != std::string_view::npos) {
    std::string prefix_text = std::string(text.substr(0, breach.cut)) + breach.closers;
    Diagnostics prefix_diagnostics;
    DiagnosticSink prefix_sink(prefix_diagnostics, sink.file(), sink.input());
    Node prefix_root;
    Pass prefix = parse_yaml(prefix_text, lines, limits, prefix_root, prefix_sink);
    if (prefix.limit_hit || prefix.syntax_error_at < breach.cut || prefix.second_document_at < breach.cut) {
      Diagnostics& out = sink.diagnostics();
      out.insert(out.end(), prefix_diagnostics.begin(), prefix_diagnostics.end());
      if (prefix.loaded) root = std::move(prefix_root);
      return prefix.loaded;
    }
  }
  return parse_yaml(text, lines, limits, root, sink).loaded;
}

}  // namespace sandgate::detail
