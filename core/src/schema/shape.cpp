#include "schema/shape.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <utility>

#include "sandgate/small_vector.h"
#include "schema/other_names.h"
#include "util/text.h"

namespace sandgate::schema {
namespace {

// The path of the value being walked, kept as tokens and turned into a JSON Pointer only when a
// diagnostic needs it: most inputs have no problem, and building every path cost more than
// checking the values.
class PathStack {
 public:
  explicit PathStack(std::string base) : base_(std::move(base)) {}
  void push(std::string_view key) { tokens_.push_back({key, 0, false}); }
  void push(std::size_t index) { tokens_.push_back({{}, index, true}); }
  void pop() { tokens_.pop_back(); }
  bool at_top() const { return tokens_.empty(); }
  const std::string& base() const { return base_; }
  // The key of the innermost member ("" at the top or in a list's item).
  std::string_view last_key() const {
    return tokens_.empty() || tokens_.back().is_index ? std::string_view() : tokens_.back().key;
  }
  std::string str() const {
    std::string out = base_;
    for (const auto& t : tokens_) out = t.is_index ? pointer_join(out, t.index) : pointer_join(out, t.key);
    return out;
  }

 private:
  struct Token {
    std::string_view key;
    std::size_t index;
    bool is_index;
  };
  std::string base_;
  SmallVector<Token, 8> tokens_;  // deeper than 8 only in unusual documents: no allocation per walk
};

// What each kind of document is called in a message.
constexpr std::pair<std::string_view, std::string_view> k_kinds[] = {
    {"sandbox", "a sandbox request"}, {"policy", "a policy"}, {"runners", "a runner inventory"}, {"org", "an org's entitlements"}};

std::string_view kind_name(std::string_view kind) {
  for (const auto& [k, name] : k_kinds) {
    if (k == kind) return name;
  }
  return "this document";
}

// The kind of document other than `kind` whose top level has `key`, if one has: a sandbox given
// where a policy goes shows container_image, placement_mode, … each "unknown", and the list of a
// policy's known fields does not say the file is the wrong one.
std::optional<std::string_view> kind_with_top_level(std::string_view key, std::string_view kind) {
  for (const auto& [k, name] : k_kinds) {
    if (k == kind) continue;
    const auto& names = get(k).root->property_names;
    if (std::find(names.begin(), names.end(), key) != names.end()) return name;
  }
  return std::nullopt;
}

struct Walker {
  DiagnosticSink& sink;
  ReportedPaths& reported;
  const ShapeOptions& options;
  const CompiledSchema& schema;
  std::string_view kind;  // the schema's name: sandbox, policy, runners, org
  PathStack path;
  // A document can hold 100,000 unknown keys; listing each costs memory and time and helps no one.
  // After this many, the rest are counted into one closing diagnostic.
  static constexpr std::size_t k_unknown_listed_max = 100;
  std::size_t unknown_listed = 0;
  std::size_t unknown_unlisted = 0;
  std::optional<Diagnostic> first_unlisted;
  // Inside a list's item a field named elsewhere is not "misplaced": moving it out of the item
  // would change what it means (container_image in /containers/0 is the container's image, which
  // is spelt "image"). Map values need no count: no schema of ours has a map of objects.
  std::size_t list_depth = 0;
  static constexpr std::size_t k_word_matches_shown = 4;
  // Two or more top-level keys that are unknown here are top-level fields of another kind of
  // document: the file is most likely that kind, and every such key says so, even one that is
  // also a near spelling of a field here ("base" in a policy given as a sandbox, not "base_url").
  bool other_kind_document = false;

  std::size_t count_other_kinds_fields(const Node& node, const SchemaNode& s) const {
    std::size_t n = 0;
    for (const auto& m : node.members) {
      // Known keys (nearly all) cost one lookup: the snake_case spelling is built for unknown ones only.
      if (s.property(m.key) || s.aliases.count(m.key)) continue;
      std::string snake = to_snake_case(m.key);
      if (!s.property(snake) && kind_with_top_level(snake, kind)) ++n;
    }
    return n;
  }

  void walk(Node& node, const SchemaNode* s) {
    if (!s || s->opaque) return;
    if (node.is_object()) {
      walk_object(node, *s);
    } else if (node.is_array()) {
      if (!s->items) return;
      ++list_depth;
      for (std::size_t i = 0; i < node.items.size(); ++i) {
        path.push(i);
        walk(node.items[i], s->items);
        path.pop();
      }
      --list_depth;
    } else {
      check_scalar(node, *s);
    }
  }

