// JSON front end. A clean text (nearly every request record and document) is read in one pass
// by the direct reader (json_direct_reader.h); anything it refuses, by RapidJSON's SAX reader
// (iterative, so depth cannot overflow the stack; numbers kept as text, so nothing is rounded)
// feeding our tree builder, which adds positions, limits and duplicate-key errors, and reports.
// On the records of a request stream the direct reader took the JSON reading from 15,800
// instructions a record to 8,100 (callgrind, 1,000 records of examples/make_requests.py).
#include <cstring>
#include <deque>
#include <iterator>
#include <memory>
#include <unordered_set>

#include "util/rapidjson.h"

#include "sandgate/small_vector.h"

#include "document/json_errors.h"
#include "document/json_direct_reader.h"
#include "document/load_notes.h"
#include "document/loaders.h"
#include "document/scalar_resolver.h"

namespace sandgate::detail {
namespace {

// Most records open a few dozen containers: their sizes fit inline, and reading one allocates
// nothing for them.
using ChildCounts = SmallVector<std::uint32_t, 32>;

// How many children each array and object of `text` holds, in the order they open: one more than
// the commas directly inside it, or none when nothing is. Read before RapidJSON runs, so each
// container's vector is made at its size and its children built in place; in malformed text a
// size may be off, which costs a reallocation, never a wrong tree. Brackets and commas inside
// strings do not count; the text is UTF-8, so no byte of a multi-byte character is one of these.
// The scan stops where the reader will stop: past the depth or node limit.
void count_children(std::string_view text, const Limits& limits, ChildCounts& sizes) {
  struct Open {
    std::uint32_t at;     // index into sizes
    std::uint32_t commas;
    bool any;             // a value or key has begun inside it
  };
  SmallVector<Open, 16> open;
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  for (const char* p = begin; p < end; ++p) {
    switch (*p) {
      case ' ': case '\t': case '\n': case '\r': break;
      case ',':
        if (!open.empty()) ++open.back().commas;
        break;
      case '[': case '{':
        if (static_cast<int>(open.size()) >= limits.max_depth || sizes.size() >= limits.max_nodes) return;
        if (!open.empty()) open.back().any = true;
        open.push_back({static_cast<std::uint32_t>(sizes.size()), 0, false});
        sizes.push_back(0);
        break;
      case ']': case '}':
        if (!open.empty()) {
          const Open& o = open.back();
          sizes[o.at] = o.any ? o.commas + 1 : 0;
          open.pop_back();
        }
        break;
      case '"':
        // Most of a record is strings: jump to the closing quote (memchr scans many bytes at a
        // time), past any quote escaped by an odd number of backslashes.
        for (const char* q = p + 1;; q = p + 1) {
          p = static_cast<const char*>(std::memchr(q, '"', static_cast<std::size_t>(end - q)));
          if (!p) return;  // unterminated: the reader reports it
          std::size_t backslashes = 0;
          while (p - backslashes > q && p[-1 - static_cast<std::ptrdiff_t>(backslashes)] == '\\') ++backslashes;
          if (backslashes % 2 == 0) break;
        }
        [[fallthrough]];
      default:
        if (!open.empty()) open.back().any = true;
    }
  }
}

// A \u escape of one half of a surrogate pair without the other: RapidJSON refuses a high half
// (a syntax error to it) and decodes a low one into bytes that are not UTF-8. Both are this.
constexpr const char* k_lone_surrogate =
    "the string holds an escaped UTF-16 surrogate (\\uD800-\\uDFFF) without its pair, which is not a character";
constexpr const char* k_lone_surrogate_hint = "write the character itself, or both halves of its surrogate pair";

class JsonBuilder {
 public:
  JsonBuilder(std::string_view text, const LineIndex& lines, const Limits& limits, DiagnosticSink& sink,
              LoadNotes& notes, rapidjson::InsituStringStream& stream)
      : lines_(lines),
        limits_(limits),
        sink_(sink),
        notes_(notes),
        stream_(stream),
        unicode_escapes_(text.find("\\u") != std::string_view::npos) {
    stack_.reserve(8);
    count_children(text, limits, sizes_);
  }

