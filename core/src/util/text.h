// Small text helpers shared by the spelling layer and the messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sandgate {

// YAML's and JSON's white space: a space, a tab or a line break.
constexpr bool is_blank_or_break(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The spaces `s` starts with: a YAML line's indentation (a tab is not indentation in YAML).
constexpr std::size_t leading_spaces(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && s[n] == ' ') ++n;
  return n;
}

// Appends the UTF-8 form of the code point `c` (at most U+10FFFF, not a surrogate).
void append_utf8(std::string& out, char32_t c);

// lowerCamelCase → snake_case ("maxGpuCount" → "max_gpu_count"); snake_case is returned unchanged.
std::string to_snake_case(std::string_view s);
// snake_case → lowerCamelCase ("max_gpu_count" → "maxGpuCount").
std::string to_camel_case(std::string_view s);
// Levenshtein distance, ASCII case-insensitive, capped at `cap` (returns cap when larger).
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t cap = 64);
// The candidate closest to `word` within a distance that still reads as a typo, or "".
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);
// The allowed value a refused one most likely meant: the same but for case and surrounding
// spaces, a close spelling, or the one allowed value it is the first part of ("kata" →
// "kata-qemu"); "" when none stands out.
std::string nearest_allowed(std::string_view value, const std::vector<std::string>& allowed);
// The candidates (snake_case names) that have every word of `word` among their own words, a
// plural matching its singular and a word's first letters (3 or more) the word: "cpu" → max_cpu,
// default_cpu, cpu_ceiling; "image" → container_image; "env" → environment_variables. A word
// shorter than `min_letters` makes no match ("id" is in too many names to point at one, unless
// the candidates are few, such as the required fields an object lacks).
std::vector<std::string> names_with_words(std::string_view word, const std::vector<std::string>& candidates,
                                          std::size_t min_letters = 3);
// A duration written for a field counted in seconds ("90s", "15m", "1h", "2d"), in seconds;
// nullopt for anything else, or past a year's worth of digits.
std::optional<std::int64_t> duration_seconds(std::string_view t);
// The hint for a field counted in seconds (its name ends in "seconds") given a duration, or "".
std::string seconds_hint(std::string_view field, std::string_view shown_value, std::string_view text);
// The whole number that `text` writes with an exponent ("36e2", "1.5e3": 3600, 1500), or nullopt
// when it has no exponent, is not a number, is not whole, or needs more than 18 digits.
std::optional<std::int64_t> exponent_integer(std::string_view text);
// "write 3600" for such a text where an integer goes, with why YAML reads it as a string: said
// even when it was quoted (true all the same), so that a value PyYAML read and handed over through
// a binding gets the words the same file gets from text; "" when `text` is not one.
std::string exponent_hint(std::string_view text);
// "a, b or c"
std::string join_or(const std::vector<std::string>& items);
std::string join_and(const std::vector<std::string>& items);
// A Linux capability name compared the way the policy means it: upper case, without CAP_.
std::string capability_name(std::string_view s);
// ASCII lower case.
std::string ascii_lower(std::string_view s);
// Quotes `s` as a JSON string would ("a\"b").
std::string quoted(std::string_view s);
// A key or value for a message: quoted as the input's value would be shown, and cut (on a
// character boundary) past 80 bytes, so that a megabyte key does not make a megabyte message.
std::string shown_text(std::string_view s);

// `runner_ids: [a]` for the line `runner_ids:[a]` (indentation and a trailing comment left out): a
// key glued to its value, which YAML reads as one plain scalar; "" when the line is not so.
std::string glued_colon_fix(std::string_view line);

}  // namespace sandgate
