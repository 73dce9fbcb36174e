// A diffPolicies records file that may never end (a FIFO whose writer never closes it, a device
// such as /dev/zero), handed to the core's reader through a pipe so that its read can be stopped.
// Node joins libuv's threads before the process exits, so process.exit() would wait for the worker
// blocked in the core's open(2) or read(2) of such a file, which nothing could interrupt (the core
// retries a read that a signal interrupts). Here a thread copies the file's bytes into a pipe and the
// core's reader reads the pipe (RequestReader::open of "/dev/fd/N", named as the file): stop() ends
// the copy and closes the pipe, the core's reader sees the end of the stream, and the worker ends.
// The copy waits in poll(2) on the file (or the pipe) and on the stop signal together: no timeout,
// no busy loop. It only moves bytes: what a record is stays the core's reader's business.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>
#include <thread>

namespace sandgate_node {

class RecordsFeed {
 public:
  // The stop signal only (a pipe; without one, start() fails).
  RecordsFeed();
  ~RecordsFeed();  // ends the copy, closes every descriptor
  RecordsFeed(const RecordsFeed&) = delete;
  RecordsFeed& operator=(const RecordsFeed&) = delete;

  // Any thread, any number of times, before or during the copy: the copy ends (at once if it has
  // not begun) and closes its end of the pipe.
  void stop();

  // Starts copying `source` (an open descriptor, owned from here on) into a new pipe; returns the
  // path for the core's reader to open ("/dev/fd/N", the pipe's read end), or "" when no pipe or
  // thread could be made (`source` is then left to the caller, to read another way).
  std::string start(int source);

  // Stops the copy and waits for it to end; the errno of a failed read (or wait) of the source, or 0.
  int end();

 private:
  void copy();
  bool wait(int fd, short events);  // false when stopped (or poll failed)
  bool put(const char* data, std::size_t size);  // into the pipe; false when stopped or unread

  int stop_r_ = -1, stop_w_ = -1;  // the stop signal: a byte written to stop_w_
  std::atomic<bool> stopped_{false};
  int source_ = -1;
  int pipe_r_ = -1, pipe_w_ = -1;
  int read_errno_ = 0;  // written by the copy thread, read once it is joined
  std::thread thread_;
};

}  // namespace sandgate_node
