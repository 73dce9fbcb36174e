// Request streams (SPEC §10.1): many sandbox requests in one input, read one record at a time in
// bounded memory, each record becoming exactly one answer, in input order.
//
//   JSON Lines  one JSON value per line; blank lines are skipped; "-" is standard input
//   JSON list   a JSON array of records, streamed item by item (never loaded whole)
//   YAML list   a YAML sequence of records, loaded whole within the document limits
//
// A record is a sandbox (the keyword arguments of Sandbox.run) or
// {"id"?: string, "sandbox": {…}, "defaults"?: {…}, "overrides"?: {…}}. A record that is not valid
// JSON, breaks a limit of SPEC §1.2 or is not such an object is still a record: it carries one
// record-level diagnostic (`problem`) with its line, and the stream goes on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "sandgate/diagnostic.h"
#include "sandgate/document.h"
#include "sandgate/engine.h"
#include "sandgate/node.h"

namespace sandgate {

enum class StreamFormat { auto_detect, json_lines, json_list, yaml_list };

// How auto-detection chose: a .yaml/.yml name is a YAML list; otherwise a first non-blank byte `[`
// is a JSON list, and a source without a telling name — standard input, text handed over in
// memory (from_text), a pipe or a FIFO, a file not named .jsonl/.ndjson/.json — starting like a
// YAML block list (`- `, `---`, `#`) is a YAML list; everything else is JSON Lines. (A JSON file's
// name decides: a JSON Lines file named .jsonl whose first line is broken stays JSON Lines, one
// bad record.)
std::string_view to_string(StreamFormat f);

struct StreamOptions {
  StreamFormat format = StreamFormat::auto_detect;
  Limits limits;  // applied to every record (a YAML list: to the whole file)
  // What the stream is called when the path opened is not the user's (a binding opens /dev/fd/N or
  // a pipe it feeds): diagnostics name it, and auto-detection reads its extension. Empty: the path.
  std::string name;
};

// The diagnostics' label for record-level problems (`Diagnostic::input`).
inline constexpr std::string_view k_requests_input = "requests";

// A record as read, before it is parsed: cheap to read on one thread, parsed on any.
struct PendingRecord {
  std::size_t index = 0;  // 1-based position in the stream
  int line = 0;           // 1-based line where the record starts
  int column = 1;         // 1-based column where it starts (JSON list items)
  std::string text;       // its JSON text (JSON Lines, JSON list), or empty
  bool list_item = false;  // the text is an item of a JSON list, not a line (a syntax error's hint differs)
  std::optional<Node> tree;  // or the loaded value (YAML list items)
  Diagnostics tree_diagnostics;  // load diagnostics of `tree`, with paths relative to it
  std::optional<Diagnostic> problem;  // already known to be unreadable (too large, a broken list)
  std::size_t bytes = 0;  // the record's length in the input
  // Or the value as a binding wrote it flat (sandgate/node_tape.h), for the tree to be built, and
  // later freed, on the thread that checks it.
  std::string tape;
};

// A record ready to be checked.
struct RequestRecord {
  std::size_t index = 0;
  int line = 0;
  std::optional<std::string> id;
  Document sandbox;  // input "sandbox"
  std::optional<Document> defaults, overrides;
  std::optional<Diagnostic> problem;  // the one record-level diagnostic of an unreadable record
  bool readable() const { return !problem.has_value(); }
};

class RequestReader {
 public:
  // Opens `path` ("-" = standard input). Returns nullptr with `error` set when it cannot be opened.
  static std::unique_ptr<RequestReader> open(const std::string& path, const StreamOptions& options = {},
                                             std::string* error = nullptr);
  // Reads a stream held in memory (tests, bindings); `name` labels the diagnostics.
  static std::unique_ptr<RequestReader> from_text(std::string text, std::string name,
                                                  const StreamOptions& options = {});
  virtual ~RequestReader();

  // The next record in input order; false at the end of the stream or after an I/O error.
  // Memory stays bounded whatever the input: a line longer than the size limit is not kept.
  bool next(PendingRecord& out);

