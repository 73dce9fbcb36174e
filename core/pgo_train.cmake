# Runs the instrumented command (TRAINER) over the bundled examples (EXAMPLES) and leaves its profile
# in PGO_DIR/profile (see pgo.cmake). The workload is what README's demo and a CI gate do: validate every policy, check
# every example sandbox in each output format, explain one, check the example request stream and
# replay it in a policy diff.
file(REMOVE_RECURSE "${PGO_DIR}/raw")

# One run per element, its arguments separated by "|".
file(GLOB _policies RELATIVE "${EXAMPLES}" "${EXAMPLES}/policies/*.yaml")
file(GLOB _sandboxes RELATIVE "${EXAMPLES}" "${EXAMPLES}/sandboxes/*.yaml")
list(JOIN _sandboxes "|" _sandboxes)
list(JOIN _policies "|" _runs)
set(_runs "policy|validate|${_runs}")
foreach(policy IN LISTS _policies)
  foreach(format IN ITEMS text json sarif)
    list(APPEND _runs "check|--policy|${policy}|--runners|runners.yaml|--org|org.yaml|--format|${format}|${_sandboxes}")
  endforeach()
endforeach()
list(APPEND _runs
  "explain|sandboxes/sunk-ok.yaml|--policy|policies/sunk-slurm.yaml|--runners|runners.yaml"
  "check|--requests|requests.jsonl|--policy|policies/production-cks-v2.yaml|--runners|runners.yaml|--jobs|1|--format|json"
  "check|--requests|requests.jsonl|--policy|policies/production-cks.yaml|--runners|runners.yaml|--jobs|1"
  "policy|diff|policies/production-cks.yaml|policies/production-cks-v2.yaml|--requests|requests.jsonl|--runners|runners.yaml|--jobs|1")

foreach(run IN LISTS _runs)
  string(REPLACE "|" ";" args "${run}")
  execute_process(COMMAND "${TRAINER}" ${args} WORKING_DIRECTORY "${EXAMPLES}"
    OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
  # 0 and 1 are answers (accepted, rejected); anything else means the training run itself failed.
  if(NOT rc MATCHES "^[01]$")
    string(REPLACE "|" " " shown "${run}")
    message(FATAL_ERROR "profile training: `sandgate ${shown}` ended with ${rc}")
  endif()
endforeach()

file(GLOB _counts "${PGO_DIR}/raw/*.gcda")
if(NOT _counts)
  message(FATAL_ERROR "profile training wrote no .gcda files into ${PGO_DIR}/raw")
endif()
# Replaced only once the training has succeeded: a failed run leaves the last good profile.
file(REMOVE_RECURSE "${PGO_DIR}/profile")
file(RENAME "${PGO_DIR}/raw" "${PGO_DIR}/profile")
list(LENGTH _counts n)
message(STATUS "profile training: ${n} object profiles in ${PGO_DIR}/profile")
file(TOUCH "${PGO_DIR}/trained.stamp")
