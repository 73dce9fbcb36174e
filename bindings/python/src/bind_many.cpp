// Many requests (SPEC §10): check_many and diff_policies, thin layers over the core's
// check_records and PolicyDiffer/replay. Records come from a stream the core reads (a path or text)
// or from a Python iterator; Python values are read on the calling thread with the GIL held (a few
// at a time: written flat as node tapes, or converted), and everything else — building their trees,
// parsing, checking, diffing — runs on the core's ordered pool with the GIL released.
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "bind.h"
#include "convert.h"
#include "holders.h"
#include "plain_tape.h"
#include "sandgate/diff.h"
#include "sandgate/stream.h"
#include "to_python.h"

namespace py = pybind11;

namespace sandgate::python {
namespace {

constexpr std::size_t k_convert_batch = 64;  // Python values converted per hold of the GIL

// Whether a record needs sandgate._inputs.record (SDK-style values: dataclasses, option objects)
// before conversion; plain dicts, by far the most common, are converted as they are.
bool needs_prepare(PyObject* item) {
  if (!PyDict_CheckExact(item)) return true;
  PyObject* sandbox = PyDict_GetItemString(item, "sandbox");
  if (!sandbox) return !plain_layer(item);
  for (const char* key : {"sandbox", "defaults", "overrides"}) {
    PyObject* v = PyDict_GetItemString(item, key);
    if (v && v != Py_None && !plain_layer(v)) return true;
  }
  return false;
}

// What check() does for a layer given as a dataclass (document_from_value): the layer's object
// remembers the SDK class it was given as.
void mark_given_as(Node& record, const std::string& layer, const std::string& class_name) {
  Node* n = layer.empty() ? &record : (record.is_object() ? record.find(layer) : nullptr);
  if (n && n->is_object()) n->given_as = given_as_from_name(class_name);
}

// The error Python has set, kept to be raised later (with the GIL held).
std::exception_ptr fetch_python_error() {
  try {
    throw py::error_already_set();
  } catch (...) {
    return std::current_exception();
  }
}

// A stream the binding reads itself (a file it opened, standard input that is not a regular file,
// or a Python file object) and hands to the core's reader through a pipe. The core's reader runs on
// a thread of its own: on a line that never ends (/dev/zero) one call into it reads for ever, and
// on the calling thread nothing could interrupt it. The calling thread reads the source a chunk at
// a time, with a timeout on a source that has nothing to read (a FIFO), and checks for signals
// between reads with the GIL held: a KeyboardInterrupt stops the feed, and closing the pipe ends
// the reader. Memory stays bounded: the calling thread feeds only while no record is waiting, and
// the pipe holds at most its capacity.
class FedStream {
 public:
  static constexpr std::size_t k_chunk = 1 << 18;

  // Takes `fd` (a file opened by sandgate._many, or a copy of standard input; >= 0), or reads `file`
  // (an object with read()).
  FedStream(int fd, py::object file, std::string name, std::string error_name)
      : fd_(fd), file_(std::move(file)), name_(std::move(name)), error_name_(std::move(error_name)) {
    int p[2];
    if (::pipe(p) != 0) {
      if (fd_ >= 0) ::close(fd_);
      PyErr_SetFromErrno(PyExc_OSError);
      throw py::error_already_set();
    }
    ::fcntl(p[0], F_SETFD, FD_CLOEXEC);
    ::fcntl(p[1], F_SETFD, FD_CLOEXEC);
#ifdef F_SETPIPE_SZ
    ::fcntl(p[1], F_SETPIPE_SZ, static_cast<int>(k_chunk));  // fewer hand-overs; the default still works
#endif
    rfd_ = p[0];
    wfd_ = p[1];
    reader_thread_ = std::thread([this] { read_records(); });
  }
  FedStream(const FedStream&) = delete;
  FedStream& operator=(const FedStream&) = delete;

  // With the GIL held (the file object is released here).
  ~FedStream() {
    close_feed();
    {
      py::gil_scoped_release nogil;  // the reader drains the pipe to its end; it never needs the GIL
      if (reader_thread_.joinable()) reader_thread_.join();
    }
    ::close(rfd_);
    if (fd_ >= 0) ::close(fd_);
    file_ = py::object();
  }