  // RapidJSON calls these with the literal already taken (unlike strings, numbers and brackets):
  // the mark is taken the literal's length back from where the stream stands.
  bool Null() { return scalar(literal_mark(4), [](Node&) {}); }
  bool Bool(bool b) {
    return scalar(literal_mark(b ? 4 : 5), [b](Node& n) {
      n.kind = NodeKind::boolean;
      n.boolean = b;
    });
  }
  bool Int(int) { return true; }  // not called: numbers arrive as RawNumber
  bool Uint(unsigned) { return true; }
  bool Int64(std::int64_t) { return true; }
  bool Uint64(std::uint64_t) { return true; }
  bool Double(double) { return true; }
  bool RawNumber(const char* str, rapidjson::SizeType len, bool) {
    return scalar(start_mark(), [&](Node& n) { resolve_json_number(std::string_view(str, len), n); });
  }
  bool String(const char* str, rapidjson::SizeType len, bool) {
    std::string_view text(str, len);
    Mark m = start_mark();
    if (!check_utf8(text, m, [this] { return child_path(); })) return false;
    check_nul(text, m);
    if (!count(m)) return false;
    Node& n = slot();
    n.kind = NodeKind::string;
    n.text.assign(text);
    n.mark = m;
    return true;
  }
  bool StartObject() { return open(NodeKind::object); }
  bool Key(const char* str, rapidjson::SizeType len, bool) {
    Mark m = start_mark();
    Frame& f = stack_.back();
    f.key.assign(str, len);
    f.key_read = true;
    f.key_mark = m;
    if (!check_utf8(f.key, m, [this] { return object_path(); })) return false;  // a key: name its object
    check_nul(f.key, m);
    f.drop_value = is_duplicate(f);
    // The key's own note is not inside its dropped value; it is inside an enclosing one.
    if (f.drop_value && !f.in_dropped && notes_.has_room(Code::DUPLICATE_KEY, m)) {
      Mark first;
      for (const Member& member : f.node->members) {
        if (member.key == f.key) {
          first = member.key_mark;
          break;
        }
      }
      notes_.duplicate_key(child_path(), m, f.key, first);
    }
    return true;
  }
  bool EndObject(rapidjson::SizeType) { return close(); }
  bool StartArray() { return open(NodeKind::array); }
  bool EndArray(rapidjson::SizeType) { return close(); }

  bool has_root() const { return has_root_; }
  Node take_root() { return std::move(root_); }
  bool stopped_by_limit() const { return limit_hit_; }
  // The path of the object being read now (the innermost frame).
  std::string object_path() const {
    std::string out;
    for (std::size_t i = 0; i + 1 < stack_.size(); ++i) out = step(out, i);
    return out;
  }
  // The path RapidJSON stopped at: an object's when it was reading a key, else the value's.
  std::string stop_path() const {
    if (!stack_.empty() && stack_.back().node->is_object() && !stack_.back().key_read) return object_path();
    return child_path();
  }
  // The path of the value being read now.
  std::string child_path() const {
    std::string out;
    for (std::size_t i = 0; i < stack_.size(); ++i) out = step(out, i);
    return out;
  }

 private:
  // An open array or object. The container itself is already in its place (the root, its parent's
  // vector, or a dropped value's scratch node), and its children are made in place in its vectors,
  // which have room for as many as the text holds (sizes_): nothing is moved once made. `node`
  // stays valid while the frame is open: only the innermost container gains children, and no
  // frame points into it but its own (a reallocation, after a wrong count, moves only its
  // children, which are all closed).
  struct Frame {
    Node* node;
    std::string key;
    Mark key_mark;
    bool drop_value = false;     // the value of the key just read is dropped (a duplicate key)
    bool child_dropped = false;  // the value placed last was
    bool in_dropped = false;     // this container is, or lies inside, a dropped value
    bool key_read = false;       // an object's key has been read, and its value not yet
    std::unique_ptr<std::unordered_set<std::string>> keys;  // past k_linear keys only: most objects never need one
  };

