// Names other tools give to a field of ours, which a user moving a pod spec or a Dockerfile into a
// sandbox writes first: an unknown key found here is told the field it stands for.
#pragma once

#include <optional>
#include <string_view>

namespace sandgate::schema {

struct OtherName {
  std::string_view tool;   // whose name it is: "Kubernetes", "Docker"
  std::string_view field;  // our field's snake_case name
};

// `snake` is the unknown key in snake_case.
std::optional<OtherName> other_tools_name(std::string_view snake);

}  // namespace sandgate::schema