  // The next record; false at the end, or once feeding failed (error() says why). GIL released.
  bool next(PendingRecord& out) {
    for (;;) {
      if (!ready_.empty()) {
        out = std::move(ready_.front());
        ready_.pop_front();
        return true;
      }
      if (error_) return false;
      {
        std::unique_lock lock(mu_);
        if (!queue_.empty()) {
          ready_.swap(queue_);
          continue;
        }
        if (reader_done_) return false;
        if (fed_all_) {
          cv_.wait(lock, [&] { return !queue_.empty() || reader_done_; });
          continue;
        }
      }
      if (!feed()) {
        fed_all_ = true;
        close_feed();
      }
    }
  }

  // Why the stream stopped early: the source's read raised or failed, or a signal handler raised.
  std::exception_ptr take_error() { return std::exchange(error_, nullptr); }
  bool failed() const { return error_ != nullptr; }
  // An I/O error of the core's reader (on the pipe): not expected, reported as OSError.
  std::string reader_error() {
    std::lock_guard lock(mu_);
    return reader_error_;
  }

 private:
  // The reader thread: records from the pipe into the queue, then the rest of the pipe drained (so
  // a write of the feed never blocks for good) until the feed closes it.
  void read_records() {
    std::string error;
    try {
      StreamOptions options;
      options.name = name_;  // the pipe's path says nothing: the stream is named, and detected, as given
      std::unique_ptr<RequestReader> reader = RequestReader::open("/dev/fd/" + std::to_string(rfd_), options, &error);
      if (reader) {
        PendingRecord p;
        while (reader->next(p)) {
          std::lock_guard lock(mu_);
          queue_.push_back(std::move(p));
          cv_.notify_one();
          p = PendingRecord{};
        }
        error = reader->error();
      }
    } catch (const std::exception& e) {
      error = error_name_ + ": " + e.what();
    }
    {
      std::lock_guard lock(mu_);
      reader_error_ = error;  // the core's message names the stream (options.name)
      reader_done_ = true;
      cv_.notify_one();
    }
    char sink[4096];
    for (;;) {
      ssize_t n = ::read(rfd_, sink, sizeof sink);
      if (n > 0 || (n < 0 && errno == EINTR)) continue;
      break;
    }
  }

  void close_feed() {
    if (wfd_ >= 0) {
      ::close(wfd_);
      wfd_ = -1;
    }
  }

  // With the GIL: false (and error_ set) when a signal handler raised (Ctrl-C: KeyboardInterrupt).
  bool signals_ok() {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() == 0) return true;
    error_ = fetch_python_error();
    return false;
  }

  // One chunk of the source into the pipe; false at its end or on an error (error_ set).
  bool feed() {
    if (!signals_ok()) return false;
    if (fd_ >= 0) {
      buffer_.resize(k_chunk);
      for (;;) {
        struct pollfd p{fd_, POLLIN, 0};
        int ready = ::poll(&p, 1, 100);  // a source with nothing to read: look at the signals every 0.1 s
        if (ready == 0 || (ready < 0 && errno == EINTR)) {
          if (!signals_ok()) return false;
          continue;
        }
        ssize_t n = ::read(fd_, buffer_.data(), k_chunk);
        if (n < 0 && errno == EINTR) {
          if (!signals_ok()) return false;
          continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) continue;  // a non-blocking stdin: poll again
        if (n < 0) {
          int e = errno;
          py::gil_scoped_acquire gil;
          errno = e;
          PyErr_SetFromErrnoWithFilename(PyExc_OSError, error_name_.c_str());
          error_ = fetch_python_error();
          return false;
        }
        if (n == 0) return false;
        buffer_.resize(static_cast<std::size_t>(n));
        break;
      }
    } else {
      py::gil_scoped_acquire gil;
      try {
        py::object data = file_.attr("read")(k_chunk);
        if (PyUnicode_Check(data.ptr())) {
          // A text file object: its text as UTF-8 (a lone surrogate stays, for the loader to report).
          py::object b = py::reinterpret_steal<py::object>(PyUnicode_AsEncodedString(data.ptr(), "utf-8", "surrogatepass"));
          if (!b) throw py::error_already_set();
          buffer_ = std::string(py::bytes(b));
        } else if (data.is_none()) {
          buffer_.clear();  // a non-blocking file with nothing to read yet: read again
          return true;
        } else {
          buffer_ = std::string(py::bytes(py::reinterpret_steal<py::object>(PyBytes_FromObject(data.ptr()))));
        }
      } catch (py::error_already_set&) {
        error_ = std::current_exception();
        return false;
      }
      if (buffer_.empty()) return false;
    }
    const char* at = buffer_.data();
    std::size_t left = buffer_.size();
    while (left > 0) {
      ssize_t w = ::write(wfd_, at, left);
      if (w < 0) {
        if (errno == EINTR) continue;
        return false;  // the reader drains the pipe until it is closed: not expected
      }
      at += w;
      left -= static_cast<std::size_t>(w);
    }
    return true;
  }

