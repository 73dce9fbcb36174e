// Diagnostics: what sandgate says about an input. Every field except severity, path, source,
// input, message and hint comes from the one codes table (codes.def).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sandgate {

enum class Severity : std::uint8_t { error, warning, info };
enum class Side : std::uint8_t { server, python, typescript, python_server, typescript_server, runtime, input, lint };

enum class Code : std::uint16_t {
#define SG_CODE(ident, ...) ident,
#include "sandgate/codes.def"
#undef SG_CODE
};

struct CodeInfo {
  Code code;
  std::string_view name;  // "SG_GPU_TYPE_AND_MEMORY"
  std::string_view rule;  // "R-GPU-3"
  Severity severity;
  std::string_view reason;            // "" when the server has none
  std::string_view grpc_code;         // "" for client-side and input problems
  std::string_view python_exception;  // "" for lint warnings
  std::string_view js_exception;
  Side side;
  std::string_view summary;
};

// The row of the codes table for `code`.
const CodeInfo& code_info(Code code);
// Every row, in table order.
std::span<const CodeInfo> all_codes();
// The code named `name` ("SG_..."), if there is one.
std::optional<Code> code_from_name(std::string_view name);

std::string_view to_string(Severity s);
std::string_view to_string(Side s);

// A 1-based position in a source text.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

// The other side of a problem (SPEC §3): the policy field a request value was checked against, the
// denied prefix, the first occurrence of a duplicate.
struct Related {
  std::string input;                     // which input: policy, runners, org, sandbox, …
  std::string path;                      // RFC 6901 JSON Pointer into `input`
  std::optional<SourceLocation> source;  // set when that input came from text
  std::string message;                   // "the limit is set here"
};

struct Diagnostic {
  Code code{};
  Severity severity = Severity::error;
  std::string path;                      // RFC 6901 JSON Pointer into `input`
  std::optional<SourceLocation> source;  // set when the input came from text
  std::string input;                     // which input: policy, sandbox, defaults, overrides, runners, org
  std::string message;                   // one sentence: what is wrong and the value seen
  std::string hint;                      // how to fix it; may be empty
  std::vector<Related> related;          // secondary locations, in order of relevance
  // An input given as a native value has no source; this is where the value stands in the
  // input's walk order (Mark::walk_order), so that the diagnostics are put in the reading order
  // the same value's text would give them. 0 otherwise. Ordering only: no output shows it.
  std::int32_t walk_order = 0;

  const CodeInfo& info() const { return code_info(code); }
  std::string_view name() const { return info().name; }
  std::string_view rule() const { return info().rule; }
};

using Diagnostics = std::vector<Diagnostic>;

bool has_errors(const Diagnostics& diags);

// A problem the text loaders note and read past, the document still loading and being checked: a
// NUL in a string, a key given twice. The bindings' converters decide alike, so that one value gets
// one answer from text, Python and Node: a value with any other error is not checked.
bool read_past(Code code);
// Whether `diags` hold an error that keeps a value from being checked (an error not read past).
bool has_unreadable(const Diagnostics& diags);

}  // namespace sandgate
