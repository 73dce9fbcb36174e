// Node tree helpers: lookup, display, JSON Pointer.
#include <charconv>
#include <cstdint>
#include <cstring>
#include <utility>

#include "sandgate/node.h"
#include "util/integer_literal.h"
#include "util/text.h"

namespace sandgate {

const Node* Node::find(std::string_view key) const {
  for (const auto& m : members) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

Node* Node::find(std::string_view key) {
  for (auto& m : members) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

const Member* Node::find_member(std::string_view key) const {
  for (const auto& m : members) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

std::string Node::display() const {
  constexpr std::size_t k_max = 80;
  switch (kind) {
    case NodeKind::null: return text.empty() ? "null" : text;
    case NodeKind::boolean: return text.empty() ? (boolean ? "true" : "false") : text;
    case NodeKind::integer: return text.empty() ? std::to_string(integer) : text;
    case NodeKind::number: {
      if (!text.empty()) return text;
      char buf[32];
      auto r = std::to_chars(buf, buf + sizeof buf, number);
      std::string shown(buf, r.ptr);
      // A float from a binding (3.0) must not read as the integer 3: "must be a whole number, not 3".
      if (shown.find_first_of(".eEn") == std::string::npos) shown += ".0";
      return shown;
    }
    case NodeKind::string: {
      if (text.size() <= k_max) return quoted(text);
      // Cut on a character boundary: a split UTF-8 sequence would make the message invalid text.
      std::size_t cut = k_max;
      while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
      return quoted(std::string_view(text).substr(0, cut)) + "…";
    }
    case NodeKind::array: return "a list of " + std::to_string(items.size());
    case NodeKind::object: return "an object";
  }
  return "";
}

std::string_view Node::kind_name() const {
  switch (kind) {
    case NodeKind::null: return "null";
    case NodeKind::boolean: return "a boolean";
    case NodeKind::integer: return "an integer";
    case NodeKind::number: return "a number";
    case NodeKind::string: return "a string";
    case NodeKind::array: return "a list";
    case NodeKind::object: return "an object";
  }
  return "a value";
}

Node Node::make_null() { return Node{}; }
Node Node::make_bool(bool v) {
  Node n;
  n.kind = NodeKind::boolean;
  n.boolean = v;
  return n;
}
Node Node::make_int(std::int64_t v) {
  Node n;
  n.kind = NodeKind::integer;
  n.integer = v;
  return n;
}
Node Node::make_number(double v) {
  Node n;
  n.kind = NodeKind::number;
  n.number = v;
  return n;
}
Node Node::make_string(std::string v) {
  Node n;
  n.kind = NodeKind::string;
  n.text = std::move(v);
  return n;
}
Node Node::make_array() {
  Node n;
  n.kind = NodeKind::array;
  return n;
}
Node Node::make_object() {
  Node n;
  n.kind = NodeKind::object;
  return n;
}

Node& Node::add(std::string key, Node value) {
  // Built in place: a temporary Member would cost one more move and destruction of the whole
  // value (a third of converting a JS object, and of building a resolved sandbox).
  // (Not emplace_back(key, {}, {}, value): Clang 14, the fuzz build's compiler, has no
  // parenthesized aggregate initialization.)
  Member& m = members.emplace_back();
  m.key = std::move(key);
  m.value = std::move(value);
  return m.value;
}

namespace {
// Two literals of integers outside int64 name the same value: their exact decimals are equal (or,
// for a text that is no integer literal, the texts are).
bool same_literal_value(const std::string& a, const std::string& b) {
  if (a == b) return true;
  std::string da = integer_literal_decimal(a), db = integer_literal_decimal(b);
  return !da.empty() && da == db;
}
}  // namespace

bool Node::operator==(const Node& other) const {
  if (kind != other.kind) {
    // 2 and 2.0 are the same JSON value.
    if (is_number() && other.is_number()) {
      double a = kind == NodeKind::integer ? static_cast<double>(integer) : number;
      double b = other.kind == NodeKind::integer ? static_cast<double>(other.integer) : other.number;
      return a == b;
    }
    return false;
  }
  switch (kind) {
    case NodeKind::null: return true;
    case NodeKind::boolean: return boolean == other.boolean;
    case NodeKind::integer:
      // Outside int64 the value is the literal's (clamped `integer`s say nothing): the same value
      // may be written two ways (YAML 1.1's 020 octal, 0x…, 1_000, and the decimal JSON writes).
      if (int_overflow || other.int_overflow) return int_overflow == other.int_overflow && same_literal_value(text, other.text);
      return integer == other.integer;
    case NodeKind::number: return number == other.number;
    case NodeKind::string: return text == other.text;
    case NodeKind::array: return items == other.items;
    case NodeKind::object: {
      if (members.size() != other.members.size()) return false;
      for (std::size_t i = 0; i < members.size(); ++i) {
        if (members[i].key != other.members[i].key) return false;
        if (!(members[i].value == other.members[i].value)) return false;
      }
      return true;
    }
  }
  return false;
}

namespace {
constexpr std::pair<GivenAs, std::string_view> k_given_as_names[] = {
    {GivenAs::sandbox_defaults, "SandboxDefaults"},
    {GivenAs::registered_volume_options, "RegisteredVolumeOptions"},
    {GivenAs::scratch_volume_options, "ScratchVolumeOptions"},
    {GivenAs::resource_options, "ResourceOptions"},
};
}  // namespace

GivenAs given_as_from_name(std::string_view name) {
  for (const auto& [c, n] : k_given_as_names) {
    if (n == name) return c;
  }
  return GivenAs::none;
}

std::string_view given_as_name(GivenAs c) {
  for (const auto& [k, n] : k_given_as_names) {
    if (k == c) return n;
  }
  return {};
}

namespace {

// Whether `token` holds a '~' or a '/' (most hold neither): eight bytes at a time, the rest of a
// token of 8 or more as the word that ends it, a shorter token byte by byte.
bool needs_pointer_escape(std::string_view token) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  auto has_zero = [](std::uint64_t v) { return ((v - ones) & ~v & highs) != 0; };
  const char* s = token.data();
  const std::size_t n = token.size();
  if (n < 8) {
    bool found = false;
    for (char c : token) found |= (c == '~') | (c == '/');
    return found;
  }
  auto word_has = [&](std::size_t at) {
    std::uint64_t w;
    std::memcpy(&w, s + at, 8);
    return has_zero(w ^ ('~' * ones)) || has_zero(w ^ ('/' * ones));
  };
  for (std::size_t i = 0; i + 8 <= n; i += 8) {
    if (word_has(i)) return true;
  }
  return n % 8 != 0 && word_has(n - 8);
}

}  // namespace

namespace {

void place_below(Node& n, std::int32_t& next) {
  // Past int32 (a tree is limited to far fewer nodes) the order stops growing rather than wrap.
  auto take = [&] { return next < INT32_MAX ? next++ : next; };
  for (Member& m : n.members) {
    m.key_mark = Mark{0, take()};
    m.value.mark = Mark{0, take()};
    place_below(m.value, next);
  }
  for (Node& item : n.items) {
    item.mark = Mark{0, take()};
    place_below(item, next);
  }
}

}  // namespace

void place_in_walk_order(Node& root) {
  if (root.mark.placed()) return;
  std::int32_t next = 1;
  root.mark = Mark{0, next++};
  place_below(root, next);
}

void pointer_append(std::string& path, std::string_view token) {
  path += '/';
  // Most tokens have nothing to escape: then they are copied in one go (this runs for every value
  // a compile, a policy build or a binding's converter reads).
  if (!needs_pointer_escape(token)) {
    path.append(token);
    return;
  }
  // Annotation keys ("slurm.coreweave.com/partition") do: the runs between escapes go in one go.
  std::size_t run = 0;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] != '~' && token[i] != '/') continue;
    path.append(token.data() + run, i - run);
    path += token[i] == '~' ? "~0" : "~1";
    run = i + 1;
  }
  path.append(token.data() + run, token.size() - run);
}