  int fd_ = -1;
  py::object file_;
  std::string name_, error_name_;
  int rfd_ = -1, wfd_ = -1;
  std::string buffer_;
  std::exception_ptr error_;
  bool fed_all_ = false;
  std::deque<PendingRecord> ready_;  // taken from the queue, for the calling thread only
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<PendingRecord> queue_;
  bool reader_done_ = false;
  std::string reader_error_;
  std::thread reader_thread_;
};

// The converter's error about a value that stands where the record, or one of its layers, must be an
// object, and could not be read at all (object(), a Path, a Decimal, a sandgate.Policy): the
// record's one problem is what check() reports for that value (SG_VALUE_UNSUPPORTED naming its
// type, SG_VALUE_READ_FAILED, …), not the core's "must be an object, not null" about the null the
// converter left in its place.
std::optional<Diagnostic> unreadable_object(const Converted& c) {
  const bool has_layers = c.root.is_object() && c.root.find("sandbox");
  for (const Diagnostic& d : c.diagnostics) {
    if (d.severity != Severity::error) continue;
    // Only where the value itself was left out (a null in its place), not a key of it that was.
    const Node* at = nullptr;
    if (d.path.empty()) {
      at = &c.root;
    } else if (has_layers && (d.path == "/sandbox" || d.path == "/defaults" || d.path == "/overrides")) {
      at = c.root.find(d.path.substr(1));
    }
    if (at && at->is_null()) {
      Diagnostic out = d;
      out.input = std::string(k_requests_input);
      return out;
    }
  }
  return std::nullopt;
}

// Where the records come from. next() is called with the GIL released.
class RecordSource {
 public:
  explicit RecordSource(std::unique_ptr<RequestReader> reader) : reader_(std::move(reader)), name_(reader_->name()) {
    limits_ = reader_->limits();
  }
  RecordSource(std::unique_ptr<FedStream> fed, std::string name) : fed_(std::move(fed)), name_(std::move(name)) {}
  RecordSource(py::object iterator, py::object prepare, std::string name)
      : iterator_(std::move(iterator)), prepare_(std::move(prepare)), name_(std::move(name)) {}

  RecordSource(const RecordSource&) = delete;
  RecordSource& operator=(const RecordSource&) = delete;
  ~RecordSource() {
    py::gil_scoped_acquire gil;
    fed_.reset();
    iterator_ = py::object();
    prepare_ = py::object();
    buffer_.clear();
    error_ = nullptr;
  }

  bool next(PendingRecord& out) {
    if (fed_) {
      if (fed_->next(out)) return true;
      ended_ = true;
      return false;
    }
    if (reader_) {
      if (reader_->next(out)) return true;
      ended_ = true;
      return false;
    }
    if (buffer_.empty() && !ended_) fill();
    if (buffer_.empty()) return false;
    out = std::move(buffer_.front());
    buffer_.pop_front();
    return true;
  }

  bool ended() const { return ended_ && buffer_.empty(); }
  const std::string& name() const { return name_; }
  const Limits& limits() const { return limits_; }

