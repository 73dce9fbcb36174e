// Writing a command's output with every write checked, and a progress bar for long runs.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace sandgate::cli {

// Standard output for the streaming commands: large buffered writes, each checked. After a
// failed write, every later write is skipped and ok() stays false (main() then exits 2).
class Stdout {
 public:
  Stdout();
  bool write(std::string_view s);
  // Sends what is buffered (before writing to standard error, so the two do not interleave).
  bool flush();
  bool ok() const { return ok_; }

 private:
  bool ok_ = true;
};

// A progress line on standard error, drawn only when it is a terminal, at most 10 times a second,
// and erased before anything else is printed there.
class Progress {
 public:
  explicit Progress(bool enabled);
  void update(std::uint64_t records, std::uint64_t bytes, std::uint64_t total_bytes);
  void clear();

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

// 1234567 → "1,234,567".
std::string grouped(std::uint64_t n);

}  // namespace sandgate::cli
