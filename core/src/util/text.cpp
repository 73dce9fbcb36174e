#include "util/text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>

#include "sandgate/node.h"

namespace sandgate {

std::string to_snake_case(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 4);
  for (char c : s) {
    if (c >= 'A' && c <= 'Z') {
      if (!out.empty()) out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

std::string to_camel_case(std::string_view s) {
  std::string out;
  bool upper = false;
  for (char c : s) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t cap) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  if (a.size() > 256 || b.size() > 256 || cap == 0) return cap;
  // The distance is at least the difference in length; past `cap` the exact value is not wanted.
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) >= cap) return cap;
  // Cell (i, j) is at least |i - j|, so only the diagonal band |i - j| < cap can stay below the cap:
  // the rest is `cap` (saturated), and a row costs O(cap) instead of O(|b|). Unknown keys in hostile
  // input are long and many; the full table made spelling hints the most expensive part of a check.
  // Two rows on the stack (at most 257 entries each): no allocation per candidate.
  std::array<std::size_t, 257> prev_row, cur_row;
  std::size_t* prev = prev_row.data();
  std::size_t* cur = cur_row.data();
  const std::size_t m = b.size();
  for (std::size_t j = 0; j <= m; ++j) prev[j] = std::min(j, cap);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t lo = i >= cap ? i - cap + 1 : 1;
    std::size_t hi = std::min(m, i + cap - 1);
    // The left neighbour of the band: column 0 is i, any other is |i - j| = cap.
    cur[lo - 1] = lo == 1 ? std::min(i, cap) : cap;
    std::size_t row_min = cur[lo - 1];
    for (std::size_t j = lo; j <= hi; ++j) {
      std::size_t v = prev[j - 1] + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
      if (prev[j] + 1 < v) v = prev[j] + 1;
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
      if (cap < v) v = cap;
      cur[j] = v;
      if (v < row_min) row_min = v;
    }
    // The next row reads one column past this band: outside it, the value is the cap.
    if (hi + 1 <= m) cur[hi + 1] = cap;
    // Every later row is at least this row's minimum: once it reaches the cap, so does the result.
    if (row_min >= cap) return cap;
    std::swap(prev, cur);
  }
  return std::min(prev[m], cap);
}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  // A typo, not a different word: up to a third of the longer word, at least 2.
  auto allowed_for = [&](std::size_t other) { return std::max<std::size_t>(2, std::max(word.size(), other) / 3); };
  // No candidate further than the most any of them may be is ever accepted, so the distances are
  // needed only below that: the same answer as with unbounded distances, at a fraction of the cost.
  std::size_t longest = 0;
  for (const auto& c : candidates) longest = std::max(longest, c.size());
  const std::string* best = nullptr;
  std::size_t best_d = std::min<std::size_t>(64, allowed_for(longest) + 1);
  // The bag distance — characters of one word the other lacks, as multisets — is a lower bound of
  // the edit distance that costs one pass: most candidates are ruled out without the table.
  // (Characters share 64 buckets, which can only lower the bound.)
  auto bucket = [](char ch) { return static_cast<unsigned char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch) & 63u; };
  std::array<int, 64> word_counts{};
  for (char ch : word) ++word_counts[bucket(ch)];
  for (const auto& c : candidates) {
    std::size_t length_gap = word.size() > c.size() ? word.size() - c.size() : c.size() - word.size();
    if (length_gap >= best_d) continue;
    std::array<int, 64> left = word_counts;
    for (char ch : c) --left[bucket(ch)];
    std::size_t only_in_word = 0, only_in_candidate = 0;
    for (int n : left) (n > 0 ? only_in_word : only_in_candidate) += static_cast<std::size_t>(n > 0 ? n : -n);
    if (std::max(only_in_word, only_in_candidate) >= best_d) continue;
    // Only a strictly smaller distance replaces the best so far, so it is computed up to best_d.
    std::size_t d = edit_distance(word, c, best_d);
    if (d < best_d) {
      best_d = d;
      best = &c;
    }
  }
  if (!best) return std::string();
  return best_d <= allowed_for(best->size()) ? *best : std::string();
}

namespace {

std::vector<std::string_view> snake_words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && s[i] != '_') continue;
    if (i > start) out.push_back(s.substr(start, i - start));
    start = i + 1;
  }
  return out;
}

bool same_word(std::string_view a, std::string_view b) {
  auto plural_of = [](std::string_view plural, std::string_view one) {
    return plural.size() == one.size() + 1 && plural.back() == 's' && plural.substr(0, one.size()) == one;
  };
  return a == b || plural_of(a, b) || plural_of(b, a);
}

// "env" for environment, "mem" for memory: the first three letters or more of a longer word.
bool abbreviates(std::string_view a, std::string_view word) {
  return a.size() >= 3 && word.size() > a.size() && word.substr(0, a.size()) == a;
}

}  // namespace

std::string nearest_allowed(std::string_view value, const std::vector<std::string>& allowed) {
  std::size_t first = value.find_first_not_of(" \t");
  std::size_t last = value.find_last_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const std::string wanted = ascii_lower(value.substr(first, last - first + 1));
  for (const auto& a : allowed) {
    if (ascii_lower(a) == wanted) return a;
  }
  if (std::string near = closest_match(wanted, allowed); !near.empty()) return near;
  const std::string* only = nullptr;
  for (const auto& a : allowed) {
    std::string lower = ascii_lower(a);
    bool part = lower.size() > wanted.size() && lower.compare(0, wanted.size(), wanted) == 0 &&
                (lower[wanted.size()] == '-' || lower[wanted.size()] == '_' || lower[wanted.size()] == '.');
    if (!part) continue;
    if (only) return {};
    only = &a;
  }
  return only ? *only : std::string();
}

