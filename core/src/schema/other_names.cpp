#include "schema/other_names.h"

#include <array>
#include <utility>

namespace sandgate::schema {

std::optional<OtherName> other_tools_name(std::string_view snake) {
  // A pod's container (resources.limits, imagePullSecrets, workingDir), a Dockerfile's WORKDIR and
  // ENTRYPOINT, Compose's entrypoint. Only names whose field means the same thing here: a pod's
  // `env` is a list of {name, value} where ours is a map, which the value's own hint then says.
  static constexpr std::array<std::pair<std::string_view, OtherName>, 7> k_names{{
      {"nvidia.com/gpu", {"Kubernetes", "gpu"}},
      {"amd.com/gpu", {"Kubernetes", "gpu"}},
      {"env", {"Kubernetes", "environment_variables"}},
      {"image_pull_secrets", {"Kubernetes", "image_pull_credentials"}},
      {"workdir", {"Docker", "working_dir"}},
      {"entrypoint", {"Docker", "command"}},
      {"cmd", {"Docker", "args"}},
  }};
  for (const auto& [name, other] : k_names) {
    if (name == snake) return other;
  }
  return std::nullopt;
}

}  // namespace sandgate::schema
