#include "schema/validate.h"

#include <valijson/schema.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <algorithm>
#include <cmath>

#include "util/net.h"
#include "util/text.h"

namespace sandgate::schema {
namespace {

using rapidjson::Value;

// valijson reads a RapidJSON tree; ours has positions and spellings it does not need.
void to_rapidjson(const Node& n, Value& out, rapidjson::Document::AllocatorType& a) {
  switch (n.kind) {
    case NodeKind::null: out.SetNull(); break;
    case NodeKind::boolean: out.SetBool(n.boolean); break;
    case NodeKind::integer: out.SetInt64(n.integer); break;
    case NodeKind::number: out.SetDouble(n.number); break;
    case NodeKind::string: out.SetString(n.text.data(), static_cast<rapidjson::SizeType>(n.text.size()), a); break;
    case NodeKind::array:
      out.SetArray();
      out.Reserve(static_cast<rapidjson::SizeType>(n.items.size()), a);
      for (const auto& item : n.items) {
        Value v;
        to_rapidjson(item, v, a);
        out.PushBack(v, a);
      }
      break;
    case NodeKind::object:
      out.SetObject();
      for (const auto& m : n.members) {
        Value k(m.key.data(), static_cast<rapidjson::SizeType>(m.key.size()), a);
        Value v;
        to_rapidjson(m.value, v, a);
        out.AddMember(k, v, a);
      }
      break;
  }
}

enum class ErrorKind { wrapper, type, enumeration, required, range, unknown_property, other };

ErrorKind classify(const std::string& d) {
  auto starts = [&](std::string_view p) { return d.compare(0, p.size(), p) == 0; };
  if (starts("Value type not permitted")) return ErrorKind::type;
  if (starts("Failed to match against any enum")) return ErrorKind::enumeration;
  if (starts("Missing required property")) return ErrorKind::required;
  if (starts("Expected number") || starts("String should be no") || starts("Array should contain") ||
      starts("Object should") ) {
    return ErrorKind::range;
  }
  if (starts("Object contains a property")) return ErrorKind::unknown_property;
  if (starts("Failed to validate")) return ErrorKind::wrapper;
  return ErrorKind::other;
}

// Where a valijson context (["<root>", "[constraints]", "[0]"]) points in our tree and schema.
struct Located {
  const Node* node = nullptr;
  const Member* member = nullptr;  // when the node is an object member
  const Value* schema = nullptr;
  std::string path;
  std::string label;  // how a message names it: "maxCpu", "allowed_media[0]"
  const Node* parent = nullptr;          // the object the node is a member of, if it is one
  const Value* parent_schema = nullptr;  // and that object's schema
};

Located locate(const Node& root, const CompiledSchema& cs, const std::vector<std::string>& context,
               const std::string& base_path) {
  Located loc{&root, nullptr, &deref(cs, cs.doc), base_path, {}};
  for (std::size_t i = 1; i < context.size(); ++i) {
    const std::string& elem = context[i];
    if (elem.size() < 2) break;
    std::string token = elem.substr(1, elem.size() - 2);
    if (loc.node->is_object()) {
      const Member* m = loc.node->find_member(token);
      if (!m) break;
      loc.parent = loc.node;
      loc.parent_schema = loc.schema;
      loc.member = m;
      loc.node = &m->value;
      loc.path = pointer_join(loc.path, m->input_key());
      loc.label = std::string(m->input_key());
      loc.schema = loc.schema ? member_schema(cs, *loc.schema, token) : nullptr;
    } else if (loc.node->is_array()) {
      std::size_t idx = std::strtoul(token.c_str(), nullptr, 10);
      if (idx >= loc.node->items.size()) break;
      loc.member = nullptr;
      loc.parent = nullptr;
      loc.parent_schema = nullptr;
      loc.node = &loc.node->items[idx];
      loc.path = pointer_join(loc.path, idx);
      loc.label = (loc.label.empty() ? std::string("item") : loc.label) + "[" + std::to_string(idx) + "]";
      loc.schema = loc.schema ? items_schema(cs, *loc.schema) : nullptr;
    } else {
      break;
    }
  }
  return loc;
}

std::string field_name(const Located& loc) {
  if (!loc.label.empty()) return "\"" + loc.label + "\"";
  return loc.path.empty() ? "the document" : loc.path;
}

std::string enum_values(const Value& s) {
  std::vector<std::string> vals;
  if (s.IsObject()) {
    auto it = s.FindMember("enum");
    if (it != s.MemberEnd() && it->value.IsArray()) {
      for (const auto& v : it->value.GetArray()) {
        if (v.IsString()) vals.push_back(quoted(v.GetString()));
      }
    }
  }
  return join_or(vals);
}

std::string bounds(const Value& s) {
  std::vector<std::string> parts;
  auto num = [&](const char* k) -> std::string {
    auto it = s.FindMember(k);
    if (it == s.MemberEnd() || !it->value.IsNumber()) return {};
    if (it->value.IsInt64()) return std::to_string(it->value.GetInt64());
    return std::to_string(it->value.GetDouble());
  };
  if (!s.IsObject()) return {};
  std::string lo = num("minimum"), hi = num("maximum");
  if (!lo.empty() && !hi.empty()) return "between " + lo + " and " + hi;
  if (!lo.empty()) return "at least " + lo;
  if (!hi.empty()) return "at most " + hi;
  std::string min_len = num("minLength"), max_len = num("maxLength");
  if (!min_len.empty() || !max_len.empty()) {
    return "a string of " + (min_len.empty() ? "at most " + max_len : max_len.empty() ? "at least " + min_len : min_len + " to " + max_len) + " characters";
  }
  std::string min_items = num("minItems"), max_items = num("maxItems");
  if (!min_items.empty() || !max_items.empty()) {
    return "a list of " + (min_items.empty() ? "at most " + max_items : max_items.empty() ? "at least " + min_items : min_items + " to " + max_items) + " entries";
  }
  return {};
}

std::optional<Code> code_override(const Value* s, const char* key) {
  if (!s) return std::nullopt;
  std::string_view name = keyword(*s, key);
  if (name.empty()) return std::nullopt;
  return code_from_name(name);
}

// The JSON Schema type name of a scalar node ("boolean", "integer", …).
std::string_view scalar_type(const Node& n) {
  switch (n.kind) {
    case NodeKind::boolean: return "boolean";
    case NodeKind::integer: return "integer";
    case NodeKind::number: return "number";
    case NodeKind::string: return "string";
    default: return "";
  }
}

bool accepts(const Value& s, const Node& n) {
  std::string_view t = scalar_type(n);
  return !t.empty() && (allows_type(s, t) || (t == "integer" && allows_type(s, "number")));
}

// A scalar where a list or an object goes is most often the one value meant to be in it: the
// hint writes it so ("kata-qemu" → ["kata-qemu"]; "10.0.0.0/8" where a cidr_block goes, whose one
// required field takes a string → {"cidr": "10.0.0.0/8"}). Quoted as JSON, which YAML reads too.
std::string wrapping_hint(const Node& n, const Value& s, const CompiledSchema& cs) {
  if (!n.is_scalar() || n.is_null()) return {};
  if (allows_type(s, "array") && !accepts(s, n)) {
    const Value* items = items_schema(cs, s);
    bool fits = !items || !items->IsObject() || !items->HasMember("type") || accepts(*items, n);
    return fits ? "write a list: [" + n.display() + "]" : std::string();
  }
  if (allows_type(s, "object") && s.IsObject()) {
    auto req = s.FindMember("required");
    if (req == s.MemberEnd() || !req->value.IsArray() || req->value.Size() != 1 || !req->value[0].IsString()) return {};
    std::string_view name(req->value[0].GetString(), req->value[0].GetStringLength());
    const Value* field = member_schema(cs, s, name);
    if (!field || !accepts(*field, n)) return {};
    return "write an object: {" + quoted(name) + ": " + n.display() + "}";
  }
  return {};
}

// A list where one value goes: a list of one is that value; a command written as Kubernetes writes
// it (command: ["python", "-c", "…"]) is the program and its arguments, which the SDK takes apart,
// in "command" and its sibling "args".
std::string unwrapping_hint(const Located& loc, const Value& s, const CompiledSchema& cs) {
  const Node& n = *loc.node;
  if (!n.is_array() || n.items.empty() || allows_type(s, "array")) return {};
  const Node& first = n.items.front();
  if (!first.is_scalar() || first.is_null() || !accepts(s, first)) return {};
  if (n.items.size() == 1) return "write it without the list: " + first.display();
  if (loc.label != "command" || !loc.parent_schema) return {};
  const Value* args = member_schema(cs, *loc.parent_schema, "args");
  if (!args || !allows_type(*args, "array")) return {};
  constexpr std::size_t k_shown = 4;
  std::string rest;
  for (std::size_t i = 1; i < n.items.size(); ++i) {
    if (!n.items[i].is_string()) return {};
    if (i <= k_shown) rest += (i > 1 ? ", " : "") + n.items[i].display();
  }
  if (n.items.size() > k_shown + 1) rest += ", …";
  if (loc.parent && loc.parent->find_member("args")) {
    return "\"command\" takes the program alone: " + first.display() + "; put " + rest + " at the start of \"args\"";
  }
  return "\"command\" takes the program alone and \"args\" its arguments: command: " + first.display() +
         ", args: [" + rest + "]";
}

// A list where a map of names to strings goes, written as Kubernetes writes a pod's env
// ([{name: A, value: b}]) or as Docker does (["A=b"]): the map it means. An item of another
// shape (Kubernetes's valueFrom, a value that is not a string) leaves the list without a hint.
std::string map_hint(const Node& n, const Value& s) {
  if (!n.is_array() || n.items.empty() || allows_type(s, "array") || !allows_type(s, "object") || !s.IsObject()) return {};
  auto values = s.FindMember("additionalProperties");
  if (values == s.MemberEnd() || !values->value.IsObject() || s.HasMember("properties")) return {};
  constexpr std::size_t k_shown = 4;
  std::string pairs;
  for (std::size_t i = 0; i < n.items.size(); ++i) {
    const Node& item = n.items[i];
    std::string name, value;
    if (item.is_object()) {
      const Member* nm = item.find_member("name");
      const Member* vm = item.find_member("value");
      if (item.members.size() != 2 || !nm || !vm || !nm->value.is_string() || !vm->value.is_string()) return {};
      name = nm->value.text;
      value = vm->value.text;
    } else if (item.is_string() && item.text.find('=') != std::string::npos && item.text.front() != '=') {
      std::size_t eq = item.text.find('=');
      name = item.text.substr(0, eq);
      value = item.text.substr(eq + 1);
    } else {
      return {};
    }
    if (i < k_shown) pairs += (i ? ", " : "") + Node::make_string(name).display() + ": " + Node::make_string(value).display();
  }
  if (n.items.size() > k_shown) pairs += ", …";
  return "write an object of names and values: {" + pairs + "}";
}

// A bare address or host name where a network rule goes (allowed_egress: [10.0.0.0/8, pypi.org]):
// the rule it stands for, with the peer field this schema has (https_hostname in a policy,
// dns_name in a sandbox). An address alone is its /32 or /128; whether a prefix is canonical is
// the CIDR rule's to say, so the text is kept as written.
std::string rule_hint(const Node& n, const Value& s, const CompiledSchema& cs) {
  if (!n.is_string() || n.text.empty() || !s.IsObject() || allows_type(s, "string")) return {};
  // A rule selects one of several peers (cidr, tenant, …); a cidr block has a cidr but no tenant.
  const Value* cidr = member_schema(cs, s, "cidr");
  if (!cidr || !member_schema(cs, s, "tenant")) return {};
  std::string prefix = n.text;
  if (prefix.find('/') == std::string::npos) prefix += prefix.find(':') == std::string::npos ? "/32" : "/128";
  if (ParsedPrefix p = parse_prefix(prefix); p.problem != PrefixProblem::syntax) {
    if (p.problem == PrefixProblem::ipv4_mapped) return {};
    std::string value = quoted(prefix);
    if (allows_type(*cidr, "object")) value = "{\"cidr\": " + value + "}";
    return "write a rule: {\"cidr\": " + value + "}";
  }
  std::string host = host_in_url(n.text);
  if (host.empty()) host = ascii_lower(n.text);
  if (classify_hostname(host) == HostnameForm::invalid) return {};
  for (const char* field : {"https_hostname", "dns_name"}) {
    if (member_schema(cs, s, field)) return "write a rule: {\"" + std::string(field) + "\": " + quoted(host) + "}";
  }
  return {};
}

// What to write instead of a value of the wrong type, when it can be said, in this order: the one
// value of a list where one value goes, or a command's program and arguments; the map a list of
// name/value pairs means; the scalar inside the list or object it belongs in; the network rule a
// bare address or host name stands for; a number quoted where a string goes (cpu: 2, whose
// quantity the SDK takes only as a string); true or false unquoted, or for a YAML 1.1 word;
// digits unquoted where a count goes (gpu: "1"); or a duration in seconds ("2h" for
// max_lifetime_seconds).
// A plain string that is YAML's reading of a key glued to its value (`max_cpu:"8"` where an
// object goes) or of a list item glued to its dash (`-ghcr.io/acme` where a list goes).
std::string glued_hint(const Node& n, const Value& s) {
  // A native string may be PyYAML's reading of the same text; a quoted one was meant as written.
  if (!n.is_string() || (n.style != ScalarStyle::plain && n.style != ScalarStyle::native)) return {};
  if (allows_type(s, "object")) {
    if (std::string fix = glued_colon_fix(n.text); !fix.empty()) return "YAML needs a space after a key's ':': write " + shown_text(fix);
  }
  if (allows_type(s, "array") && n.text.size() > 1 && n.text[0] == '-' &&
      ((n.text[1] >= 'a' && n.text[1] <= 'z') || (n.text[1] >= 'A' && n.text[1] <= 'Z'))) {
    return "YAML needs a space after a list item's '-': write " + shown_text("- " + n.text.substr(1));
  }
  return {};
}

std::string mismatch_hint(const Located& loc, const Value& s, const CompiledSchema& cs) {
  const Node& n = *loc.node;
  if (std::string glued = glued_hint(n, s); !glued.empty()) return glued;
  std::string unwrapped = unwrapping_hint(loc, s, cs);
  if (!unwrapped.empty()) return unwrapped;
  std::string map = map_hint(n, s);
  if (!map.empty()) return map;
  std::string wrapped = wrapping_hint(n, s, cs);
  if (!wrapped.empty()) return wrapped;
  std::string rule = rule_hint(n, s, cs);
  if (!rule.empty()) return rule;
  if (n.is_number() && allows_type(s, "string")) return "quote it: " + quoted(n.display());
  if (!n.is_string()) return {};
  if (allows_type(s, "boolean")) {
    // "true" quoted, or a YAML 1.1 word ("yes", "off") that YAML 1.2 and JSON read as a string.
    const std::string lower = ascii_lower(n.text);
    if (lower == "true" || lower == "false") return "write " + lower + " without quotes";
    if (lower == "yes" || lower == "on" || lower == "y") return "write true: " + n.display() + " is a boolean only to YAML 1.1 readers";
    if (lower == "no" || lower == "off" || lower == "n") return "write false: " + n.display() + " is a boolean only to YAML 1.1 readers";
  }
  bool digits = !n.text.empty() && n.text.size() <= 18 && n.text.find_first_not_of("0123456789") == std::string::npos;
  if (digits && allows_type(s, "integer")) return "write the number without quotes: " + n.text;
  if (allows_type(s, "integer") || allows_type(s, "number")) {
    std::string exponent = exponent_hint(n.text);
    if (!exponent.empty()) return exponent;
  }
  return seconds_hint(loc.label, n.display(), n.text);
}

// The accepted value a wrong one most likely meant: the same in another case, the one value whose
// last words it is ("disk" → STORAGE_MEDIUM_DISK), or a close spelling; "" when none stands out.
std::string enum_suggestion(const Node& n, const Value& s) {
  if (!n.is_string() || !s.IsObject()) return {};
  auto it = s.FindMember("enum");
  if (it == s.MemberEnd() || !it->value.IsArray()) return {};
  std::vector<std::string> values;
  for (const auto& v : it->value.GetArray()) {
    if (v.IsString()) values.emplace_back(v.GetString(), v.GetStringLength());
  }
  const std::string lower = ascii_lower(n.text);
  std::vector<std::string> found;
  for (const auto& v : values) {
    if (ascii_lower(v) == lower) return v;
  }
  std::string tail = "_" + lower;
  std::replace(tail.begin(), tail.end(), '-', '_');
  for (const auto& v : values) {
    std::string lv = ascii_lower(v);
    if (lv.size() > tail.size() && lv.compare(lv.size() - tail.size(), tail.size(), tail) == 0) found.push_back(v);
  }
  if (found.size() == 1) return found.front();
  return closest_match(n.text, values);
}

// The property a "required" error names (valijson: "Missing required property 'x'."); "" when none.
std::string required_property(const std::string& description) {
  auto q1 = description.find('\'');
  auto q2 = description.rfind('\'');
  return q1 != std::string::npos && q2 > q1 ? description.substr(q1 + 1, q2 - q1 - 1) : std::string();
}

void report(const Located& loc, ErrorKind kind, const std::string& description, DiagnosticSink& sink,
            const CompiledSchema& cs) {
  const Node& n = *loc.node;
  Mark mark = n.mark.placed() ? n.mark : (loc.member ? loc.member->key_mark : Mark{});
  const Value* s = loc.schema;
  std::string field = field_name(loc);
  switch (kind) {
    case ErrorKind::type: {
      std::string expected = s ? describe_type(*s) : "another type";
      // An int64 field also takes a decimal string, but only as another spelling of the integer:
      // 1.5 or true there is not a string that lost its quotes, so "quote it" would mislead.
      bool int_field = s && !keyword(*s, "x-sandgate-int").empty();
      bool wants_string = s && allows_type(*s, "string") && !int_field;
      bool wants_int = s && allows_type(*s, "integer");
      if (auto c = code_override(s, "x-sandgate-type-code")) {
        sink.add(*c, loc.path, mark, field + " must be " + expected + ", not " + std::string(n.kind_name()),
                 mismatch_hint(loc, *s, cs));
      } else if (wants_string && n.style == ScalarStyle::plain && (n.is_bool() || n.is_number())) {
        // Not null: `~`, `null` and an empty value all arrive without their spelling, and quoting
        // one would make the string "null", which is not what was meant; null is a plain mismatch.
        std::string what = n.is_bool() ? "the boolean " + n.text : "the number " + n.text;
        sink.add(Code::NOT_A_STRING, loc.path, mark,
                 field + " must be a string, but YAML reads " + n.text + " as " + what,
                 "quote it: \"" + n.text + "\"");
      } else if (wants_int && n.kind == NodeKind::number) {
        // 3600.0 is the integer written as a float (a JSON encoder's, or a hand's): say it so.
        bool whole = std::isfinite(n.number) && n.number == std::trunc(n.number) && std::fabs(n.number) < 9007199254740992.0;
        sink.add(Code::NOT_AN_INTEGER, loc.path, mark, field + " must be a whole number, not " + n.display(),
                 whole ? "write " + std::to_string(static_cast<std::int64_t>(n.number)) : std::string());
      } else {
        sink.add(Code::TYPE_MISMATCH, loc.path, mark,
                 field + " must be " + expected + ", not " + std::string(n.kind_name()) +
                     (n.is_scalar() ? " (" + n.display() + ")" : ""),
                 s ? mismatch_hint(loc, *s, cs) : std::string());
      }
      return;
    }
    case ErrorKind::enumeration: {
      std::string allowed = s ? enum_values(*s) : "";
      std::string meant = s ? enum_suggestion(n, *s) : "";
      std::string hint = allowed.empty() ? "" : "use one of " + allowed;
      if (!meant.empty()) hint = "did you mean " + quoted(meant) + "? The accepted values: " + allowed;
      sink.add(code_override(s, "x-sandgate-code").value_or(Code::ENUM_VALUE), loc.path, mark,
               field + " is " + n.display() + ", which is not an accepted value", hint);
      return;
    }
    case ErrorKind::required: {
      std::string prop = required_property(description);
      if (s && !prop.empty()) prop = field_name_for(*s, n, prop);
      if (prop.empty()) prop = "a field";
      // x-sandgate-required-code: an SDK option class whose constructor raises TypeError.
      sink.add(code_override(s, "x-sandgate-required-code").value_or(Code::REQUIRED_FIELD), loc.path, mark,
               (loc.path.empty() ? std::string("the document") : field) + " is missing the required field \"" + prop + "\"");
      return;
    }
    case ErrorKind::range: {
      std::string b = s ? bounds(*s) : "";
      sink.add(code_override(s, "x-sandgate-code").value_or(Code::VALUE_RANGE), loc.path, mark,
               field + " is " + n.display() + (b.empty() ? ", which is out of range" : "; it must be " + b));
      return;
    }
    case ErrorKind::unknown_property:
      sink.add(Code::UNKNOWN_KEY, loc.path, mark, description);
      return;
    case ErrorKind::other:
    case ErrorKind::wrapper:
      sink.add(code_override(s, "x-sandgate-code").value_or(Code::SCHEMA_VIOLATION), loc.path, mark,
               field + ": " + description);
      return;
  }
}

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

}  // namespace

bool fast_valid(const Node& n, const SchemaNode* s) {
  if (!s) return true;
  if (s->fast_unsure) return false;
  if (s->types != 0) {
    std::uint8_t kind = 0;
    switch (n.kind) {
      case NodeKind::null: kind = SchemaNode::t_null; break;
      case NodeKind::boolean: kind = SchemaNode::t_boolean; break;
      case NodeKind::integer: kind = SchemaNode::t_integer | SchemaNode::t_number; break;
      case NodeKind::number: kind = SchemaNode::t_number; break;
      case NodeKind::string: kind = SchemaNode::t_string; break;
      case NodeKind::array: kind = SchemaNode::t_array; break;
      case NodeKind::object: kind = SchemaNode::t_object; break;
    }
    if ((kind & s->types) == 0) return false;
  }
  if (s->has_enum) {
    if (!n.is_string()) return false;
    if (std::find(s->enum_strings.begin(), s->enum_strings.end(), n.text) == s->enum_strings.end()) return false;
  }
  if (n.is_number()) {
    double v = n.kind == NodeKind::integer ? static_cast<double>(n.integer) : n.number;
    if (!std::isfinite(v) || n.int_overflow) return false;  // valijson's double comparisons: let it decide
    if (s->minimum && v < *s->minimum) return false;
    if (s->maximum && v > *s->maximum) return false;
  }
  if (n.is_string() && s->min_length && code_points(n.text) < *s->min_length) return false;
  if (n.is_array()) {
    for (const auto& item : n.items) {
      if (!fast_valid(item, s->items)) return false;
    }
  }
  if (n.is_object()) {
    for (const auto& r : s->required) {
      if (!n.find(r)) return false;
    }
    for (const auto& m : n.members) {
      const SchemaNode* child = s->property(m.key);
      if (!child && s->closed) return false;
      if (!fast_valid(m.value, child ? child : s->additional)) return false;
    }
  }
  return true;
}

bool valijson_valid(const Node& node, const CompiledSchema& cs) {
  rapidjson::Document doc;
  to_rapidjson(node, doc, doc.GetAllocator());
  valijson::Validator validator;
  valijson::adapters::RapidJsonAdapter adapter(doc);
  try {
    return validator.validate(*cs.compiled, adapter, nullptr);
  } catch (const std::exception&) {
    return false;
  }
}

void validate(const Node& node, const CompiledSchema& cs, const std::string& path, DiagnosticSink& sink,
              ReportedPaths& reported) {
  // Most inputs are valid: the fast check says so without building a RapidJSON copy for valijson.
  if (fast_valid(node, cs.root)) return;
  rapidjson::Document doc;
  to_rapidjson(node, doc, doc.GetAllocator());
  valijson::Validator validator;
  valijson::ValidationResults results;
  try {
    valijson::adapters::RapidJsonAdapter adapter(doc);
    validator.validate(*cs.compiled, adapter, &results);
  } catch (const std::exception& e) {
    sink.add(Code::SCHEMA_VIOLATION, path, node.mark, std::string("schema validation failed: ") + e.what());
    return;
  }
  valijson::ValidationResults::Error err;
  bool any_leaf = false;
  std::vector<std::pair<Located, std::string>> wrappers;
  while (results.popError(err)) {
    ErrorKind kind = classify(err.description);
    Located loc = locate(node, cs, err.context, path);
    if (kind == ErrorKind::wrapper) {
      wrappers.emplace_back(loc, err.description);
      continue;
    }
    any_leaf = true;  // reported now or before: either way the wrappers below add nothing
    // A missing field that an unknown key was told it meant (shape.cpp) is that key's error.
    if (kind == ErrorKind::required && reported.count(pointer_join(loc.path, required_property(err.description)))) continue;
    std::string key = loc.path + (kind == ErrorKind::required ? "#" + err.description : "");
    if (already_reported(reported, loc.path) || !reported.insert(key).second) continue;
    report(loc, kind, err.description, sink, cs);
  }
  // Only wrappers ("failed to validate against …"): report the deepest one so nothing is lost.
  if (!any_leaf && !wrappers.empty()) {
    auto& [loc, description] = wrappers.front();
    if (!already_reported(reported, loc.path)) report(loc, ErrorKind::wrapper, description, sink, cs);
  }
}

}  // namespace sandgate::schema
