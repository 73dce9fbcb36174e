// What a mistyped command line is told. CLI11's own messages name neither the command they are
// about nor what was meant ("The following argument was not expected: --polcy", "A subcommand is
// required" for `sandgate validate p.yaml`); these name the command reached, the value seen, what
// would be accepted and, when one stands out, the spelling meant.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace sandgate::cli {

// The message (without a trailing line break) for `e`, thrown by app.parse — neither a call for
// help nor for the version. `app` is the sandgate command as it stood when parsing stopped.
std::string usage_error_message(const CLI::App& app, const CLI::ParseError& e);

// Validators whose failures read as the rest of sandgate's messages do: the value seen, quoted,
// then what is accepted (and the accepted value meant, when one stands out). CLI11 prefixes the
// option's name. They replace CLI::IsMember and CLI::Range, which say "CKS not in {serverless,cks}"
// and "Value abc not in range 1 to 1024".
CLI::Validator one_of(std::vector<std::string> accepted);
CLI::Validator whole_number(unsigned long long lowest, unsigned long long highest);

}  // namespace sandgate::cli
