#include "output.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "cli.h"

namespace sandgate::cli {
namespace {
int g_write_errno = 0;  // why a Stdout write failed, for output_ok()'s message
}  // namespace

bool output_ok() {
  // errno still holds why the failed write failed (nothing since has failed): keep it for the message.
  int err = errno;
  std::cout.flush();
  bool failed = !std::cout.good();
  if (failed && errno != 0) err = errno;
  int before_flush = errno;
  errno = 0;
  if (std::fflush(stdout) != 0) {
    failed = true;
    if (errno != 0) err = errno;
  } else {
    errno = before_flush;
  }
  if (std::ferror(stdout)) failed = true;
  if (g_write_errno != 0) err = g_write_errno;
  if (failed) {
    std::cerr << "sandgate: cannot write the output: " << (err != 0 ? std::strerror(err) : "write error")
              << " (the output is incomplete)\n";
  }
  return !failed;
}

Stdout::Stdout() {
  // Large writes: JSON Lines of a million records should not be a million write(2) calls.
  static char buffer[1 << 20];
  std::cout.flush();
  std::fflush(stdout);
  std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
}

bool Stdout::write(std::string_view s) {
  if (!ok_) return false;
  errno = 0;
  if (std::fwrite(s.data(), 1, s.size(), stdout) != s.size() || std::ferror(stdout)) {
    ok_ = false;
    g_write_errno = errno;
  }
  return ok_;
}

bool Stdout::flush() {
  if (!ok_) return false;
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    ok_ = false;
    g_write_errno = errno;
  }
  return ok_;
}

std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

Progress::Progress(bool enabled)
    : enabled_(enabled && isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()), last_(start_) {}

void Progress::update(std::uint64_t records, std::uint64_t bytes, std::uint64_t total_bytes) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  double seconds = std::chrono::duration<double>(now - start_).count();
  std::string line = "\r\x1b[K";
  if (total_bytes > 0) {
    constexpr int k_width = 30;
    double f = std::min(1.0, static_cast<double>(bytes) / static_cast<double>(total_bytes));
    int filled = static_cast<int>(f * k_width);
    line += "[" + std::string(static_cast<std::size_t>(filled), '#') + std::string(static_cast<std::size_t>(k_width - filled), '.') +
            "] " + std::to_string(static_cast<int>(f * 100)) + "%  ";
  }
  line += grouped(records) + " records";
  if (seconds > 0.2) line += "  " + grouped(static_cast<std::uint64_t>(static_cast<double>(records) / seconds)) + "/s";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::clear() {
  if (!drawn_) return;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace sandgate::cli
