// The one intermediate form the core reads: a JSON-like tree in which every value remembers
// where it came from (line:column for text) and every object keeps its members in input order.
// Loaders build it from YAML or JSON text; the bindings build it straight from native values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sandgate {

// Where a value stands in its input. From text: its 1-based line and column. From a binding's
// native value, which has no text: line 0 and, in `column`, the value's place in its input's walk
// order (1 the root, then each key and each value as a reader of the same value's text would meet
// them), so that its diagnostics read in the order that text's would. Both 0: nowhere.
struct Mark {
  std::int32_t line = 0;
  std::int32_t column = 0;
  bool known() const { return line > 0; }                  // a position in text
  bool placed() const { return line > 0 || column > 0; }   // a position in text or a walk order
  std::int32_t walk_order() const { return line > 0 ? 0 : column; }
};

enum class NodeKind : std::uint8_t { null, boolean, integer, number, string, array, object };

// How a scalar was written, which decides how strictly it may be read.
enum class ScalarStyle : std::uint8_t {
  native,  // JSON text or a value from a binding: the type is what it is
  plain,   // an unquoted YAML scalar, typed by the YAML 1.1 rules
  quoted,  // a quoted or block YAML scalar, or one tagged !!str: always a string
};

struct Member;

// The SDK option class an object was given as, when the input says so: a binding's dataclass
// instance (by its class name), or a YAML local tag on a mapping (`!RegisteredVolumeOptions {…}`).
// A plain map is `none`. The request reads a few of them differently from the dict of their
// fields: cwsandbox sends a RegisteredVolumeOptions through its constructor's checks where a
// {name, volume_id} dict goes as it is, SandboxDefaults(...) keeps what from_dict would convert, and
// an empty ResourceOptions() sends no resources where an empty dict is refused.
enum class GivenAs : std::uint8_t { none, sandbox_defaults, registered_volume_options, scratch_volume_options, resource_options };
// The class for its name ("RegisteredVolumeOptions"); `none` for any other name.
GivenAs given_as_from_name(std::string_view name);
std::string_view given_as_name(GivenAs c);  // "" for none

struct Node {
  // User-provided (the members' initializers still apply): value-initialization — every
  // `items.emplace_back()` of a reader — would otherwise zero all 112 bytes with `rep stos` first,
  // half the time of placing a value under perf. Defined below Member: its body destroys a
  // vector<Member> on unwinding, which needs Member complete (clang insists).
  Node();

  NodeKind kind = NodeKind::null;
  ScalarStyle style = ScalarStyle::native;
  bool yaml11_word = false;   // a boolean written as yes/no/on/off (any case form)
  bool int_overflow = false;  // an integer literal outside int64: `integer` is clamped, `text` is exact
  std::uint8_t origin = 0;    // which input layer a merged value came from (engine bookkeeping)
  GivenAs given_as = GivenAs::none;  // objects: the SDK class the value was given as
  bool boolean = false;
  std::int64_t integer = 0;
  double number = 0;
  std::string text;  // the string value; for numbers and booleans read from text, the literal
  std::vector<Node> items;      // array elements
  std::vector<Member> members;  // object members, in input order
  Mark mark;

  bool is_null() const { return kind == NodeKind::null; }
  bool is_bool() const { return kind == NodeKind::boolean; }
  bool is_int() const { return kind == NodeKind::integer; }
  bool is_number() const { return kind == NodeKind::integer || kind == NodeKind::number; }
  bool is_string() const { return kind == NodeKind::string; }
  bool is_array() const { return kind == NodeKind::array; }
  bool is_object() const { return kind == NodeKind::object; }
  bool is_scalar() const { return kind != NodeKind::array && kind != NodeKind::object; }

  // The member value for `key` (canonical spelling), or nullptr.
  const Node* find(std::string_view key) const;
  Node* find(std::string_view key);
  // The member for `key`, or nullptr.
  const Member* find_member(std::string_view key) const;

  // The value as the input spelled it, for messages: strings quoted, numbers as written.
  std::string display() const;
  // A short name of the kind for messages: "a string", "a boolean", "an object", …
  std::string_view kind_name() const;

  static Node make_null();
  static Node make_bool(bool v);
  static Node make_int(std::int64_t v);
  static Node make_number(double v);
  static Node make_string(std::string v);
  static Node make_array();
  static Node make_object();
  // Appends a member and returns its value.
  Node& add(std::string key, Node value);
  bool operator==(const Node& other) const;  // structural equality, ignoring marks, styles and given_as
};

struct Member {
  Member() {}  // NOLINT(modernize-use-equals-default): as Node's

  std::string key;           // canonical spelling (after the spelling layer)
  std::string original_key;  // as written in the input when it differs from `key`, else empty
  Mark key_mark;
  Node value;
  std::string_view input_key() const { return original_key.empty() ? key : original_key; }
};

inline Node::Node() {}  // NOLINT(modernize-use-equals-default): see the declaration

// Gives every value and key of a tree built from a native value its walk order (see Mark); a tree
// whose root is already placed (read from text, or numbered before) is left as it is.
void place_in_walk_order(Node& root);

// RFC 6901: `base` + "/" + escaped `token`.
std::string pointer_join(std::string_view base, std::string_view token);
// Appends "/" + escaped `token` to `path` (pointer_join in place).
void pointer_append(std::string& path, std::string_view token);
std::string pointer_join(std::string_view base, std::size_t index);
void pointer_append(std::string& path, std::size_t index);
// Splits a pointer into unescaped tokens; false if it is malformed.
bool pointer_split(std::string_view pointer, std::vector<std::string>& tokens);
// The node at `pointer`, matching object keys by their input spelling; nullptr if none.
const Node* pointer_resolve(const Node& root, std::string_view pointer);

}  // namespace sandgate
