#include "schema/schema_store.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>

#include "sandgate/node.h"
#include "schema/embedded.h"

namespace sandgate::schema {

CompiledSchema::CompiledSchema() = default;
CompiledSchema::~CompiledSchema() = default;

namespace {

std::string_view view(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

// Reads the keywords of the fast structural check; any other validation keyword makes the node
// "unsure", so valijson alone decides about values under it.
void read_fast_keywords(const rapidjson::Value& s, SchemaNode& n) {
  static const std::unordered_map<std::string_view, std::uint8_t> k_types = {
      {"null", SchemaNode::t_null},       {"boolean", SchemaNode::t_boolean}, {"integer", SchemaNode::t_integer},
      {"number", SchemaNode::t_number},   {"string", SchemaNode::t_string},   {"array", SchemaNode::t_array},
      {"object", SchemaNode::t_object}};
  static const std::unordered_map<std::string_view, bool> k_known = {
      {"type", true}, {"properties", true}, {"additionalProperties", true}, {"items", true}, {"$ref", true},
      {"enum", true}, {"minimum", true}, {"maximum", true}, {"minLength", true}, {"required", true},
      {"description", true}, {"title", true}, {"$schema", true}, {"$id", true}, {"definitions", true}};
  for (auto it = s.MemberBegin(); it != s.MemberEnd(); ++it) {
    std::string_view key = view(it->name);
    if (key.rfind("x-sandgate-", 0) == 0 || k_known.count(key)) continue;
    n.fast_unsure = true;
  }
  if (auto t = s.FindMember("type"); t != s.MemberEnd()) {
    auto add = [&](const rapidjson::Value& v) {
      auto it = v.IsString() ? k_types.find(view(v)) : k_types.end();
      if (it == k_types.end()) {
        n.fast_unsure = true;
      } else {
        n.types |= it->second;
      }
    };
    if (t->value.IsArray()) {
      for (const auto& v : t->value.GetArray()) add(v);
    } else {
      add(t->value);
    }
  }
  if (auto e = s.FindMember("enum"); e != s.MemberEnd()) {
    n.has_enum = true;
    if (!e->value.IsArray()) n.fast_unsure = true;
    for (const auto& v : e->value.GetArray()) {
      if (v.IsString()) {
        n.enum_strings.push_back(view(v));
      } else {
        n.fast_unsure = true;
      }
    }
  }
  auto number = [&](const char* key, std::optional<double>& out) {
    auto it = s.FindMember(key);
    if (it == s.MemberEnd()) return;
    if (it->value.IsNumber()) {
      out = it->value.GetDouble();
    } else {
      n.fast_unsure = true;
    }
  };
  number("minimum", n.minimum);
  number("maximum", n.maximum);
  if (auto m = s.FindMember("minLength"); m != s.MemberEnd()) {
    if (m->value.IsUint()) {
      n.min_length = m->value.GetUint();
    } else {
      n.fast_unsure = true;
    }
  }
  if (auto r = s.FindMember("required"); r != s.MemberEnd() && r->value.IsArray()) {
    for (const auto& v : r->value.GetArray()) {
      if (v.IsString()) n.required.push_back(view(v));
    }
  }
  auto addl = s.FindMember("additionalProperties");
  if (addl != s.MemberEnd() && !addl->value.IsObject() && !addl->value.IsBool()) n.fast_unsure = true;
  auto items = s.FindMember("items");
  if (items != s.MemberEnd() && !items->value.IsObject()) n.fast_unsure = true;
}

// Builds the SchemaNode for `raw` (following $ref), memoised by address so recursive
// definitions terminate.
const SchemaNode* index(CompiledSchema& cs, const rapidjson::Value& raw,
                        std::unordered_map<const rapidjson::Value*, const SchemaNode*>& seen) {
  const rapidjson::Value& s = deref(cs, raw);
  if (auto it = seen.find(&s); it != seen.end()) return it->second;
  SchemaNode& n = cs.nodes.emplace_back();
  seen.emplace(&s, &n);
  n.value = &s;
  if (!s.IsObject()) return &n;
  n.opaque = s.HasMember("x-sandgate-opaque");
  if (auto k = s.FindMember("x-sandgate-keep-null"); k != s.MemberEnd() && k->value.IsBool()) n.keep_null = k->value.GetBool();
  n.allows_null = allows_type(s, "null");
  n.allows_boolean = allows_type(s, "boolean");
  n.allows_string = allows_type(s, "string");
  n.int_kind = keyword(s, "x-sandgate-int");
  n.unknown_code = keyword(s, "x-sandgate-unknown-code");
  auto props = s.FindMember("properties");
  auto addl = s.FindMember("additionalProperties");
  bool closed = addl != s.MemberEnd() && addl->value.IsBool() && !addl->value.GetBool();
  n.is_struct = (props != s.MemberEnd() && props->value.IsObject()) || closed;
  if (props != s.MemberEnd() && props->value.IsObject()) {
    for (auto it = props->value.MemberBegin(); it != props->value.MemberEnd(); ++it) {
      n.property_names.emplace_back(view(it->name));
      n.properties.emplace(view(it->name), index(cs, it->value, seen));
    }
  }
  if (addl != s.MemberEnd() && addl->value.IsObject()) n.additional = index(cs, addl->value, seen);
  n.closed = closed;
  read_fast_keywords(s, n);
  if (auto items = s.FindMember("items"); items != s.MemberEnd() && items->value.IsObject()) n.items = index(cs, items->value, seen);
  for (auto [key, map] : {std::pair{"x-sandgate-aliases", &n.aliases}, std::pair{"x-sandgate-removed", &n.removed}}) {
    auto it = s.FindMember(key);
    if (it == s.MemberEnd() || !it->value.IsObject()) continue;
    for (auto m = it->value.MemberBegin(); m != it->value.MemberEnd(); ++m) {
      if (m->value.IsString()) map->emplace(view(m->name), view(m->value));
    }
  }
  return &n;
}

// Fills cs.field_places, in the schema's order, depth first. A definition used at two places
// (requests and limits) is walked at each; one that contains itself is not entered again below
// itself.
void index_field_places(CompiledSchema& cs) {
  std::vector<const SchemaNode*> ancestors;
  auto walk = [&](auto& self, const SchemaNode& n, const std::string& at) -> void {
    if (n.opaque || !n.is_struct || std::find(ancestors.begin(), ancestors.end(), &n) != ancestors.end()) return;
    ancestors.push_back(&n);
    for (const std::string& name : n.property_names) {
      cs.field_places[name].push_back(at);
      const SchemaNode* child = n.property(name);
      if (!child) continue;
      self(self, *child, pointer_join(at, name));
      // A list of objects: its items' fields, one level in (not walked further: no one pointer).
      if (const SchemaNode* item = child->items; item && item->is_struct && !item->opaque) {
        for (const std::string& field : item->property_names) cs.field_list_places[field].push_back(pointer_join(at, name));
      }
    }
    ancestors.pop_back();
  };
  walk(walk, *cs.root, "");
}

std::unique_ptr<CompiledSchema> compile(const EmbeddedSchema& e) {
  auto cs = std::make_unique<CompiledSchema>();
  cs->name = std::string(e.name);
  cs->text = e.text;
  cs->doc.Parse(e.text.data(), e.text.size());
  if (cs->doc.HasParseError()) throw std::logic_error("embedded schema " + cs->name + " is not valid JSON");
  cs->compiled = std::make_unique<valijson::Schema>();
  valijson::SchemaParser parser;
  valijson::adapters::RapidJsonAdapter adapter(cs->doc);
  parser.populateSchema(adapter, *cs->compiled);
  std::unordered_map<const rapidjson::Value*, const SchemaNode*> seen;
  cs->root = index(*cs, cs->doc, seen);
  index_field_places(*cs);
  return cs;
}

struct Store {
  std::map<std::string, std::unique_ptr<CompiledSchema>, std::less<>> by_name;
  Store() {
    for (const auto& e : embedded_schemas()) by_name.emplace(std::string(e.name), compile(e));
  }
};

const Store& store() {
  static const Store s;  // thread-safe initialisation (C++11 magic statics)
  return s;
}

}  // namespace

const CompiledSchema& get(std::string_view name) {
  const auto& s = store();
  auto it = s.by_name.find(name);
  if (it == s.by_name.end()) throw std::logic_error("no embedded schema named " + std::string(name));
  return *it->second;
}

std::string field_name_for(const rapidjson::Value& schema, const Node& object, std::string_view canonical) {
  if (!schema.IsObject() || !object.is_object()) return std::string(canonical);
  auto family = schema.FindMember("x-sandgate-alias-family");
  auto aliases = schema.FindMember("x-sandgate-aliases");
  if (family == schema.MemberEnd() || !family->value.IsTrue() || aliases == schema.MemberEnd() || !aliases->value.IsObject()) {
    return std::string(canonical);
  }
  bool uses_family = std::any_of(object.members.begin(), object.members.end(),
                                 [&](const Member& m) { return aliases->value.HasMember(std::string(m.input_key()).c_str()); });
  if (!uses_family) return std::string(canonical);
  for (auto m = aliases->value.MemberBegin(); m != aliases->value.MemberEnd(); ++m) {
    if (m->value.IsString() && view(m->value) == canonical) return std::string(view(m->name));
  }
  return std::string(canonical);
}

const rapidjson::Value& deref(const CompiledSchema& cs, const rapidjson::Value& s) {
  const rapidjson::Value* cur = &s;
  for (int hops = 0; hops < 16 && cur->IsObject(); ++hops) {
    auto ref = cur->FindMember("$ref");
    if (ref == cur->MemberEnd() || !ref->value.IsString()) break;
    std::string_view r(ref->value.GetString(), ref->value.GetStringLength());
    constexpr std::string_view k_prefix = "#/definitions/";
    if (r.substr(0, k_prefix.size()) != k_prefix) break;
    std::string name(r.substr(k_prefix.size()));
    auto defs = cs.doc.FindMember("definitions");
    if (defs == cs.doc.MemberEnd()) break;
    auto def = defs->value.FindMember(name.c_str());
    if (def == defs->value.MemberEnd()) break;
    cur = &def->value;
  }
  return *cur;
}

const rapidjson::Value* member_schema(const CompiledSchema& cs, const rapidjson::Value& s, std::string_view key) {
  const auto& d = deref(cs, s);
  if (!d.IsObject()) return nullptr;
  auto props = d.FindMember("properties");
  if (props != d.MemberEnd() && props->value.IsObject()) {
    auto it = props->value.FindMember(rapidjson::Value(key.data(), static_cast<rapidjson::SizeType>(key.size())));
    if (it != props->value.MemberEnd()) return &deref(cs, it->value);
  }
  auto addl = d.FindMember("additionalProperties");
  if (addl != d.MemberEnd() && addl->value.IsObject()) return &deref(cs, addl->value);
  return nullptr;
}

const rapidjson::Value* items_schema(const CompiledSchema& cs, const rapidjson::Value& s) {
  const auto& d = deref(cs, s);
  if (!d.IsObject()) return nullptr;
  auto items = d.FindMember("items");
  if (items != d.MemberEnd() && items->value.IsObject()) return &deref(cs, items->value);
  return nullptr;
}

std::string_view keyword(const rapidjson::Value& s, const char* key) {
  if (!s.IsObject()) return {};
  auto it = s.FindMember(key);
  if (it == s.MemberEnd() || !it->value.IsString()) return {};
  return std::string_view(it->value.GetString(), it->value.GetStringLength());
}

bool allows_type(const rapidjson::Value& s, std::string_view type) {
  if (!s.IsObject()) return false;
  auto it = s.FindMember("type");
  if (it == s.MemberEnd()) return false;
  if (it->value.IsString()) return type == it->value.GetString();
  if (it->value.IsArray()) {
    for (const auto& t : it->value.GetArray()) {
      if (t.IsString() && type == t.GetString()) return true;
    }
  }
  return false;
}

std::string describe_type(const rapidjson::Value& s) {
  static const std::map<std::string, std::string, std::less<>> k_names = {
      {"string", "a string"}, {"integer", "an integer"}, {"number", "a number"}, {"boolean", "true or false"},
      {"object", "an object"}, {"array", "a list"}, {"null", "null"}};
  std::vector<std::string> parts;
  if (s.IsObject()) {
    auto it = s.FindMember("type");
    if (it != s.MemberEnd()) {
      auto add = [&](const rapidjson::Value& t) {
        if (!t.IsString()) return;
        auto n = k_names.find(std::string_view(t.GetString()));
        std::string part = n == k_names.end() ? t.GetString() : n->second;
        if (std::string_view(t.GetString()) == "string" && keyword(s, "x-sandgate-int") == "int64") {
          part = "a decimal string";
        }
        parts.push_back(part);
      };
      if (it->value.IsArray()) {
        for (const auto& t : it->value.GetArray()) add(t);
      } else {
        add(it->value);
      }
    }
  }
  if (parts.empty()) return "a value";
  std::string out = parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i) out += (i + 1 == parts.size() ? " or " : ", ") + parts[i];
  return out;
}

}  // namespace sandgate::schema
