#include "schema/shape.h"

#include <charconv>
#include <limits>
#include <map>

#include "util/text.h"

namespace sandgate::schema {
namespace {

using rapidjson::Value;

struct Walker {
  const CompiledSchema& cs;
  DiagnosticSink& sink;
  ReportedPaths& reported;
  const ShapeOptions& options;

  void walk(Node& node, const Value& raw_schema, const std::string& path) {
    const Value& s = deref(cs, raw_schema);
    if (!s.IsObject()) return;
    if (s.HasMember("x-sandgate-opaque")) return;
    if (node.is_object()) {
      walk_object(node, s, path);
    } else if (node.is_array()) {
      if (const Value* items = items_schema(cs, s)) {
        for (std::size_t i = 0; i < node.items.size(); ++i) walk(node.items[i], *items, pointer_join(path, i));
      }
    } else {
      check_scalar(node, s, path);
    }
  }

  static const Value* find(const Value& obj, std::string_view key) {
    if (!obj.IsObject()) return nullptr;
    auto it = obj.FindMember(Value(key.data(), static_cast<rapidjson::SizeType>(key.size())));
    return it == obj.MemberEnd() ? nullptr : &it->value;
  }

  void walk_object(Node& node, const Value& s, const std::string& path) {
    const Value* props = find(s, "properties");
    const Value* addl = find(s, "additionalProperties");
    bool is_struct = props != nullptr || (addl && addl->IsBool() && !addl->GetBool());
    if (!is_struct) {
      // A map (annotations, labels): keys are data, never respelled.
      if (addl && addl->IsObject()) {
        for (auto& m : node.members) walk(m.value, *addl, pointer_join(path, m.input_key()));
      }
      return;
    }
    const Value* aliases = find(s, "x-sandgate-aliases");
    const Value* removed = find(s, "x-sandgate-removed");
    std::map<std::string, std::pair<std::string, bool>, std::less<>> seen;  // canonical → (input key, via alias)
    std::vector<Member> kept;
    kept.reserve(node.members.size());
    for (auto& m : node.members) {
      const std::string input_key = m.key;
      const std::string member_path = pointer_join(path, input_key);
      std::string canonical = input_key;
      bool via_alias = false;
      bool known = props && find(*props, input_key);
      if (!known) {
        std::string snake = to_snake_case(input_key);
        if (props && find(*props, snake)) {
          canonical = snake;
          known = true;
        } else if (const Value* a = aliases ? (find(*aliases, input_key) ? find(*aliases, input_key) : find(*aliases, snake)) : nullptr) {
          canonical = a->GetString();
          via_alias = true;
          known = true;
        } else if (const Value* r = removed ? (find(*removed, input_key) ? find(*removed, input_key) : find(*removed, snake)) : nullptr) {
          sink.add(Code::REMOVED_KEY, member_path, m.key_mark,
                   "\"" + input_key + "\" was removed in cwsandbox 1.x", r->IsString() ? r->GetString() : "");
          reported.insert(member_path);
          continue;
        }
      }
      if (!known) {
        if (addl && addl->IsObject()) {
          walk(m.value, *addl, member_path);
          kept.push_back(std::move(m));
          continue;
        }
        report_unknown(m, props, path, member_path, s);
        continue;
      }
      if (m.value.is_null() && !allows_null(*props, canonical) && !keeps_null(*props, canonical)) continue;  // null = unset
      auto prior = seen.find(canonical);
      if (prior != seen.end()) {
        bool alias_involved = via_alias || prior->second.second;
        sink.add(alias_involved ? options.alias_conflict_code : Code::DUPLICATE_SPELLING, member_path, m.key_mark,
                 "\"" + input_key + "\" and \"" + prior->second.first + "\" are the same field, set twice",
                 alias_involved ? "keep the canonical name \"" + canonical + "\" and remove the legacy one"
                                : "keep one spelling");
        reported.insert(member_path);
        continue;
      }
      seen.emplace(canonical, std::make_pair(input_key, via_alias));
      if (canonical != input_key) {
        m.original_key = input_key;
        m.key = canonical;
      }
      if (const Value* child = find(*props, canonical)) walk(m.value, *child, member_path);
      kept.push_back(std::move(m));
    }
    node.members = std::move(kept);
  }

  bool allows_null(const Value& props, const std::string& key) const {
    const Value* child = find(props, key);
    return child && allows_type(deref(cs, *child), "null");
  }

  // A field marked x-sandgate-keep-null treats an explicit null as a wrong type, not as "unset"
  // (policy `base`: Terraform rejects null with "expected a JSON object"), so the member stays for
  // the schema to report.
  bool keeps_null(const Value& props, const std::string& key) const {
    const Value* child = find(props, key);
    if (!child) return false;
    const Value* keep = find(deref(cs, *child), "x-sandgate-keep-null");
    return keep && keep->IsBool() && keep->GetBool();
  }

