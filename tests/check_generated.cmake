# Fails when a committed file differs from what the sandgate command generates now
# (docs/codes.md from the codes table): run `sandgate codes --format markdown > docs/codes.md`.
string(REPLACE "|" ";" ARGS "${ARGS}")
execute_process(COMMAND ${SANDGATE} ${ARGS} OUTPUT_VARIABLE generated RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SANDGATE} ${ARGS} failed (${rc})")
endif()
file(READ "${EXPECTED}" committed)
if(NOT generated STREQUAL committed)
  message(FATAL_ERROR "${EXPECTED} is stale: regenerate it with `sandgate ${ARGS} > ${EXPECTED}`")
endif()
