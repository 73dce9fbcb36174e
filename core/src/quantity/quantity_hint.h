// What to write instead of a quantity that did not parse, when it is one of the familiar mistakes:
// a unit from elsewhere ("32GB", "4GiB"), a Kubernetes suffix in the wrong case ("2gi", "8g"), or
// spaces ("1 Gi", "16 " where the Kubernetes grammar does not trim).
#pragma once

#include <string>
#include <string_view>

namespace sandgate {

// The hint for `text` when it is a familiar mistake, else `otherwise` (the caller's examples).
std::string quantity_hint(std::string_view text, std::string_view otherwise);

}  // namespace sandgate
