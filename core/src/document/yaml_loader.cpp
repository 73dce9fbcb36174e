// YAML front end: yaml-cpp's event API driving our own tree builder. We never use YAML::Load or
// YAML::LoadAll: LoadAll can loop forever on a 9-byte input, and neither gives us duplicate-key
// errors, YAML 1.1 typing, alias budgets or per-node positions.
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include "document/loaders.h"
#include "document/scalar_resolver.h"

namespace sandgate::detail {
namespace {

constexpr std::string_view k_core_tag_prefix = "tag:yaml.org,2002:";

// Thrown from inside the event handler to stop parsing when a limit is hit.
struct StopParsing : std::exception {};

class TreeBuilder : public YAML::EventHandler {
 public:
  TreeBuilder(const LineIndex& lines, const Limits& limits, DiagnosticSink& sink)
      : lines_(lines), limits_(limits), sink_(sink) {}

  Node take_root() { return std::move(root_); }
  bool has_root() const { return has_root_; }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Node n;
    n.kind = NodeKind::null;
    n.style = ScalarStyle::plain;
    n.mark = to_mark(mark);
    emit_scalar(std::move(n), anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Mark m = to_mark(mark);
    if (++alias_uses_ > limits_.max_alias_uses) {
      fail(Code::YAML_ALIAS_LIMIT, m,
           "the document uses more than " + std::to_string(limits_.max_alias_uses) + " YAML aliases",
           "expand the repeated values, or raise the alias limit");
    }
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      fail(Code::SYNTAX, m, "an alias refers to an anchor that is not complete yet (a node cannot contain itself)");
    }
    count_nodes(it->second.size, m);
    Node copy = it->second.node;
    copy.mark = m;
    place(std::move(copy), m, /*anchor=*/0, /*size=*/0);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    Node n;
    n.mark = to_mark(mark);
    if (tag == "?") {
      resolve_plain_scalar(value, n);
    } else if (tag == "!") {
      n.kind = NodeKind::string;
      n.style = ScalarStyle::quoted;
      n.text = value;
    } else if (tag.rfind(k_core_tag_prefix, 0) == 0) {
      std::string_view short_tag = std::string_view(tag).substr(k_core_tag_prefix.size());
      if (short_tag != "str" && short_tag != "int" && short_tag != "float" && short_tag != "bool" &&
          short_tag != "null") {
        bad_tag(tag, n.mark);
        n.kind = NodeKind::string;
        n.text = value;
      } else if (!resolve_tagged_scalar(short_tag, value, n)) {
        sink_.add(Code::YAML_TAG, path(), n.mark,
                  "the value \"" + value + "\" is not a valid !!" + std::string(short_tag),
                  "remove the tag or write a value of that type");
        n = Node::make_string(value);
        n.style = ScalarStyle::quoted;
        n.mark = to_mark(mark);
      }
    } else {
      bad_tag(tag, n.mark);
      n.kind = NodeKind::string;
      n.style = ScalarStyle::quoted;
      n.text = value;
    }
    emit_scalar(std::move(n), anchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Mark m = to_mark(mark);
    check_collection_tag(tag, "seq", m);
    open(Node::make_array(), m, anchor);
  }
  void OnSequenceEnd() override { close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Mark m = to_mark(mark);
    check_collection_tag(tag, "map", m);
    open(Node::make_object(), m, anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Frame {
    Node node;
    YAML::anchor_t anchor = 0;
    std::size_t nodes_before = 0;
    // Maps alternate key and value events.
    bool expecting_key = true;
    bool drop_value = false;      // the key was rejected (duplicate, merge, not a scalar)
    bool collecting_key = false;  // a collection is being read as a key (to be rejected)
    std::string key;
    Mark key_mark;
    std::unordered_set<std::string> keys;  // used once the map grows past a few members
    std::string path;
  };
  struct Anchored {
    Node node;
    std::size_t size = 0;
  };

  const LineIndex& lines_;
  const Limits& limits_;
  DiagnosticSink& sink_;
  std::vector<Frame> stack_;
  std::map<YAML::anchor_t, Anchored> anchors_;
  Node root_;
  bool has_root_ = false;
  std::size_t nodes_ = 0;
  int alias_uses_ = 0;

  Mark to_mark(const YAML::Mark& m) const {
    if (m.is_null()) return Mark{};
    return lines_.at_line_byte(m.line, m.column);
  }

  std::string path() const { return stack_.empty() ? std::string() : child_path(stack_.back()); }

  static std::string child_path(const Frame& f) {
    if (f.node.is_array()) return pointer_join(f.path, f.node.items.size());
    return pointer_join(f.path, f.key);
  }

  [[noreturn]] void fail(Code code, Mark m, std::string message, std::string hint = {}) {
    sink_.add(code, path(), m, std::move(message), std::move(hint));
    throw StopParsing{};
  }

  void bad_tag(const std::string& tag, Mark m) {
    std::string shown = tag.rfind(k_core_tag_prefix, 0) == 0 ? "!!" + tag.substr(k_core_tag_prefix.size()) : tag;
    sink_.add(Code::YAML_TAG, path(), m, "the YAML tag " + shown + " is not part of the core schema",
              "remove the tag; only !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are accepted");
  }

  void check_collection_tag(const std::string& tag, std::string_view expected, Mark m) {
    if (tag.empty() || tag == "?" || tag == "!") return;
    if (tag == std::string(k_core_tag_prefix) + std::string(expected)) return;
    bad_tag(tag, m);
  }

  void count_nodes(std::size_t n, Mark m) {
    nodes_ += n;
    if (nodes_ > limits_.max_nodes) {
      fail(alias_uses_ > 0 ? Code::YAML_ALIAS_LIMIT : Code::DOC_TOO_MANY_NODES, m,
           "the document expands to more than " + std::to_string(limits_.max_nodes) + " nodes",
           alias_uses_ > 0 ? "aliases are expanded when counted; expand fewer of them" : "split the document");
    }
  }

  void emit_scalar(Node n, YAML::anchor_t anchor) {
    Mark m = n.mark;
    if (!stack_.empty() && stack_.back().node.is_object() && stack_.back().expecting_key) {
      take_key(n);
      return;
    }
    count_nodes(1, m);
    place(std::move(n), m, anchor, 1);
  }

  void take_key(const Node& k) {
    Frame& f = stack_.back();
    f.expecting_key = false;
    f.drop_value = false;
    f.key_mark = k.mark;
    f.key = k.is_null() && k.text.empty() ? std::string() : k.text;
    if (k.style == ScalarStyle::plain && k.text == "<<") {
      sink_.add(Code::YAML_MERGE_KEY, f.path, k.mark, "YAML merge keys (<<) are not supported",
                "write the merged keys out; Kubernetes, PyYAML and yaml-cpp disagree on merges");
      f.drop_value = true;
      return;
    }
    if (is_duplicate(f, f.key)) {
      sink_.add(Code::DUPLICATE_KEY, pointer_join(f.path, f.key), k.mark,
                "the key \"" + f.key + "\" appears twice in the same object",
                "remove one of them; sandgate never picks a winner");
      f.drop_value = true;
    }
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
    if (!stack_.empty() && stack_.back().node.is_object() && stack_.back().expecting_key) {
      // A collection used as a key: JSON has no such thing. Read it anyway, to stay in step with
      // the event stream, and drop it (and its value) when it closes.
      Frame& f = stack_.back();
      f.collecting_key = true;
      sink_.add(Code::SYNTAX, f.path, m, "an object or list is used as a key", "keys must be plain strings");
    }
    if (static_cast<int>(stack_.size()) >= limits_.max_depth) {
      fail(Code::DOC_TOO_DEEP, m,
           "objects and lists are nested deeper than " + std::to_string(limits_.max_depth) + " levels",
           "flatten the document, or raise the depth limit");
    }
    count_nodes(1, m);
    Frame f;
    f.path = path();
    n.mark = m;
    f.node = std::move(n);
    f.anchor = anchor;
    f.nodes_before = nodes_ - 1;
    stack_.push_back(std::move(f));
  }

  void close() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    Mark m = f.node.mark;
    place(std::move(f.node), m, f.anchor, nodes_ - f.nodes_before);
  }

  // Puts a finished node into its parent (or makes it the root) and records its anchor.
  void place(Node n, Mark m, YAML::anchor_t anchor, std::size_t size) {
    if (anchor != 0) anchors_[anchor] = Anchored{n, size};
    if (stack_.empty()) {
      root_ = std::move(n);
      has_root_ = true;
      return;
    }
    Frame& f = stack_.back();
    if (f.node.is_array()) {
      f.node.items.push_back(std::move(n));
      return;
    }
    if (f.collecting_key) {
      f.collecting_key = false;
      f.expecting_key = false;
      f.drop_value = true;
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
    (void)m;
    if (!f.keys.empty()) f.keys.insert(mem.key);
    f.node.members.push_back(std::move(mem));
  }
};

// A second document must be detected without trusting HandleNextDocument to terminate on its
// own: we ask for exactly one more and ignore its content.
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
  YAML::Mark start;
  int depth = 0;
};

}  // namespace

bool load_yaml(std::string_view text, const LineIndex& lines, const Limits& limits, Node& root,
               DiagnosticSink& sink) {
  std::istringstream in{std::string(text)};
  TreeBuilder builder(lines, limits, sink);
  try {
    YAML::Parser parser(in);
    if (!parser.HandleNextDocument(builder) || !builder.has_root()) {
      sink.add(Code::EMPTY_DOCUMENT, "", Mark{1, 1}, "the document is empty",
               "write an object, or {} for an empty one");
      return false;
    }
    root = builder.take_root();
    Discard rest;
    bool more = false;
    try {
      more = parser.HandleNextDocument(rest);
    } catch (const StopParsing&) {
      more = true;
    }
    if (more) {
      sink.add(Code::MULTIPLE_DOCUMENTS, "", lines.at_line_byte(rest.start.line, rest.start.column),
               "the YAML stream holds more than one document", "keep one document per file");
    }
    return true;
  } catch (const StopParsing&) {
    return false;
  } catch (const YAML::Exception& e) {
    Mark m = e.mark.is_null() ? Mark{} : lines.at_line_byte(e.mark.line, e.mark.column);
    std::string msg = e.msg.empty() ? std::string("malformed YAML") : e.msg;
    sink.add(Code::SYNTAX, "", m, "the YAML is malformed: " + msg);
    return false;
  } catch (const std::exception& e) {
    sink.add(Code::SYNTAX, "", Mark{}, std::string("the YAML could not be read: ") + e.what());
    return false;
  }
}

}  // namespace sandgate::detail
