#include "records_feed.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <vector>

namespace sandgate_node {
namespace {

bool make_pipe(int& r, int& w) {
  int p[2];
  if (::pipe(p) != 0) return false;
  ::fcntl(p[0], F_SETFD, FD_CLOEXEC);
  ::fcntl(p[1], F_SETFD, FD_CLOEXEC);
  r = p[0];
  w = p[1];
  return true;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

RecordsFeed::RecordsFeed() { make_pipe(stop_r_, stop_w_); }

RecordsFeed::~RecordsFeed() {
  end();
  close_fd(source_);
  close_fd(pipe_r_);
  close_fd(pipe_w_);
  close_fd(stop_r_);
  close_fd(stop_w_);
}

void RecordsFeed::stop() {
  if (stopped_.exchange(true) || stop_w_ < 0) return;
  char byte = 1;
  while (::write(stop_w_, &byte, 1) < 0 && errno == EINTR) {
  }
}

std::string RecordsFeed::start(int source) {
  if (stop_r_ < 0 || !make_pipe(pipe_r_, pipe_w_)) return "";
  // The writes wait in poll() beside the stop signal, never in write() (the core's reader may stop
  // reading before the end: an I/O error of its own).
  ::fcntl(pipe_w_, F_SETFL, ::fcntl(pipe_w_, F_GETFL) | O_NONBLOCK);
  source_ = source;
  try {
    thread_ = std::thread([this] { copy(); });
  } catch (const std::system_error&) {
    source_ = -1;
    close_fd(pipe_r_);
    close_fd(pipe_w_);
    return "";
  }
  return "/dev/fd/" + std::to_string(pipe_r_);
}

int RecordsFeed::end() {
  stop();
  if (thread_.joinable()) thread_.join();
  return read_errno_;
}

bool RecordsFeed::wait(int fd, short events) {
  pollfd p[2] = {{fd, events, 0}, {stop_r_, POLLIN, 0}};
  for (;;) {
    if (::poll(p, 2, -1) >= 0) break;
    if (errno != EINTR) {
      read_errno_ = errno;  // not the end of the file: the diff says it was not read to the end
      return false;
    }
  }
  // Ready, or an error or hang-up on `fd`, which the read or write that follows reports.
  return p[1].revents == 0;
}

bool RecordsFeed::put(const char* data, std::size_t size) {
  while (size > 0) {
    if (!wait(pipe_w_, POLLOUT)) return false;
    ssize_t w = ::write(pipe_w_, data, size);
    if (w < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (w < 0) return false;  // the reader is gone
    data += w;
    size -= static_cast<std::size_t>(w);
  }
  return true;
}

void RecordsFeed::copy() {
  std::vector<char> buffer(1 << 16);
  while (wait(source_, POLLIN)) {
    ssize_t n = ::read(source_, buffer.data(), buffer.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) read_errno_ = errno;
    // The end of the file (of a FIFO: its last writer closed it), an error, or stopped.
    if (n <= 0 || !put(buffer.data(), static_cast<std::size_t>(n))) break;
  }
  close_fd(pipe_w_);  // the core's reader sees the end of the stream
  close_fd(source_);
}

}  // namespace sandgate_node