  void walk_object(Node& node, const SchemaNode& s) {
    if (path.at_top() && &s == schema.root) other_kind_document = count_other_kinds_fields(node, s) >= 2;
    if (!s.is_struct) {
      // A map (annotations, labels): keys are data, never respelled.
      if (!s.additional) return;
      for (auto& m : node.members) {
        path.push(m.input_key());
        walk(m.value, s.additional);
        path.pop();
      }
      return;
    }
    // Members are kept in place (most objects lose none); `seen` indexes the kept ones, so a
    // second spelling of a field can name the first.
    struct Seen {
      std::string_view canonical;
      std::uint32_t index;  // of the kept member
      bool via_alias;
    };
    SmallVector<Seen, 16> seen;
    std::size_t write = 0;
    auto keep = [&](std::size_t read) {
      if (write != read) node.members[write] = std::move(node.members[read]);
      ++write;
    };
    for (std::size_t read = 0; read < node.members.size(); ++read) {
      Member& m = node.members[read];
      // `canonical` views the schema's own copy of the name: m.key moves away below.
      const SchemaNode* child = nullptr;
      std::string_view canonical;
      if (const auto* e = s.properties.find(m.key)) {
        child = e->value;
        canonical = e->key;
      }
      bool via_alias = false;
      if (!child) {
        // lowerCamelCase (TypeScript, REST) is another spelling; "Requests" is not.
        bool upper_first = !m.key.empty() && m.key.front() >= 'A' && m.key.front() <= 'Z';
        std::string snake = upper_first ? m.key : to_snake_case(m.key);
        auto alias = s.aliases.find(m.key);
        if (alias == s.aliases.end()) alias = s.aliases.find(snake);
        auto removed = s.removed.find(m.key);
        if (removed == s.removed.end()) removed = s.removed.find(snake);
        if (const auto* e = s.properties.find(snake)) {
          child = e->value;
          canonical = e->key;
        } else if (alias != s.aliases.end()) {
          if (const auto* target = s.properties.find(alias->second)) {
            child = target->value;
            canonical = target->key;
          }
          via_alias = true;
        } else if (removed != s.removed.end()) {
          std::string member_path = child_path(m);
          sink.add(Code::REMOVED_KEY, member_path, m.key_mark, "\"" + m.key + "\" was removed in cwsandbox 1.x",
                   std::string(removed->second));
          reported.insert(member_path);
          continue;
        }
      }
      if (!child) {
        if (s.additional) {
          path.push(m.input_key());
          walk(m.value, s.additional);
          path.pop();
          keep(read);
        } else {
          report_unknown(m, s, node);
        }
        continue;
      }
      if (m.value.is_null() && !child->allows_null && !child->keep_null) continue;  // null = unset
      const Seen* prior = nullptr;
      for (const auto& x : seen) {
        if (x.canonical == canonical) prior = &x;
      }
      if (prior) {
        bool alias_involved = via_alias || prior->via_alias;
        std::string member_path = child_path(m);
        sink.add(alias_involved ? options.alias_conflict_code : Code::DUPLICATE_SPELLING, member_path, m.key_mark,
                 "\"" + m.key + "\" and \"" + std::string(node.members[prior->index].input_key()) + "\" are the same field, set twice",
                 alias_involved ? "keep the canonical name \"" + std::string(canonical) + "\" and remove the legacy one"
                                : "keep one spelling");
        reported.insert(member_path);
        continue;
      }
      seen.push_back({canonical, static_cast<std::uint32_t>(write), via_alias});
      if (canonical != m.key) {
        m.original_key = std::move(m.key);
        m.key = std::string(canonical);
      }
      path.push(m.input_key());
      walk(m.value, child);
      path.pop();
      keep(read);
    }
    node.members.resize(write);
  }

  std::string child_path(const Member& m) const { return pointer_join(path.str(), m.input_key()); }

  void report_unknown(const Member& m, const SchemaNode& s, const Node& object) {
    if (unknown_listed == k_unknown_listed_max) {
      if (unknown_unlisted++ == 0) {
        Diagnostics one;
        DiagnosticSink scratch(one, sink.file(), sink.input());
        report_unknown_now(m, s, object, scratch);
        first_unlisted = std::move(one.front());
      }
      return;
    }
    ++unknown_listed;
    report_unknown_now(m, s, object, sink);
  }

  // One diagnostic naming the unknown keys left out, at the first of them.
  void finish() {
    if (unknown_unlisted == 0) return;
    Diagnostic d = std::move(*first_unlisted);
    d.message = std::to_string(unknown_unlisted) + " more unknown fields are not listed; the first is " +
                d.message.substr(d.message.find('"'));
    d.hint = "fix the ones listed and run again";
    sink.diagnostics().push_back(std::move(d));
  }

