// The one way sandgate includes RapidJSON. valijson's adapter must come first: it defines
// RAPIDJSON_ASSERT to throw instead of aborting, and every translation unit has to see the same
// definition (RapidJSON's inline functions would otherwise differ between them).
#pragma once

#include <valijson/adapters/rapidjson_adapter.hpp>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