  void report_unknown(const Member& m, const Value* props, const std::string& parent_path,
                      const std::string& member_path, const Value& s) {
    std::vector<std::string> names;
    if (props) {
      for (auto it = props->MemberBegin(); it != props->MemberEnd(); ++it) names.emplace_back(it->name.GetString());
    }
    bool camel = m.key != to_snake_case(m.key);
    std::string guess = closest_match(to_snake_case(m.key), names);
    std::string hint;
    if (!guess.empty()) {
      hint = "did you mean \"" + (camel ? to_camel_case(guess) : guess) + "\"?";
    } else if (!names.empty()) {
      std::vector<std::string> shown(names.begin(), names.begin() + std::min<std::size_t>(names.size(), 12));
      for (auto& n : shown) n = "\"" + n + "\"";
      hint = "known fields here: " + join_and(shown) + (names.size() > shown.size() ? ", …" : "");
    }
    std::string where = parent_path.empty() ? "at the top level" : "in " + parent_path;
    bool warn = options.unknown_key_severity != Severity::error && parent_path.empty();
    // A schema may name its own code for unknown keys (resources: the SDK's "unrecognized keys").
    std::string_view own = keyword(s, "x-sandgate-unknown-code");
    Code code = own.empty() ? Code::UNKNOWN_KEY : code_from_name(own).value_or(Code::UNKNOWN_KEY);
    auto& d = sink.add(code, member_path, m.key_mark,
                       "unknown field \"" + m.key + "\" " + where +
                           (warn ? "; SandboxDefaults.from_dict ignores it silently, so it has no effect" : ""),
                       hint);
    if (warn) d.severity = options.unknown_key_severity;
    reported.insert(member_path);
  }

  void check_scalar(Node& node, const Value& s, const std::string& path) {
    std::string_view int_kind = keyword(s, "x-sandgate-int");
    if (!int_kind.empty()) check_integer(node, s, int_kind, path);
    if (node.is_bool() && node.yaml11_word && allows_type(s, "boolean") && !allows_type(s, "string")) {
      sink.add(Code::YAML11_BOOLEAN, path, node.mark,
               "\"" + node.text + "\" is read as a boolean only by YAML 1.1 readers",
               std::string("write ") + (node.boolean ? "true" : "false"));
      reported.insert(path);
    }
  }

  void check_integer(Node& node, const Value& s, std::string_view int_kind, const std::string& path) {
    std::int64_t lo = std::numeric_limits<std::int64_t>::min();
    std::int64_t hi = std::numeric_limits<std::int64_t>::max();
    if (int_kind == "int32") {
      lo = std::numeric_limits<std::int32_t>::min();
      hi = std::numeric_limits<std::int32_t>::max();
    } else if (int_kind == "uint32") {
      lo = 0;
      hi = std::numeric_limits<std::uint32_t>::max();
    }
    std::string range = "the field is " + std::string(int_kind) + " (" + std::to_string(lo) + ".." +
                        std::to_string(hi) + ")";
    if (node.is_string() && int_kind == "int64" && allows_type(s, "string")) {
      std::string_view t = node.text;
      std::string_view digits = !t.empty() && t[0] == '-' ? t.substr(1) : t;
      bool decimal = !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
      if (!decimal) {
        sink.add(Code::NOT_AN_INTEGER, path, node.mark, node.display() + " is not a decimal integer",
                 "write a whole number, e.g. \"2\"");
        reported.insert(path);
        return;
      }
      std::int64_t v = 0;
      auto r = std::from_chars(t.data(), t.data() + t.size(), v);
      if (r.ec != std::errc{} || v < lo || v > hi) {
        sink.add(Code::INTEGER_RANGE, path, node.mark, node.display() + " does not fit: " + range);
        reported.insert(path);
        return;
      }
      // From here on the value is an integer, so the schema's bounds apply to both spellings.
      std::string literal = node.text;
      Mark mark = node.mark;
      node = Node::make_int(v);
      node.mark = mark;
      node.text = literal;
      return;
    }
    if (node.is_int() && (node.int_overflow || node.integer < lo || node.integer > hi)) {
      sink.add(Code::INTEGER_RANGE, path, node.mark, node.display() + " does not fit: " + range,
               "numbers are never wrapped or truncated");
      reported.insert(path);
    }
  }
};

}  // namespace

void shape(Node& node, const CompiledSchema& cs, const std::string& path, DiagnosticSink& sink,
           ReportedPaths& reported, const ShapeOptions& options) {
  Walker w{cs, sink, reported, options};
  w.walk(node, cs.doc, path);
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
