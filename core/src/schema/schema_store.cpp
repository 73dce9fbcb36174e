#include "schema/schema_store.h"

#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>

#include "schema/embedded.h"

namespace sandgate::schema {

CompiledSchema::CompiledSchema() = default;
CompiledSchema::~CompiledSchema() = default;

namespace {

std::string_view view(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

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
