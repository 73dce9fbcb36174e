// The embedded JSON Schemas, parsed once: as a RapidJSON tree for navigation (the spelling layer
// and messages need to know what a field accepts) and as a compiled valijson schema for
// validation. Both are immutable after first use and safe to share between threads.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>
#include <string>
#include <string_view>

#include "sandgate/node.h"
#include "schema/name_map.h"
#include "util/rapidjson.h"

namespace valijson {
class Schema;
}

namespace sandgate::schema {

// One schema object ($ref followed) with its sandgate keywords read once, so walking an input
// against the schema costs hash lookups, not linear scans of JSON members.
struct SchemaNode {
  const rapidjson::Value* value = nullptr;
  bool opaque = false;     // x-sandgate-opaque: never descend (policy `base`)
  bool is_struct = false;  // has properties, or additionalProperties: false
  bool keep_null = false;  // x-sandgate-keep-null: null is a wrong type here, not "unset"
  bool allows_null = false, allows_boolean = false, allows_string = false;
  NameMap<const SchemaNode*> properties;
  std::vector<std::string> property_names;  // in schema order, for "did you mean"
  const SchemaNode* additional = nullptr;   // additionalProperties when it is a schema
  const SchemaNode* items = nullptr;
  std::unordered_map<std::string_view, std::string_view> aliases;  // legacy → canonical
  std::unordered_map<std::string_view, std::string_view> removed;  // removed key → message
  std::string_view int_kind, unknown_code;

  // What the fast structural check needs (validate.cpp): the draft-07 keywords our schemas use.
  enum TypeBit : std::uint8_t { t_null = 1, t_boolean = 2, t_integer = 4, t_number = 8, t_string = 16, t_array = 32, t_object = 64 };
  std::uint8_t types = 0;  // 0 = any type
  bool has_enum = false;
  std::vector<std::string_view> enum_strings;
  std::optional<double> minimum, maximum;
  std::optional<std::size_t> min_length;
  std::vector<std::string_view> required;
  bool closed = false;       // additionalProperties: false
  bool fast_unsure = false;  // a keyword the fast check does not know: let valijson decide

  const SchemaNode* property(std::string_view key) const {
    const auto* e = properties.find(key);
    return e ? e->value : nullptr;
  }
};

struct CompiledSchema {
  std::string name;
  std::string_view text;
  rapidjson::Document doc;
  std::unique_ptr<valijson::Schema> compiled;
  std::deque<SchemaNode> nodes;  // stable addresses
  const SchemaNode* root = nullptr;
  // Where each field name is a field: the JSON Pointers of the objects whose schema lists it, in
  // the schema's order, reached through properties only (a list's items and a map's values have
  // no one pointer). An unknown key that is a field elsewhere was most likely put at the wrong
  // level ("max_cpu" at a policy's top, for /constraints/resources/max_cpu): the hint says where.
  std::unordered_map<std::string_view, std::vector<std::string>> field_places;
  // The lists (reached through properties) whose items' schema lists the field: "dns_name" →
  // /network/egress. Weaker evidence than a place: offered only when no spelling rule applies.
  std::unordered_map<std::string_view, std::vector<std::string>> field_list_places;
  CompiledSchema();
  ~CompiledSchema();
};

// The schema called `name` ("policy", "sandbox", "runners", "org"); throws std::logic_error for an
// unknown name (a programming error, not an input error).
const CompiledSchema& get(std::string_view name);

// Follows `$ref` ("#/definitions/x") until a schema without one is reached.
const rapidjson::Value& deref(const CompiledSchema& cs, const rapidjson::Value& s);

// How to name the field `canonical` of `schema` to a user who wrote `object`: by its alias when the
// schema marks its aliases as a spelling family (x-sandgate-alias-family: the Python SDK's
// mount_path and file_content beside path and content) and `object` uses one of them, so that the
// user is not steered into mixing spellings; else `canonical`.
std::string field_name_for(const rapidjson::Value& schema, const Node& object, std::string_view canonical);

// The schema of member `key` of an object described by `s` (properties, then
// additionalProperties when it is a schema), or nullptr.
const rapidjson::Value* member_schema(const CompiledSchema& cs, const rapidjson::Value& s, std::string_view key);
// The schema of the items of an array described by `s`, or nullptr.
const rapidjson::Value* items_schema(const CompiledSchema& cs, const rapidjson::Value& s);

// The string value of keyword `key` in `s`, or "".
std::string_view keyword(const rapidjson::Value& s, const char* key);
// Whether `s`'s "type" is or includes `type`.
bool allows_type(const rapidjson::Value& s, std::string_view type);
// "a string", "an integer or a string", … from `s`'s "type".
std::string describe_type(const rapidjson::Value& s);

}  // namespace sandgate::schema
