// The one way sandgate includes RapidJSON. RapidJSON's assertion must throw instead of aborting
// (an assertion in the host process must never kill it), and every translation unit has to see
// the same definition (RapidJSON's inline functions would otherwise differ between them).
//
// valijson's adapter would define that assertion itself, but its version builds two std::strings
// on every call, including the passing ones: every character RapidJSON writes and most values it
// reads went through a heap allocation (a quarter of a fuzz run's time, and real cost in the JSON
// loader and writers). Ours costs a comparison when it passes; valijson sees it already defined.
#pragma once

// Strings and white space scanned 16 bytes at a time (every x86-64 has SSE2). Its aligned loads
// can read up to 15 bytes past a string's NUL: a buffer handed to a Reader has that much room
// (json_loader.cpp); schema_store.cpp parses with a length, which never scans past it.
#if defined(__SSE2__) && !defined(RAPIDJSON_SSE2)
#define RAPIDJSON_SSE2
#endif

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