  const LineIndex& lines_;
  const Limits& limits_;
  DiagnosticSink& sink_;
  LoadNotes& notes_;
  rapidjson::InsituStringStream& stream_;  // read only (its Tell() is not const)
  std::vector<Frame> stack_;
  ChildCounts sizes_;         // children of each container, in the order they open
  std::size_t opened_ = 0;    // containers opened so far
  Node root_;
  // The values of duplicate keys, read and dropped; a deque, so a frame open on one stays valid
  // while a duplicate inside it is read. Made at the first: an empty std::deque allocates twice,
  // and nearly every document has no duplicate.
  std::unique_ptr<std::deque<Node>> dropped_;
  bool has_root_ = false;
  bool limit_hit_ = false;
  // The text is valid UTF-8 without NUL (load_text checked it): only a \u escape can decode to a
  // NUL or a lone surrogate. Most documents have none, and then no string needs either check.
  bool unicode_escapes_ = false;
  std::size_t nodes_ = 0;

  // The step from frame `i` to the value being read in it. In the innermost frame that value has
  // no place yet (the next item; the key just read); in an outer one it is the open container
  // placed last (its item, or its member's key — or, when it is a duplicate key's dropped value,
  // the key still in the frame).
  std::string step(const std::string& base, std::size_t i) const {
    const Frame& f = stack_[i];
    const bool innermost = i + 1 == stack_.size();
    if (f.node->is_array()) return pointer_join(base, f.node->items.size() - (innermost ? 0 : 1));
    if (innermost || f.child_dropped) return pointer_join(base, f.key);
    return pointer_join(base, f.node->members.back().key);
  }

  // RapidJSON calls the handler with the stream still at the token's first character: it takes
  // `{`/`[` after the call, and reads strings and numbers on a local copy of the stream that is
  // written back after the call. So the token begins at Tell(), past any white space or separator
  // (json_direct_reader_test holds every mark equal to the direct reader's, over edited texts).
  Mark start_mark() { return lines_.at_offset(static_cast<std::size_t>(stream_.Tell())); }

  // RapidJSON decodes an escaped lone low surrogate ("\ude00") into bytes that are not UTF-8: the
  // text is valid, the string it means is not (found by fuzz_policy_json). Like invalid UTF-8 in
  // the text, that stops the load.
  // The path is built only on failure: it can be megabytes long, and keys are many.
  template <typename PathFn>
  bool check_utf8(std::string_view s, Mark m, PathFn path) {
    if (!unicode_escapes_) return true;
    // A lone surrogate comes out as 0xED 0xA0-0xBF …; a string without 0xED needs no scan.
    if (std::memchr(s.data(), 0xED, s.size()) == nullptr) return true;
    std::string_view rest(s);
    for (;;) {
      bool is_nul = false;
      std::size_t bad = find_invalid_utf8(rest, is_nul);
      if (bad == std::string_view::npos) return true;
      if (is_nul) {  // an escaped NUL is check_nul's business
        rest.remove_prefix(bad + 1);
        continue;
      }
      sink_.add(Code::INVALID_UTF8, path(), m, k_lone_surrogate, k_lone_surrogate_hint);
      limit_hit_ = true;
      return false;
    }
  }

  // An escape (\u0000) can put a NUL into a string although the text has none.
  void check_nul(std::string_view s, Mark m) {
    if (!unicode_escapes_ || s.find('\0') == std::string_view::npos || !note_room(Code::NUL_BYTE, m)) return;
    notes_.add(Code::NUL_BYTE, child_path(), m, "the string contains a NUL character (written as \\u0000)",
               "remove it; C and many tools cut the text there");
  }