std::vector<std::string> names_with_words(std::string_view word, const std::vector<std::string>& candidates,
                                          std::size_t min_letters) {
  constexpr std::size_t k_longest = 64;  // longer than any field name: a pasted value, not a name
  if (word.size() > k_longest) return {};
  const std::vector<std::string_view> wanted = snake_words(word);
  if (wanted.empty()) return {};
  for (std::string_view w : wanted) {
    if (w.size() < min_letters) return {};
  }
  std::vector<std::string> out;
  for (const std::string& c : candidates) {
    const std::vector<std::string_view> has = snake_words(c);
    bool all = std::all_of(wanted.begin(), wanted.end(), [&](std::string_view w) {
      return std::any_of(has.begin(), has.end(), [&](std::string_view h) { return same_word(w, h) || abbreviates(w, h); });
    });
    if (all) out.push_back(c);
  }
  return out;
}

std::optional<std::int64_t> duration_seconds(std::string_view t) {
  if (t.size() < 2 || t.size() > 8) return std::nullopt;
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size() - 1, n);
  if (ec != std::errc{} || end != t.data() + t.size() - 1 || t[0] == '-') return std::nullopt;
  switch (t.back()) {
    case 's': return n;
    case 'm': return n * 60;
    case 'h': return n * 3600;
    case 'd': return n * 86400;
    default: return std::nullopt;
  }
}

std::string seconds_hint(std::string_view field, std::string_view shown_value, std::string_view text) {
  if (!field.ends_with("seconds") && !field.ends_with("Seconds")) return {};
  std::optional<std::int64_t> seconds = duration_seconds(text);
  if (!seconds) return {};
  return "write the number of seconds: " + std::string(shown_value) + " is " + std::to_string(*seconds);
}

std::optional<std::int64_t> exponent_integer(std::string_view text) {
  if (text.size() > 32) return std::nullopt;
  std::size_t i = 0;
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    i = 1;
  }
  std::string digits;
  int exponent = 0;  // what the written exponent still has to be corrected by
  bool point = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.' && !point) {
      point = true;
    } else if (text[i] >= '0' && text[i] <= '9') {
      digits += text[i];
      if (point) --exponent;
    } else {
      return std::nullopt;
    }
  }
  if (digits.empty() || i + 1 >= text.size()) return std::nullopt;  // no exponent, or "1e"
  int written = 0;
  auto [end, ec] = std::from_chars(text.data() + i + 1 + (text[i + 1] == '+'), text.data() + text.size(), written);
  if (ec != std::errc{} || end != text.data() + text.size() || written < -40 || written > 40) return std::nullopt;
  exponent += written;
  for (; exponent < 0; ++exponent) {
    if (digits.empty() || digits.back() != '0') return std::nullopt;  // not a whole number
    digits.pop_back();
  }
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  if (digits.size() + static_cast<std::size_t>(exponent) > 18) return std::nullopt;
  digits.append(static_cast<std::size_t>(exponent), '0');
  std::int64_t n = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), n);
  return negative ? -n : n;
}

std::string exponent_hint(std::string_view text) {
  std::optional<std::int64_t> n = exponent_integer(text);
  if (!n) return {};
  return "write " + std::to_string(*n) + ": YAML 1.1 readers such as PyYAML read " + std::string(text) +
         " as a string (their floats need a point and a signed exponent)";
}

namespace {
std::string join_with(const std::vector<std::string>& items, std::string_view last) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? last : std::string_view(", ");
    out += items[i];
  }
  return out;
}
}  // namespace

std::string join_or(const std::vector<std::string>& items) { return join_with(items, " or "); }
std::string join_and(const std::vector<std::string>& items) { return join_with(items, " and "); }

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {  // DEL is as invisible as the C0 controls
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string capability_name(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  if (out.rfind("CAP_", 0) == 0) out.erase(0, 4);
  return out;
}

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

std::string shown_text(std::string_view s) {
  constexpr std::size_t k_max = 80;
  if (s.size() <= k_max) return Node::make_string(std::string(s)).display();
  // Cut before a continuation byte would split a UTF-8 sequence (the message must stay UTF-8).
  std::size_t cut = k_max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return Node::make_string(std::string(s.substr(0, cut))).display() + "…";
}

std::string glued_colon_fix(std::string_view line) {
  std::size_t i = leading_spaces(line);
  std::size_t key_start = i;
  auto key_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' || c == '/';
  };
  if (i >= line.size() || !((line[i] >= 'a' && line[i] <= 'z') || (line[i] >= 'A' && line[i] <= 'Z') || line[i] == '_')) return {};
  while (i < line.size() && i - key_start <= 64 && key_char(line[i])) ++i;
  // `key:value`: a colon with something other than white space, another colon or a slash (a URL,
  // `https://…`) right after it.
  if (i + 1 >= line.size() || line[i] != ':' || line[i + 1] == ' ' || line[i + 1] == '\t' || line[i + 1] == ':' ||
      line[i + 1] == '/') {
    return {};
  }
  std::string_view rest = line.substr(i + 1);
  std::size_t hash = rest.find(" #");
  if (hash != std::string_view::npos) rest = rest.substr(0, hash);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.remove_suffix(1);
  if (rest.size() > 80) return std::string(line.substr(key_start, i - key_start)) + ": …";
  return std::string(line.substr(key_start, i - key_start)) + ": " + std::string(rest);
}


}  // namespace sandgate
