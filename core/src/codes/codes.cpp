// The codes table, expanded from codes.def.
#include <algorithm>
#include <array>

#include "sandgate/diagnostic.h"

namespace sandgate {
namespace {

constexpr std::array k_codes = {
#define SG_CODE(ident, rule, severity, reason, grpc, py, js, side, summary) \
  CodeInfo{Code::ident, "SG_" #ident, rule, Severity::severity, reason, grpc, py, js, Side::side, summary},
#include "sandgate/codes.def"
#undef SG_CODE
};

// The enum and the table are made from the same rows, so row i holds code i.
constexpr bool table_is_in_enum_order() {
  for (std::size_t i = 0; i < k_codes.size(); ++i) {
    if (static_cast<std::size_t>(k_codes[i].code) != i) return false;
  }
  return true;
}
static_assert(table_is_in_enum_order());

}  // namespace

const CodeInfo& code_info(Code code) { return k_codes[static_cast<std::size_t>(code)]; }

std::span<const CodeInfo> all_codes() { return k_codes; }

std::optional<Code> code_from_name(std::string_view name) {
  for (const auto& row : k_codes) {
    if (row.name == name) return row.code;
  }
  return std::nullopt;
}

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "info";
  }
  return "error";
}

std::string_view to_string(Side s) {
  switch (s) {
    case Side::server: return "server";
    case Side::python: return "python";
    case Side::typescript: return "typescript";
    case Side::python_server: return "python_server";
    case Side::typescript_server: return "typescript_server";
    case Side::runtime: return "runtime";
    case Side::input: return "input";
    case Side::lint: return "lint";
  }
  return "server";
}

bool has_errors(const Diagnostics& diags) {
  return std::any_of(diags.begin(), diags.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::error; });
}

bool read_past(Code code) { return code == Code::NUL_BYTE || code == Code::DUPLICATE_KEY; }

bool has_unreadable(const Diagnostics& diags) {
  return std::any_of(diags.begin(), diags.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::error && !read_past(d.code); });
}

}  // namespace sandgate