  // Nothing inside a duplicate key's dropped value is noted, as the YAML loader does: the duplicate
  // is the error to fix, and a path into the dropped value would name no value of the document.
  bool in_dropped_value() const {
    if (stack_.empty()) return false;
    const Frame& f = stack_.back();
    return f.in_dropped || (f.node->is_object() && f.drop_value);
  }
  bool note_room(Code code, Mark m) { return !in_dropped_value() && notes_.has_room(code, m); }

  bool is_duplicate(Frame& f) {
    constexpr std::size_t k_linear = 16;
    const std::vector<Member>& members = f.node->members;
    if (members.size() < k_linear) {
      for (const Member& m : members) {
        if (m.key == f.key) return true;
      }
      return false;
    }
    if (!f.keys) {
      f.keys = std::make_unique<std::unordered_set<std::string>>();
      for (const Member& m : members) f.keys->insert(m.key);
    }
    return !f.keys->insert(f.key).second;
  }

  bool count(Mark m) {
    if (++nodes_ > limits_.max_nodes) {
      sink_.add(Code::DOC_TOO_MANY_NODES, child_path(), m,
                "the document has more than " + std::to_string(limits_.max_nodes) + " nodes", "split the document");
      limit_hit_ = true;
      return false;
    }
    return true;
  }

  // Values are written straight into their place (`slot`): a Node is 112 bytes and a Member 184,
  // and moving each value through three temporaries was a fifth of reading a request record.
  Mark literal_mark(std::size_t length) { return lines_.at_offset(static_cast<std::size_t>(stream_.Tell()) - length); }

  template <typename Fill>
  bool scalar(Mark m, Fill fill) {
    if (!count(m)) return false;
    Node& n = slot();
    fill(n);
    n.mark = m;
    return true;
  }

  bool open(NodeKind kind) {
    Mark m = start_mark();
    if (static_cast<int>(stack_.size()) >= limits_.max_depth) {
      sink_.add(Code::DOC_TOO_DEEP, child_path(), m,
                "objects and lists are nested deeper than " + std::to_string(limits_.max_depth) + " levels",
                "flatten the document, or raise the depth limit");
      limit_hit_ = true;
      return false;
    }
    if (!count(m)) return false;
    // Room for the children the text holds, but never for more than the node limit allows (a
    // million-item array in a small text is refused at its limit, not given room first).
    std::size_t room = opened_ < sizes_.size() ? sizes_[opened_] : 0;
    ++opened_;
    room = std::min(room, limits_.max_nodes - std::min(nodes_, limits_.max_nodes));
    Node& n = slot();
    n.kind = kind;
    n.mark = m;
    if (kind == NodeKind::array) {
      n.items.reserve(room);
    } else {
      n.members.reserve(room);
    }
    // slot() has said whether this container is the value of a duplicate key.
    const bool in_dropped = !stack_.empty() && (stack_.back().in_dropped || stack_.back().child_dropped);
    Frame& frame = stack_.emplace_back();
    frame.node = &n;
    frame.in_dropped = in_dropped;
    return true;
  }

  bool close() {
    stack_.pop_back();  // the container is in its place already; the key and key set go
    return true;
  }

