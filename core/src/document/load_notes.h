// Non-fatal loading problems (duplicate keys, tags, NULs, …), capped. A hostile document can hold
// 100,000 duplicate keys under a path of megabytes; listing every one would cost gigabytes, so
// after a budget the rest are counted and summarised in one last diagnostic.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "util/diagnostics.h"
#include "util/text.h"

namespace sandgate::detail {

class LoadNotes {
 public:
  explicit LoadNotes(DiagnosticSink& sink) : sink_(sink) {}

  // False when the budget is spent: the caller then skips building the path and message.
  bool has_room(Code code, Mark mark) {
    if (count_ < k_max_count && bytes_ < k_max_bytes) return true;
    if (suppressed_++ == 0) {
      suppressed_code_ = code;
      suppressed_mark_ = mark;
    }
    return false;
  }
  void add(Code code, std::string path, Mark mark, std::string message, std::string hint = {}) {
    ++count_;
    bytes_ += path.size() + message.size() + hint.size();
    sink_.add(code, std::move(path), mark, std::move(message), std::move(hint));
  }
  // A key written twice in one object (the caller found it before checking the budget), with
  // its first occurrence as the related location (SPEC §3): both have the same path.
  void duplicate_key(const std::string& path, Mark mark, std::string_view key, Mark first) {
    ++count_;
    bytes_ += 2 * path.size() + key.size();
    Diagnostic& d = sink_.add(Code::DUPLICATE_KEY, path, mark, "the key " + shown_text(key) + " appears twice in the same object",
                              "remove one of them; sandgate never picks a winner");
    Related r;
    r.input = sink_.input();
    r.path = path;
    if (first.known()) r.source = SourceLocation{sink_.file(), first.line, first.column};
    r.message = "the first occurrence";
    d.related.push_back(std::move(r));
  }
  // Adds one diagnostic that says how many were left out, if any were.
  void finish() {
    if (suppressed_ == 0) return;
    sink_.add(suppressed_code_, "", suppressed_mark_,
              std::to_string(suppressed_) + " more loading problems (the first one here) are not listed",
              "fix the ones listed and run again");
    suppressed_ = 0;
  }

 private:
  static constexpr std::size_t k_max_count = 100;
  static constexpr std::size_t k_max_bytes = 1u << 20;
  DiagnosticSink& sink_;
  std::size_t count_ = 0;
  std::size_t bytes_ = 0;
  std::size_t suppressed_ = 0;
  Code suppressed_code_ = Code::SYNTAX;
  Mark suppressed_mark_;
};

}  // namespace sandgate::detail
