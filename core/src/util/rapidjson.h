// The one way sandgate includes RapidJSON. RapidJSON's assertion must throw instead of aborting
// (an assertion in the host process must never kill it), and every translation unit has to see
// the same definition (RapidJSON's inline functions would otherwise differ between them).
//
// valijson's adapter would define that assertion itself, but its version builds two std::strings
// on every call, including the passing ones: every character RapidJSON writes and most values it
// reads went through a heap allocation (a quarter of a fuzz run's time, and real cost in the JSON
// loader and writers). Ours costs a comparison when it passes; valijson sees it already defined.
#pragma once

// Not RAPIDJSON_SSE2: its 16-byte string scans (reader and writer, RapidJSON 1.1) take only bytes
// below 0x1A for control characters, so a raw 0x1A-0x1F would be read inside a JSON string and
// written unescaped (Json.a_raw_control_character_in_a_string_is_a_syntax_error and
// JsonWriters.write_every_control_character_escaped fail with it; the Node suite found it).

#include <stdexcept>
#include <string>

namespace sandgate::detail {
[[noreturn]] inline void rapidjson_assertion_failed(const char* file, int line) {
  throw std::runtime_error(std::string("assertion failed; file: ") + file + "; line: " + std::to_string(line));
}
}  // namespace sandgate::detail

#define RAPIDJSON_ASSERT(x) ((x) ? static_cast<void>(0) : ::sandgate::detail::rapidjson_assertion_failed(__FILE__, __LINE__))

// valijson's adapter defines its own assertion only under VALIJSON_USE_EXCEPTIONS, and warns
// (#warning, which GCC 12 cannot silence) when one is already defined. So the macro is hidden while
// the adapter is read; exceptions.hpp, the only header the adapter pulls in that reads the macro,
// is read first, with it.
#include <valijson/exceptions.hpp>
#pragma push_macro("VALIJSON_USE_EXCEPTIONS")
#undef VALIJSON_USE_EXCEPTIONS
#include <valijson/adapters/rapidjson_adapter.hpp>
#pragma pop_macro("VALIJSON_USE_EXCEPTIONS")

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