  // Where the next value goes: the root, the open array's next item, or the open object's member
  // for the last key read (a scratch node when that key was a duplicate, whose value is dropped).
  Node& slot() {
    if (stack_.empty()) {
      has_root_ = true;
      return root_;
    }
    Frame& f = stack_.back();
    if (f.node->is_array()) return f.node->items.emplace_back();
    f.child_dropped = f.drop_value;
    f.key_read = false;
    if (f.drop_value) {
      f.drop_value = false;
      if (!dropped_) dropped_ = std::make_unique<std::deque<Node>>();
      return dropped_->emplace_back();
    }
    Member& m = f.node->members.emplace_back();
    m.key = std::move(f.key);
    m.key_mark = f.key_mark;  // (is_duplicate has put the key in the frame's set, if it has one)
    return m.value;
  }
};

// RapidJSON refuses numbers beyond the double range (1e400, 400-digit integers) even when it
// keeps numbers as text. That is not a syntax error: the value does not fit any field.
void report_huge_number(std::string_view text, std::size_t offset, const std::string& path, const LineIndex& lines,
                        DiagnosticSink& sink) {
  std::size_t end = offset;
  while (end < text.size() && std::string_view("+-.0123456789eE").find(text[end]) != std::string_view::npos) ++end;
  std::string literal(text.substr(offset, end - offset));
  if (literal.size() > 40) literal = literal.substr(0, 40) + "…";
  sink.add(Code::INTEGER_RANGE, path, lines.at_offset(offset),
           "the number " + literal + " is too large to be read: it does not fit any field",
           "numbers are never wrapped or rounded; write a value in the field's range");
}

}  // namespace

namespace {
bool g_direct = true;
}  // namespace

void set_json_direct_reader(bool on) { g_direct = on; }

bool load_json(std::string_view text, const LineIndex& lines, const Limits& limits, Node& root,
               DiagnosticSink& sink, bool one_line_record) {
  if (g_direct) {
    JsonDirectReader direct(text, static_cast<std::size_t>(std::max(limits.max_depth, 0)), limits.max_nodes,
                            JsonDirectReader::Numbers::literal, &lines);
    if (direct.document(root)) return true;
    root = Node();  // refused: read again below, which reports why
  }
  // RapidJSON reads a NUL-terminated buffer (the text has no NUL: checked before) and, in situ,
  // decodes each string over its own text there: no per-character push onto a side stack.
  // Positions come from `text`, which stays as it was.
  std::string buffer(text);
  rapidjson::InsituStringStream stream(buffer.data());
  LoadNotes notes(sink);
  JsonBuilder builder(text, lines, limits, sink, notes, stream);
  // The reader's state stack starts in a buffer here: a request record is read with no heap
  // block for it (it grows into the heap only for deep text).
  using Pool = rapidjson::MemoryPoolAllocator<>;
  alignas(8) char stack[1024];
  Pool stack_pool(stack, sizeof stack);
  rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, Pool> reader(&stack_pool, sizeof stack / 2);
  // No kParseValidateEncodingFlag: load_text has validated the whole text as UTF-8 already; what
  // escapes decode to is check_utf8's business.
  constexpr unsigned k_flags =
      rapidjson::kParseInsituFlag | rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag;
  rapidjson::ParseResult r = reader.Parse<k_flags>(stream, builder);
  notes.finish();
  if (r.IsError()) {
    if (builder.stopped_by_limit()) return false;
    // RapidJSON says "empty" for a document that starts with `}` or `]` too.
    if (r.Code() == rapidjson::kParseErrorDocumentEmpty && text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
      sink.add(Code::EMPTY_DOCUMENT, "", lines.at_offset(0), "the document is empty",
               "write an object, or {} for an empty one");
      return false;
    }
    if (r.Code() == rapidjson::kParseErrorStringUnicodeSurrogateInvalid) {
      sink.add(Code::INVALID_UTF8, builder.stop_path(), lines.at_offset(r.Offset()), k_lone_surrogate,
               k_lone_surrogate_hint);
      return false;
    }
    if (r.Code() == rapidjson::kParseErrorNumberTooBig) {
      report_huge_number(text, r.Offset(), builder.child_path(), lines, sink);
      return false;
    }
    // A record of a JSON Lines stream is one line of it: a pretty-printed object breaks into many.
    // (A string a binding hands over as a line may hold several: then it is not read as one.)
    const std::size_t last = text.find_last_not_of("\r\n");
    const bool stream_line = one_line_record && (last == std::string_view::npos ||
                                                 text.substr(0, last).find_first_of("\r\n") == std::string_view::npos);
    JsonExplanation why = explain_json_error(text, r.Offset(), r.Code(), stream_line);
    sink.add(Code::SYNTAX, "", lines.at_offset(r.Offset()), std::move(why.message), std::move(why.hint));
    return false;
  }
  if (!builder.has_root()) return false;
  root = builder.take_root();
  return true;
}

}  // namespace sandgate::detail