  // "a field in /resources: move it there", or every place and "move it to the one you mean".
  static std::string places_phrase(const std::vector<std::string>& shown) {
    return "a field " + join_and(shown) + (shown.size() == 1 ? ": move it there" : ": move it to the one you mean");
  }

  // Where else in this kind of document `key` is a field, in the words of the unknown-field
  // message, as the rest of "\"key\" is …": "a field in /constraints/resources: move it there",
  // "a field at the top level: …", or every place ("a field in /resources, in /resources/requests
  // and in /resources/limits: move it to the one you mean"); "" when it is a field nowhere else.
  std::string places_of(std::string_view key) const {
    auto it = schema.field_places.find(key);
    if (it == schema.field_places.end()) return {};
    std::vector<std::string> shown;
    for (const std::string& place : it->second) {
      std::string at = path.base() + place;
      shown.push_back(at.empty() ? std::string("at the top level") : "in " + at);
    }
    return places_phrase(shown);
  }

  // The lists whose entries have `key` as a field, as "a field of each entry in /network/egress: move
  // it into an entry"; "" when none, or more than a few (then no list stands out).
  std::string list_places_of(std::string_view key) const {
    auto it = schema.field_list_places.find(key);
    if (it == schema.field_list_places.end() || it->second.size() > k_word_matches_shown) return {};
    std::vector<std::string> shown;
    for (const std::string& place : it->second) shown.push_back(path.base() + place);
    return "a field of each entry in " + join_or(shown) + (shown.size() == 1 ? ": move it into an entry" : ": move it into an entry of the one you mean");
  }

  // Inside a list's item, where the global places do not apply: the objects below this one (not
  // through a list) whose schema has `key`, as "a field in /services/0/endpoint: move it there".
  // A field written one level too high stays in its item and keeps its meaning. With
  // `written_only`, only below members the item has: "except" in a hostname rule is more likely
  // https_hostname_except than the except of a cidr the rule does not have.
  std::string places_below(const SchemaNode& s, const Node& object, std::string_view key, bool written_only) const {
    std::vector<std::string> shown;
    std::vector<const SchemaNode*> ancestors;
    auto walk = [&](auto& self, const SchemaNode& n, const std::string& at, bool top) -> void {
      if (n.opaque || !n.is_struct || shown.size() > k_word_matches_shown ||
          std::find(ancestors.begin(), ancestors.end(), &n) != ancestors.end()) {
        return;
      }
      ancestors.push_back(&n);
      for (const std::string& name : n.property_names) {
        const SchemaNode* child = n.property(name);
        if (!child || (top && written_only && !object.find(name))) continue;
        std::string child_at = pointer_join(at, name);
        if (child->is_struct && !child->opaque && child->property(key)) shown.push_back("in " + child_at);
        self(self, *child, child_at, false);
      }
      ancestors.pop_back();
    };
    walk(walk, s, path.str(), true);
    if (shown.empty() || shown.size() > k_word_matches_shown) return {};
    return places_phrase(shown);
  }

  // "did you mean \"gpu\"? (\"nvidia.com/gpu\" is Kubernetes's name for it)" when the field is at
  // this level, or its places when it is elsewhere; "" when `key` is no other tool's name of a
  // field of this kind of document.
  std::string other_tools_name_hint(const std::string& key, const std::string& snake,
                                    const std::vector<std::string>& names) const {
    std::optional<OtherName> other = other_tools_name(snake);
    if (!other) return {};
    bool camel = key != snake;
    std::string field = camel ? to_camel_case(other->field) : std::string(other->field);
    std::string whose = std::string(other->tool) + "'s name";
    if (std::find(names.begin(), names.end(), other->field) != names.end()) {
      return "did you mean \"" + field + "\"? (" + shown_text(key) + " is " + whose + " for it)";
    }
    std::string places = list_depth == 0 ? places_of(other->field) : std::string();
    if (places.empty()) return {};
    return shown_text(key) + " is " + whose + " for \"" + field + "\", " + places;
  }

  // The required fields of `s` that `object` does not set, under any spelling.
  static std::vector<std::string> missing_required(const SchemaNode& s, const Node& object) {
    std::vector<std::string> out;
    for (std::string_view r : s.required) {
      bool set = std::any_of(object.members.begin(), object.members.end(),
                             [&](const Member& x) { return x.key == r || to_snake_case(x.key) == r; });
      if (!set) out.emplace_back(r);
    }
    return out;
  }