std::string pointer_join(std::string_view base, std::string_view token) {
  std::string out;
  out.reserve(base.size() + token.size() + 1);
  out.append(base);
  pointer_append(out, token);
  return out;
}

namespace {
// An array index as a pointer token (digits never need escaping).
std::string_view index_token(std::size_t index, char (&buffer)[24]) {
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, index);
  (void)ec;  // 24 characters hold any std::size_t
  return {buffer, static_cast<std::size_t>(end - buffer)};
}
}  // namespace

void pointer_append(std::string& path, std::size_t index) {
  char buffer[24];
  pointer_append(path, index_token(index, buffer));
}

// Sized exactly, as for a key: "/tags/0" fits the string's inline buffer, where room for 20
// digits would not.
std::string pointer_join(std::string_view base, std::size_t index) {
  char buffer[24];
  return pointer_join(base, index_token(index, buffer));
}

bool pointer_split(std::string_view pointer, std::vector<std::string>& tokens) {
  tokens.clear();
  if (pointer.empty()) return true;
  if (pointer.front() != '/') return false;
  std::size_t i = 1;
  std::string cur;
  for (; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens.push_back(cur);
      cur.clear();
      continue;
    }
    char c = pointer[i];
    if (c == '~') {
      if (i + 1 >= pointer.size()) return false;
      char e = pointer[++i];
      if (e == '0') {
        cur += '~';
      } else if (e == '1') {
        cur += '/';
      } else {
        return false;
      }
    } else {
      cur += c;
    }
  }
  return true;
}

const Node* pointer_resolve(const Node& root, std::string_view pointer) {
  std::vector<std::string> tokens;
  if (!pointer_split(pointer, tokens)) return nullptr;
  const Node* cur = &root;
  for (const auto& t : tokens) {
    if (cur->is_object()) {
      const Node* next = nullptr;
      for (const auto& m : cur->members) {
        if (m.input_key() == t) {
          next = &m.value;
          break;
        }
      }
      if (!next) return nullptr;
      cur = next;
    } else if (cur->is_array()) {
      if (t.empty() || (t.size() > 1 && t[0] == '0')) return nullptr;
      std::size_t idx = 0;
      auto r = std::from_chars(t.data(), t.data() + t.size(), idx);
      if (r.ec != std::errc{} || r.ptr != t.data() + t.size() || idx >= cur->items.size()) return nullptr;
      cur = &cur->items[idx];
    } else {
      return nullptr;
    }
  }
  return cur;
}

}  // namespace sandgate
