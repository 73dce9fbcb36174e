#include "util/text.h"

#include <algorithm>
#include <cstdio>

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
  if (a.size() > 256 || b.size() > 256) return cap;
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t sub = prev[j - 1] + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return std::min(prev[b.size()], cap);
}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = 64;
  for (const auto& c : candidates) {
    std::size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  // A typo, not a different word: up to a third of the longer word, at least 2.
  std::size_t allowed = std::max<std::size_t>(2, std::max(word.size(), best.size()) / 3);
  return best_d <= allowed ? best : std::string();
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
        if (static_cast<unsigned char>(c) < 0x20) {
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

}  // namespace sandgate