  void report_unknown_now(const Member& m, const SchemaNode& s, const Node& object, DiagnosticSink& out) {
    const auto& names = s.property_names;
    const std::string snake = to_snake_case(m.key);
    bool camel = m.key != snake;
    // A real field's name is stronger evidence than a near spelling: "gpu" in /resources/requests
    // is the field of /resources, not a typo of "cpu".
    std::string elsewhere = list_depth == 0 ? places_of(snake) : places_below(s, object, snake, true);
    // Another tool's name for one of our fields is as strong: it is what the user copied.
    std::string renamed = elsewhere.empty() ? other_tools_name_hint(m.key, snake, names) : std::string();
    // The one field that has every word of the key ("max_gpu" → max_gpu_count) beats a near
    // spelling of another (max_cpu): the key is that name cut short. Several such fields do not.
    const bool look_here = elsewhere.empty() && renamed.empty();
    std::vector<std::string> near = look_here ? names_with_words(snake, names) : std::vector<std::string>{};
    // So does the one missing required field that has the key among its words, however short
    // ("id" where runner_id is required and not set).
    std::vector<std::string> required;
    if (look_here && near.size() != 1 && !s.required.empty()) {
      std::vector<std::string> missing = missing_required(s, object);
      required = names_with_words(snake, missing, 1);
      // Or the one whose words are all in the key: "file_path" where path is required and not set.
      if (required.empty()) {
        for (const std::string& r : missing) {
          if (!names_with_words(r, {snake}, 1).empty()) required.push_back(r);
        }
      }
    }
    std::string guess = !look_here           ? std::string()
                        : near.size() == 1   ? near.front()
                        : required.size() == 1 ? required.front()
                                             : closest_match(snake, names);
    // In the user's spelling family (mount_path, not path, beside a file_content).
    auto named = [&](const std::string& field) { return s.value ? field_name_for(*s.value, object, field) : field; };
    std::string hint;
    const bool warn_only = options.unknown_key_severity != Severity::error && path.at_top();
    std::optional<std::string_view> other_kind;
    if ((guess.empty() || other_kind_document) && path.at_top()) other_kind = kind_with_top_level(snake, kind);
    if (other_kind) {
      // A whole file of the wrong kind is likelier than one misplaced key; the place comes second.
      hint = shown_text(m.key) + " is a top-level field of " + std::string(*other_kind) + ", not of " +
             std::string(kind_name(kind)) + ": is this the right file?";
      if (!elsewhere.empty()) hint += " (in " + std::string(kind_name(kind)) + " it is " + elsewhere + ")";
    } else if (!elsewhere.empty()) {
      hint = shown_text(m.key) + " is " + elsewhere;
    } else if (!renamed.empty()) {
      hint = renamed;
    } else if (!guess.empty()) {
      hint = "did you mean \"" + (camel ? to_camel_case(guess) : named(guess)) + "\"?";
      // The key is a required field misspelt ("bucket" for buckets): that the field is missing
      // is this same mistake, told once here (cwsandbox raises for the unexpected keyword first,
      // too). validate() leaves the field's "missing" out; a key only warned about does not.
      if (!warn_only) {
        std::vector<std::string> missing = missing_required(s, object);
        if (std::find(missing.begin(), missing.end(), guess) != missing.end()) reported.insert(pointer_join(path.str(), guess));
      }
    } else if (!near.empty() && near.size() <= k_word_matches_shown) {
      // A word of a field's name ("cpu" for max_cpu, min_cpu, …): more than a few is no guide.
      for (auto& n : near) n = "\"" + (camel ? to_camel_case(n) : named(n)) + "\"";
      hint = "did you mean " + join_or(near) + "?";
    } else if (std::string below = list_depth > 0 ? places_below(s, object, snake, false) : std::string(); !below.empty()) {
      // An object the item does not have yet ("kind" for an endpoint not written).
      hint = shown_text(m.key) + " is " + below;
    } else if (std::string lists = list_depth == 0 ? list_places_of(snake) : std::string(); !lists.empty()) {
      hint = shown_text(m.key) + " is " + lists;
    } else if (!names.empty()) {
      std::vector<std::string> shown(names.begin(), names.begin() + std::min<std::size_t>(names.size(), 12));
      for (auto& n : shown) n = "\"" + named(n) + "\"";
      hint = "known fields here: " + join_and(shown) + (names.size() > shown.size() ? ", …" : "");
    }
    std::string parent = path.str();
    std::string member_path = pointer_join(parent, m.input_key());
    std::string where = path.at_top() ? "at the top level" : "in " + parent;
    bool warn = warn_only;
    // A schema may name its own code for unknown keys (resources: the SDK's "unrecognized keys").
    Code code = s.unknown_code.empty() ? Code::UNKNOWN_KEY : code_from_name(s.unknown_code).value_or(Code::UNKNOWN_KEY);
    auto& d = out.add(code, member_path, m.key_mark,
                       "unknown field " + shown_text(m.key) + " " + where +
                           (warn ? "; SandboxDefaults.from_dict ignores it silently, so it has no effect" : ""),
                       hint);
    if (warn) d.severity = options.unknown_key_severity;
    reported.insert(member_path);
  }