  // The feed of a stream stopped on an error (a signal handler raised, the file could not be read):
  // raised at once, without the records read before it.
  bool failed() const { return fed_ && fed_->failed(); }

  // After a call with the GIL held: raises what stopped the stream (the iterator raised, I/O failed).
  void raise_error() {
    if (fed_) {
      if (std::exception_ptr e = fed_->take_error()) std::rethrow_exception(e);
      std::string message = fed_->reader_error();
      if (!message.empty()) {
        PyErr_SetString(PyExc_OSError, message.c_str());
        throw py::error_already_set();
      }
    }
    if (error_) {
      std::exception_ptr e = error_;
      error_ = nullptr;
      std::rethrow_exception(e);
    }
    if (reader_ && !reader_->error().empty()) {
      std::string message = reader_->error();
      PyErr_SetString(PyExc_OSError, message.c_str());
      throw py::error_already_set();
    }
  }

 private:
  // Converts up to k_convert_batch items of the iterator (GIL held just for that).
  void fill() {
    py::gil_scoped_acquire gil;
    try {
      for (std::size_t i = 0; i < k_convert_batch; ++i) {
        PyObject* item = PyIter_Next(iterator_.ptr());
        if (!item) {
          if (PyErr_Occurred()) throw py::error_already_set();
          ended_ = true;
          return;
        }
        py::object value = py::reinterpret_steal<py::object>(item);
        PendingRecord p;
        p.index = ++count_;
        p.line = static_cast<int>(p.index);
        if (PyUnicode_Check(item) || PyBytes_Check(item)) {
          // A line of JSON Lines text: parsed (on a worker) as a stream's line is.
          p.text = PyUnicode_Check(item) ? value.cast<std::string>() : std::string(py::bytes(value));
          p.bytes = p.text.size();
        } else if (!to_plain_tape(value, limits_, p.tape)) {
          // Plain values are written flat (a node tape) and their tree is built by the worker
          // that checks the record, which also frees it: a tree built here would be freed by
          // another thread, and glibc's per-thread arenas make that free contend with this
          // thread's next allocations. The tape is also cheaper than converting here, and
          // sandgate._many._record leaves plain values as they are. Anything else is converted.
          py::dict given;  // layer → the SDK class it was given as ("" for the record itself)
          bool flat = false;
          if (needs_prepare(item)) {  // SDK-style values become plain ones: the tape may take them now
            py::tuple prepared = prepare_(value);
            value = prepared[0];
            given = prepared[1];
            flat = given.empty() && to_plain_tape(value, limits_, p.tape);
          }
          if (!flat) {
            Converted c = to_node(value, std::string(k_requests_input), "", limits_);
            for (auto [layer, name] : given) mark_given_as(c.root, layer.cast<std::string>(), name.cast<std::string>());
            if (std::optional<Diagnostic> problem = unreadable_object(c)) {
              problem->source = SourceLocation{name_, p.line, 1};
              p.problem = std::move(problem);
            } else {
              p.tree = std::move(c.root);
              p.tree_diagnostics = std::move(c.diagnostics);
            }
          }
        }
        buffer_.push_back(std::move(p));
      }
    } catch (...) {
      error_ = std::current_exception();
      ended_ = true;
    }
  }

