// The embedded JSON Schemas, parsed once: as a RapidJSON tree for navigation (the spelling layer
// and messages need to know what a field accepts) and as a compiled valijson schema for
// validation. Both are immutable after first use and safe to share between threads.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "util/rapidjson.h"

namespace valijson {
class Schema;
}

namespace sandgate::schema {

struct CompiledSchema {
  std::string name;
  std::string_view text;
  rapidjson::Document doc;
  std::unique_ptr<valijson::Schema> compiled;
  CompiledSchema();
  ~CompiledSchema();
};

// The schema called `name` ("policy", "sandbox", "runners", "org"); throws std::logic_error for an
// unknown name (a programming error, not an input error).
const CompiledSchema& get(std::string_view name);

// Follows `$ref` ("#/definitions/x") until a schema without one is reached.
const rapidjson::Value& deref(const CompiledSchema& cs, const rapidjson::Value& s);

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