  void check_scalar(Node& node, const SchemaNode& s) {
    if (!s.int_kind.empty()) check_integer(node, s);
    if (node.is_bool() && node.yaml11_word && s.allows_boolean && !s.allows_string) {
      std::string p = path.str();
      sink.add(Code::YAML11_BOOLEAN, p, node.mark, "\"" + node.text + "\" is read as a boolean only by YAML 1.1 readers",
               std::string("write ") + (node.boolean ? "true" : "false"));
      reported.insert(p);
    }
  }

  void check_integer(Node& node, const SchemaNode& s) {
    std::string_view int_kind = s.int_kind;
    std::int64_t lo = std::numeric_limits<std::int64_t>::min();
    std::int64_t hi = std::numeric_limits<std::int64_t>::max();
    if (int_kind == "int32") {
      lo = std::numeric_limits<std::int32_t>::min();
      hi = std::numeric_limits<std::int32_t>::max();
    } else if (int_kind == "uint32") {
      lo = 0;
      hi = std::numeric_limits<std::uint32_t>::max();
    }
    auto range = [&] {
      return "the field is " + std::string(int_kind) + " (" + std::to_string(lo) + ".." + std::to_string(hi) + ")";
    };
    if (node.is_string() && int_kind == "int64" && s.allows_string) {
      std::string_view t = node.text;
      std::string_view digits = !t.empty() && t[0] == '-' ? t.substr(1) : t;
      bool decimal = !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
      if (!decimal) {
        std::string p = path.str();
        std::string hint = exponent_hint(t);
        if (hint.empty()) hint = seconds_hint(path.last_key(), node.display(), t);
        sink.add(Code::NOT_AN_INTEGER, p, node.mark, node.display() + " is not a decimal integer",
                 hint.empty() ? "write a whole number, e.g. \"2\"" : hint);
        reported.insert(p);
        return;
      }
      std::int64_t v = 0;
      auto r = std::from_chars(t.data(), t.data() + t.size(), v);
      if (r.ec != std::errc{} || v < lo || v > hi) {
        std::string p = path.str();
        sink.add(Code::INTEGER_RANGE, p, node.mark, node.display() + " does not fit: " + range());
        reported.insert(p);
        return;
      }
      // From here on the value is an integer, so the schema's bounds apply to both spellings.
      std::string literal = std::move(node.text);
      Mark mark = node.mark;
      std::uint8_t origin = node.origin;
      node = Node::make_int(v);
      node.mark = mark;
      node.origin = origin;
      node.text = std::move(literal);
      return;
    }
    if (node.is_int() && (node.int_overflow || node.integer < lo || node.integer > hi)) {
      std::string p = path.str();
      sink.add(Code::INTEGER_RANGE, p, node.mark, node.display() + " does not fit: " + range(),
               "numbers are never wrapped or truncated");
      reported.insert(p);
    }
  }
};

}  // namespace

void shape(Node& node, const CompiledSchema& cs, const std::string& path, DiagnosticSink& sink,
           ReportedPaths& reported, const ShapeOptions& options) {
  Walker w{sink, reported, options, cs, cs.name, PathStack(path), 0, 0, std::nullopt, 0};
  w.walk(node, cs.root);
  w.finish();
}

ReportedPaths reported_before(const Diagnostics& diagnostics) {
  ReportedPaths reported;
  for (const auto& d : diagnostics) {
    if (d.severity == Severity::error && !read_past(d.code)) reported.insert(d.path);
  }
  return reported;
}

bool already_reported(const ReportedPaths& reported, const std::string& path) {
  if (reported.empty()) return false;
  std::string p = path;
  while (true) {
    if (reported.count(p)) return true;
    auto slash = p.rfind('/');
    if (slash == std::string::npos) return false;
    p.resize(slash);
    if (p.empty()) return reported.count(p) > 0;
  }
}

}  // namespace sandgate::schema