  std::unique_ptr<RequestReader> reader_;
  std::unique_ptr<FedStream> fed_;
  py::object iterator_, prepare_;
  std::string name_;
  Limits limits_;
  std::deque<PendingRecord> buffer_;
  std::size_t count_ = 0;
  bool ended_ = false;
  std::exception_ptr error_;
};

// `kind` says what `records` is: "fd" a file sandgate._many opened (taken over here), "file" a file
// object, "stdin" standard input (a YAML list is detected there, as the CLI detects it), "text" the
// stream's text, "iter" an iterable of records.
std::unique_ptr<RecordSource> open_source(py::object records, py::object prepare, const std::string& kind,
                                          const std::string& name) {
  if (kind == "fd" || kind == "file") {
    int fd = kind == "fd" ? records.cast<int>() : -1;
    struct stat st;
    if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
      // A regular file ends, and its lines with it: the core reads it on the calling thread, as fast
      // as it can (the feed's pipe and thread cost a fifth of a small record), and Python sees the
      // signals between chunks. It opens the file again through /dev/fd, so the name is any bytes.
      StreamOptions options;
      options.name = name;
      std::string path = "/dev/fd/" + std::to_string(fd), error;
      std::unique_ptr<RequestReader> reader;
      {
        py::gil_scoped_release nogil;
        reader = RequestReader::open(path, options, &error);
      }
      if (reader) {
        ::close(fd);
        return std::make_unique<RecordSource>(std::move(reader));
      }
      // not expected (no /dev/fd): the feed reads the descriptor itself
    }
    py::object file = kind == "file" ? records : py::object();
    return std::make_unique<RecordSource>(std::make_unique<FedStream>(fd, std::move(file), name, name), name);
  }
  if (kind == "stdin") {
    struct stat st;
    if (::fstat(STDIN_FILENO, &st) == 0 && !S_ISREG(st.st_mode)) {
      // A pipe or a terminal may never end a line, and the core's reader retries a read that a
      // signal interrupts: fed as a FIFO is, so Ctrl-C stops it. The feed closes its descriptor: a
      // copy, so that standard input stays open.
      int fd = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
      if (fd < 0) {
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, "<stdin>");
        throw py::error_already_set();
      }
      // Named as the core names "-": in diagnostics, and nameless, so a YAML list is detected.
      return std::make_unique<RecordSource>(std::make_unique<FedStream>(fd, py::object(), "<stdin>", "<stdin>"),
                                            "<stdin>");
    }
    // A regular file ends, and its lines with it: the core reads it on the calling thread, as fast
    // as it can (the feed's pipe and thread cost a fifth of a small record).
    std::string path = "-", error;
    std::unique_ptr<RequestReader> reader;
    {
      py::gil_scoped_release nogil;
      reader = RequestReader::open(path, StreamOptions{}, &error);
    }
    if (!reader) {
      PyErr_SetString(PyExc_OSError, error.c_str());
      throw py::error_already_set();
    }
    return std::make_unique<RecordSource>(std::move(reader));
  }
  if (kind == "text") {
    std::string text = PyUnicode_Check(records.ptr()) ? records.cast<std::string>() : std::string(py::bytes(records));
    return std::make_unique<RecordSource>(RequestReader::from_text(std::move(text), name));
  }
  return std::make_unique<RecordSource>(py::iter(records), std::move(prepare), name);
}

template <typename T>
void add_load_errors(const Loaded<T>* in, Diagnostics& out) {
  if (!in || in->value) return;
  for (const auto& d : in->diagnostics) {
    if (d.severity == Severity::error) out.push_back(d);
  }
}

// check_many's state between chunks: Python iterates, each chunk is checked on the pool, whose
// workers live as long as this does.
class ManyCheck {
 public:
  ManyCheck(std::unique_ptr<RecordSource> source, const LoadedPolicy* policy, const LoadedRunners* runners,
            const LoadedOrg* org, const CheckOptions& options, unsigned jobs)
      : source_(std::move(source)) {
    add_load_errors(policy, load_errors_);
    add_load_errors(runners, load_errors_);
    add_load_errors(org, load_errors_);
    if (!load_errors_.empty()) {
      graveyard_ = std::make_shared<Graveyard>(1);
      return;
    }
    engine_ = std::make_unique<Engine>(engine_of(policy, runners, org));
    // Each worker frees up to two of the results it made before checking a record, so the dead are
    // freed faster than a chunk makes them, on the threads that made them.
    unsigned workers = jobs ? jobs : std::max(1u, std::thread::hardware_concurrency());
    graveyard_ = std::make_shared<Graveyard>(workers);
    Graveyard* g = graveyard_.get();
    checker_ = std::make_unique<RecordChecker>(*engine_, options, workers, source_->name(), source_->limits(),
                                               [g](unsigned w) { g->free_some(w, 2); });
  }

  ManyCheck(ManyCheck&&) = default;
  ~ManyCheck() {
    checker_.reset();  // the workers stop first: they may be freeing results
    if (graveyard_) graveyard_->close();  // results dropped from now on are freed where they are dropped
  }