  const std::string& name() const { return name_; }  // as diagnostics name the file ("<stdin>" for -)
  StreamFormat format() const { return format_; }
  const Limits& limits() const { return limits_; }
  const std::string& error() const { return error_; }  // non-empty after an I/O error
  std::uint64_t bytes_read() const;  // for progress
  std::uint64_t size_hint() const;   // the input's size when known (a regular file), else 0

  struct Source;  // implementation detail: where the bytes come from

 protected:
  RequestReader(std::unique_ptr<Source> source, std::string name, const StreamOptions& options);
  virtual bool read_next(PendingRecord& out) = 0;
  std::unique_ptr<Source> source_;
  std::string name_;
  StreamFormat format_;
  Limits limits_;
  std::string error_;
  std::size_t count_ = 0;
};

// Parses a pending record (any thread): its text with the document loader, as JSON, within the
// limits; then the record shape. Diagnostics keep the stream's file name and true line:column.
RequestRecord prepare_record(PendingRecord pending, const std::string& stream_name, const Limits& limits = {});

// Builds a record from a value a binding or a YAML list holds (no text to parse). `diagnostics`
// are load diagnostics with paths relative to `root`.
RequestRecord record_from_node(Node root, std::size_t index, int line, const std::string& stream_name,
                               Diagnostics diagnostics = {});

// Checks records on `jobs` threads (0 = every core) and hands each record with its result to
// `deliver` in input order, on the calling thread; `deliver` returning false stops early (and so
// does `next` returning false). An unreadable record is delivered with a result that holds only its
// problem; a readable one's layers have been handed to the compiled request (Result::request()),
// so the record delivered keeps its index, line and id. What Python's check_many and Node's
// checkMany are to wrap: `next` runs on the calling thread too, so a binding can turn its native
// values into records there (record_from_node).
// Returns false when `deliver` stopped it.
bool check_records(const std::function<bool(PendingRecord&)>& next, const std::string& stream_name, const Limits& limits,
                   const Engine& engine, const CheckOptions& options, unsigned jobs,
                   const std::function<bool(RequestRecord&&, Result&&)>& deliver);

// check_records as an object, for a binding that checks a stream a part at a time (Python's
// check_many asks for a chunk per call): the worker threads live as long as the checker, and each
// result is handed over as a pointer (a Result is about 2 KB) with the index of the worker that made
// it, so the binding can give it back to that worker to free: `chore(w)` runs on worker `w` before
// each record it checks. Freed on the thread that allocated it, a result costs the allocator no
// lock; freed on another, two threads contend for one allocator arena (glibc), which made
// check_many slower on 2 threads than on 1. With one job, worker 0 is the calling thread.
class RecordChecker {
 public:
  using Deliver = std::function<bool(RequestRecord&&, std::unique_ptr<Result>, unsigned worker)>;
  RecordChecker(const Engine& engine, const CheckOptions& options, unsigned jobs, std::string stream_name,
                const Limits& limits, std::function<void(unsigned worker)> chore = {});
  ~RecordChecker();
  RecordChecker(const RecordChecker&) = delete;
  RecordChecker& operator=(const RecordChecker&) = delete;

  unsigned jobs() const;  // worker threads (1: none, the calling thread checks)
  // Checks the records `next` gives until it returns false, delivering each in input order on the
  // calling thread; returns false when `deliver` stopped it. A checker runs again afterwards.
  bool run(const std::function<bool(PendingRecord&)>& next, const Deliver& deliver);
  // The same a part at a time: delivers up to `n` more results of the stream `next` gives, and
  // returns with the records read ahead still being checked, so the workers go on while the caller
  // handles what it was given. `next` must give the same stream from call to call. Returns how many
  // were delivered: fewer than `n` only at the end of the stream. Not to be mixed with run().
  std::size_t take(const std::function<bool(PendingRecord&)>& next, const Deliver& deliver, std::size_t n);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sandgate
