// The JSON Schemas compiled into the library (made by core/embed_schemas.cmake).
#pragma once

#include <span>
#include <string_view>

namespace sandgate::schema {

struct EmbeddedSchema {
  std::string_view name;  // "policy", "sandbox", "runners", "org"
  std::string_view text;
};

std::span<const EmbeddedSchema> embedded_schemas();

}  // namespace sandgate::schema