  // The results of up to `n` more records, in input order; empty at the end.
  std::vector<CheckResult> next_chunk(std::size_t n) {
    std::vector<CheckResult> out;
    py::gil_scoped_release nogil;
    if (checker_ && n > 0) {
      // Records read ahead stay in flight after this returns: the workers go on checking them
      // while Python handles this chunk.
      out.reserve(n);
      checker_->take([&](PendingRecord& p) { return source_->next(p); },
                     [&](RequestRecord&&, std::unique_ptr<Result> r, unsigned worker) {
                       out.emplace_back(std::move(r), graveyard_, worker);
                       return true;
                     },
                     n);
    } else if (n > 0) {  // the policy, runners or org could not be read: every record gets their errors
      out.reserve(n);
      graveyard_->free_some(0, n);  // the last chunk's, dropped by now
      PendingRecord p;
      while (out.size() < n && source_->next(p)) {
        out.emplace_back(std::make_unique<Result>(Result::from_diagnostics(load_errors_)), graveyard_, 0);
      }
    }
    if (out.empty() || source_->failed()) {
      py::gil_scoped_acquire gil;
      source_->raise_error();  // what ended the stream, once its records are out (a failed feed: now)
    }
    return out;
  }

 private:
  std::unique_ptr<RecordSource> source_;
  std::shared_ptr<Graveyard> graveyard_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<RecordChecker> checker_;  // after what it uses: destroyed first
  Diagnostics load_errors_;
};

// ---- diff_policies -------------------------------------------------------------------------------

py::object text(std::string_view s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

py::object source_tuple(const std::optional<SourceLocation>& s) {
  if (!s) return py::none();
  return py::make_tuple(text(s->file), s->line, s->column);
}

py::object value_or_none(const std::optional<Node>& n) { return n ? to_python(*n) : py::none(); }

PolicyLoad policy_load(const LoadedPolicy& l) { return PolicyLoad{l.value, l.diagnostics}; }

struct DiffHolder {
  PolicyDiff diff;
};

DiffHolder diff(const LoadedPolicy& old_policy, const LoadedPolicy& new_policy, py::object records, py::object prepare,
                const std::string& kind, const std::string& name, const LoadedRunners* runners, const LoadedOrg* org,
                const std::string& client, const std::string& placement, std::size_t examples, unsigned jobs) {
  DiffOptions options;
  options.check = options_of(client, placement);
  options.examples = examples;
  options.jobs = jobs;
  std::unique_ptr<RecordSource> source;
  if (!records.is_none()) source = open_source(records, prepare, kind, name);
  PolicyLoad old_load = policy_load(old_policy), new_load = policy_load(new_policy);
  DiffHolder out;
  {
    py::gil_scoped_release nogil;
    out.diff = start_diff(old_load, new_load, examples);
    // A policy given as a Python value has no file name, and one that could not be read no compiled
    // policy to take it from: the header names what was given as the rest of the binding does
    // (a path, "<policy>" for text, "<value>" for a value, as repr(Policy) shows it).
    auto label = [](std::string& file, const LoadedPolicy& given) {
      if (file.empty()) file = given.file.empty() ? "<value>" : given.file;
    };
    label(out.diff.old_file, old_policy);
    label(out.diff.new_file, new_policy);
    if (source && out.diff.old_readable && out.diff.new_readable) {
      PolicyDiffer differ(old_load.policy, new_load.policy, runners ? runners->value : nullptr,
                          org ? org->value : nullptr, options.check);
      replay(out.diff, differ, [&](PendingRecord& p) { return source->next(p); }, source->name(), source->limits(),
             options);
      // NEW's errors in each record are the engine's copies; the records are what Python reads (the
      // renderers print no hints).
      Diagnostics hints = input_hints(&new_policy, runners, org);
      if (!hints.empty()) {
        for (RecordDiff& r : out.diff.records) add_input_hints(r.errors, hints);
      }
    }
  }
  if (source) source->raise_error();
  return out;
}

py::tuple static_change_tuple(const StaticChange& c) {
  return py::make_tuple(text(c.field), text(c.pointer), text(to_string(c.kind)), c.list_item,
                        value_or_none(c.old_value), value_or_none(c.new_value), source_tuple(c.old_source),
                        source_tuple(c.new_source));
}

py::tuple record_tuple(const RecordDiff& r) {
  py::list changes;
  for (const auto& c : r.changes) changes.append(py::make_tuple(text(c.pointer), value_or_none(c.old_value), value_or_none(c.new_value)));
  return py::make_tuple(r.line, r.index, r.id ? text(*r.id) : py::object(py::none()), text(to_string(r.cls)),
                        diagnostic_list(r.errors), r.old_codes, changes, r.caused_by, r.error_causes);
}

}  // namespace

void bind_many(py::module_& m) {
  py::class_<ManyCheck>(m, "ManyCheck").def("next_chunk", &ManyCheck::next_chunk, py::arg("n"));
  m.def(
      "check_many",
      [](py::object records, py::object prepare, const std::string& kind, const std::string& name,
         const LoadedPolicy* policy, const LoadedRunners* runners, const LoadedOrg* org, const std::string& client,
         const std::string& placement, unsigned jobs) {
        CheckOptions options = options_of(client, placement);
        return ManyCheck(open_source(std::move(records), std::move(prepare), kind, name), policy, runners, org, options,
                         jobs);
      },
      py::arg("records"), py::arg("prepare"), py::arg("kind"), py::arg("name"), py::arg("policy").none(true),
      py::arg("runners").none(true), py::arg("org").none(true), py::arg("client") = "python",
      py::arg("placement") = "", py::arg("jobs") = 0);

  py::class_<DiffHolder>(m, "PolicyDiff")
      .def_property_readonly("ok", [](const DiffHolder& d) { return d.diff.ok(); })
      .def_property_readonly("old_file", [](const DiffHolder& d) { return d.diff.old_file; })
      .def_property_readonly("new_file", [](const DiffHolder& d) { return d.diff.new_file; })
      .def_property_readonly("old_readable", [](const DiffHolder& d) { return d.diff.old_readable; })
      .def_property_readonly("new_readable", [](const DiffHolder& d) { return d.diff.new_readable; })
      .def_property_readonly("old_errors", [](const DiffHolder& d) { return diagnostic_list(d.diff.old_errors); })
      .def_property_readonly("new_errors", [](const DiffHolder& d) { return diagnostic_list(d.diff.new_errors); })
      .def_property_readonly("replayed", [](const DiffHolder& d) { return d.diff.replayed; })
      .def_property_readonly("error", [](const DiffHolder& d) { return d.diff.error; })
      .def_property_readonly("counts",
                             [](const DiffHolder& d) {
                               py::dict out;
                               for (std::size_t i = 0; i < k_diff_classes; ++i) {
                                 out[text(to_string(static_cast<DiffClass>(i)))] = d.diff.summary.counts[i];
                               }
                               return out;
                             })
      .def_property_readonly("static_changes",
                             [](const DiffHolder& d) {
                               py::list out;
                               for (const auto& c : d.diff.static_changes) out.append(static_change_tuple(c));
                               return out;
                             })
      .def_property_readonly("records",
                             [](const DiffHolder& d) {
                               py::list out;
                               for (const auto& r : d.diff.records) out.append(record_tuple(r));
                               return out;
                             })
      .def("to_json", [](const DiffHolder& d) { return diff_to_json(d.diff); })
      .def("to_text", [](const DiffHolder& d) { return diff_to_text(d.diff); })
      .def("to_markdown", [](const DiffHolder& d) { return diff_to_markdown(d.diff); });
  m.def("diff_policies", &diff, py::arg("old"), py::arg("new"), py::arg("records").none(true), py::arg("prepare"),
        py::arg("kind"), py::arg("name"), py::arg("runners").none(true), py::arg("org").none(true),
        py::arg("client") = "python", py::arg("placement") = "", py::arg("examples") = 5, py::arg("jobs") = 0);
}

}  // namespace sandgate::python
