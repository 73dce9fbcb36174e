// Reading request streams (SPEC §10.1) one record at a time, in bounded memory: a fixed read
// buffer, and at most the size limit (+1 byte) of any one record. A longer line is counted and
// skipped, never kept, so a 10 MB line or an endless /dev/zero cannot grow memory.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>

#include "sandgate/stream.h"

namespace sandgate {

// Where the bytes come from: a file descriptor read in fixed chunks, or a text held in memory.
struct RequestReader::Source {
  static constexpr std::size_t k_chunk = 1 << 18;
  int fd = -1;
  bool own_fd = false;
  std::string data;   // the chunk being read (or the whole text for a memory source)
  std::size_t begin = 0;
  bool eof = false;
  std::string error;  // why reading stopped early
  std::string path;
  std::uint64_t read_total = 0;
  std::uint64_t size = 0;  // of a regular file, else 0

  ~Source() {
    if (own_fd) ::close(fd);
  }
  // Whether an unread byte is available (reading a chunk when needed).
  bool more() {
    if (begin < data.size()) return true;
    if (eof || fd < 0) return false;
    data.resize(k_chunk);
    for (;;) {
      ssize_t n = ::read(fd, data.data(), k_chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error = "cannot read " + path + ": " + std::strerror(errno);
        eof = true;
        data.clear();
        begin = 0;
        return false;
      }
      data.resize(static_cast<std::size_t>(n));
      begin = 0;
      read_total += static_cast<std::uint64_t>(n);
      if (n == 0) eof = true;
      return n > 0;
    }
  }
  const char* here() const { return data.data() + begin; }
  std::size_t available() const { return data.size() - begin; }
  int peek() { return more() ? static_cast<unsigned char>(data[begin]) : -1; }
};

namespace {

std::string size_text(std::size_t bytes) {
  if (bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

Diagnostic stream_problem(Code code, const std::string& file, int line, int column, std::string message,
                          std::string hint) {
  Diagnostic d;
  d.code = code;
  d.severity = Severity::error;
  d.source = SourceLocation{file, line, column};
  d.input = std::string(k_requests_input);
  d.message = std::move(message);
  d.hint = std::move(hint);
  return d;
}

Diagnostic too_large(const std::string& file, int line, int column, std::size_t bytes, const Limits& limits) {
  return stream_problem(Code::DOC_TOO_LARGE, file, line, column,
                        "the record is larger than the limit of " + size_text(limits.max_bytes) + " (" +
                            std::to_string(bytes) + " bytes)",
                        "split it, or raise the size limit (--max-bytes)");
}

bool is_layout(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool is_blank(std::string_view s) {
  return s.find_first_not_of(" \t\r") == std::string_view::npos;
}

void reset(PendingRecord& out) {
  out.text.clear();
  out.tree.reset();
  out.tree_diagnostics.clear();
  out.problem.reset();
  out.column = 1;
  out.bytes = 0;
  out.list_item = false;
}

// One JSON value per line; blank lines skipped; a last line without a newline is a record too.
class JsonLinesReader final : public RequestReader {
 public:
  JsonLinesReader(std::unique_ptr<Source> s, std::string name, const StreamOptions& o) : RequestReader(std::move(s), std::move(name), o) {}

 protected:
  bool read_next(PendingRecord& out) override {
    Source& s = *source_;
    const std::size_t keep = limits_.max_bytes;
    // The most of one line ever held: one byte over the limit, for the \r of a CRLF line ending,
    // which is not part of the record (a Windows file takes the same records as a Unix one).
    const std::size_t hold = keep + 1;
    for (;;) {
      reset(out);
      std::string& text = out.text;
      std::size_t total = 0;
      bool any = false, ends_cr = false;
      int start = line_;
      while (s.more()) {
        any = true;
        const char* b = s.here();
        std::size_t avail = s.available();
        const void* nl = std::memchr(b, '\n', avail);
        std::size_t n = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - b) : avail;
        if (total + n <= hold) {
          text.append(b, n);
        } else if (total < hold) {
          text.clear();  // too long: stop holding it, only count
          text.shrink_to_fit();
        }
        if (n > 0) ends_cr = b[n - 1] == '\r';
        total += n;
        s.begin += n + (nl ? 1 : 0);
        if (nl) {
          ++line_;
          break;
        }
      }
      if (!s.error.empty()) {
        error_ = s.error;
        return false;
      }
      if (!any) return false;
      if (ends_cr) {  // also for a line too long to hold, so its size is counted as an LF line's
        if (total <= hold) text.pop_back();
        --total;
      }
      if (total <= keep && is_blank(text)) continue;
      out.index = ++count_;
      out.line = start;
      out.bytes = total;
      if (total > keep) {
        // A line of 4 MiB + 1 byte and a line of 10 GB get the same answer, and neither is kept.
        text.clear();
        text.shrink_to_fit();
        out.problem = too_large(name_, start, 1, total, limits_);
      }
      return true;
    }
  }

 private:
  int line_ = 1;
};

// A JSON array of records, split into items by a scanner that follows strings and nesting only,
// so each item's text goes to the JSON loader on its own and the array is never held whole.
class JsonListReader final : public RequestReader {
 public:
  JsonListReader(std::unique_ptr<Source> s, std::string name, const StreamOptions& o) : RequestReader(std::move(s), std::move(name), o) {}

 protected:
  bool read_next(PendingRecord& out) override {
    Source& s = *source_;
    reset(out);
    if (state_ == State::start) {
      // Read the first chunk before looking for a byte order mark: with the format given, nothing
      // has been read yet (detection reads it otherwise).
      s.more();
      if (s.available() >= 3 && std::memcmp(s.here(), "\xEF\xBB\xBF", 3) == 0) s.begin += 3;
      skip_space();
      if (!s.error.empty()) return io_error();
      if (s.peek() != '[') return stop(out, "a JSON list of records must start with [");
      advance();
      skip_space();
      if (s.peek() == ']') {
        advance();
        state_ = State::closed;
      } else {
        state_ = State::item;
      }
    }
    if (state_ == State::after_item) {
      skip_space();
      int c = s.peek();
      if (c == ',') {
        advance();
        skip_space();
        if (s.peek() == ']') return stop(out, "a list item is missing after the last ,");
        state_ = State::item;
      } else if (c == ']') {
        advance();
        state_ = State::closed;
      } else if (c < 0) {
        if (!s.error.empty()) return io_error();
        return stop(out, "the list of records is not closed with ]");
      } else {
        return stop(out, "expected , or ] after a list item");
      }
    }
    if (state_ == State::closed) {
      skip_space();
      if (!s.error.empty()) return io_error();
      if (s.peek() < 0) {
        state_ = State::done;
        return false;
      }
      return stop(out, "text after the end of the list of records");
    }
    if (state_ == State::done) return false;
    // state_ == item
    skip_space();
    if (s.peek() < 0) {
      if (!s.error.empty()) return io_error();
      return stop(out, "the list of records is not closed with ]");
    }
    const std::size_t keep = limits_.max_bytes;
    int start_line = line_, start_column = column_;
    // An item's size is its bytes up to its last one that is not layout (white space outside a
    // string): the white space between items is the list's, as it is before an item, so the last
    // item of a pretty-printed list is not one newline larger than the others. What is held is
    // trimmed after the scan; past what is held, the run of layout bytes at the end is counted.
    std::size_t total = 0, layout_past_held = 0;
    int depth = 0;
    bool in_string = false, escape = false;
    for (int c = s.peek(); c >= 0; c = s.peek()) {
      const bool was_in_string = in_string;
      if (in_string) {
        if (escape) {
          escape = false;
        } else if (c == '\\') {
          escape = true;
        } else if (c == '"') {
          in_string = false;
        }
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (depth == 0) break;
        --depth;
      } else if (c == ',' && depth == 0) {
        break;
      }
      if (total < keep + 1) {
        out.text.push_back(static_cast<char>(c));
      } else {
        layout_past_held = !was_in_string && is_layout(c) ? layout_past_held + 1 : 0;
      }
      ++total;
      advance();
    }
    if (!s.error.empty()) return io_error();
    // The run of layout at the end lies outside any string (a closing quote would end it), unless
    // the input ended inside a string: then nothing is layout.
    std::size_t size = total;
    if (!in_string) {
      if (layout_past_held == total - out.text.size()) {  // all past what is held, if anything, is layout
        std::size_t held = out.text.size();
        while (held > 0 && is_layout(out.text[held - 1])) --held;
        out.text.resize(held);
        size = held;
      } else {
        size -= layout_past_held;
      }
    }
    state_ = State::after_item;
    out.list_item = true;
    out.index = ++count_;
    out.line = start_line;
    out.column = start_column;
    out.bytes = size;
    if (size > keep) {
      out.text.clear();
      out.text.shrink_to_fit();
      out.problem = too_large(name_, start_line, start_column, size, limits_);
    }
    return true;
  }

 private:
  enum class State { start, item, after_item, closed, done };
  State state_ = State::start;
  int line_ = 1, column_ = 1;

  void advance() {
    Source& s = *source_;
    char c = s.data[s.begin++];
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++column_;
    }
  }
  void skip_space() {
    for (int c = source_->peek(); is_layout(c); c = source_->peek()) advance();
  }
  bool io_error() {
    error_ = source_->error;
    state_ = State::done;
    return false;
  }
  // The list is broken here: one record-level diagnostic, and the rest of the input is not read
  // as records (where the next one would start is unknown).
  bool stop(PendingRecord& out, std::string message) {
    reset(out);
    out.index = ++count_;
    out.line = line_;
    out.column = column_;
    out.problem = stream_problem(Code::SYNTAX, name_, line_, column_, std::move(message),
                                 "write the records as JSON Lines (one object per line) or as one JSON list");
    state_ = State::done;
    return true;
  }
};

// A YAML sequence of records: read whole (within the document limits), then handed out item by
// item. Streams of any length are JSON Lines; a YAML list is for a handful of hand-written records.
class YamlListReader final : public RequestReader {
 public:
  YamlListReader(std::unique_ptr<Source> s, std::string name, const StreamOptions& o) : RequestReader(std::move(s), std::move(name), o) {}

 protected:
  bool read_next(PendingRecord& out) override {
    if (!loaded_) {
      loaded_ = true;
      if (!load()) return false;
    }
    if (queue_.empty()) return false;
    out = std::move(queue_.front());
    queue_.pop_front();
    return true;
  }

 private:
  bool loaded_ = false;
  std::deque<PendingRecord> queue_;

  bool load() {
    Source& s = *source_;
    std::string text;
    const std::size_t cap = limits_.max_bytes + 1;
    while (text.size() < cap && s.more()) {
      std::size_t n = std::min(s.available(), cap - text.size());
      text.append(s.here(), n);
      s.begin += n;
    }
    if (!s.error.empty()) {
      error_ = s.error;
      return false;
    }
    Document doc = load_document(text, Format::yaml, name_, std::string(k_requests_input), limits_);
    auto one_problem = [&](Diagnostic d) {
      PendingRecord p;
      p.index = ++count_;
      p.line = d.source ? d.source->line : 1;
      p.column = d.source ? d.source->column : 1;
      if (d.code == Code::DOC_TOO_LARGE) d.hint = "write streams of any length as JSON Lines (one record per line)";
      p.problem = std::move(d);
      queue_.push_back(std::move(p));
    };
    if (!doc.loaded) {
      // An empty file is an empty stream, as an empty JSON Lines file is.
      if (doc.diagnostics.size() == 1 && doc.diagnostics[0].code == Code::EMPTY_DOCUMENT) return true;
      for (auto& d : doc.diagnostics) {
        if (d.severity == Severity::error) {
          one_problem(std::move(d));
          return true;
        }
      }
      one_problem(stream_problem(Code::SYNTAX, name_, 1, 1, "the list of records could not be read", ""));
      return true;
    }
    if (!doc.root.is_array()) {
      one_problem(stream_problem(Code::TYPE_MISMATCH, name_, doc.root.mark.known() ? doc.root.mark.line : 1,
                                 doc.root.mark.known() ? doc.root.mark.column : 1,
                                 "a YAML requests file must hold a list of records, not " +
                                     std::string(doc.root.kind_name()),
                                 "write `- {sandbox…}` items, or JSON Lines"));
      return true;
    }
    std::vector<Diagnostics> per_item(doc.root.items.size());
    for (auto& d : doc.diagnostics) {
      std::vector<std::string> tokens;
      std::size_t i = 0;
      if (pointer_split(d.path, tokens) && !tokens.empty() && !tokens[0].empty() &&
          tokens[0].find_first_not_of("0123456789") == std::string::npos && (i = std::stoul(tokens[0])) < per_item.size()) {
        d.path.erase(0, 1 + tokens[0].size());
        per_item[i].push_back(std::move(d));
      }
    }
    for (std::size_t i = 0; i < doc.root.items.size(); ++i) {
      PendingRecord p;
      p.index = ++count_;
      Node& item = doc.root.items[i];
      p.line = item.mark.known() ? item.mark.line : 1;
      p.column = item.mark.known() ? item.mark.column : 1;
      p.tree = std::move(item);
      p.tree_diagnostics = std::move(per_item[i]);
      queue_.push_back(std::move(p));
    }
    return true;
  }
};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Auto-detection on the first chunk (see stream.h).
// `nameless`: standard input, text handed over in memory, a pipe or a FIFO — a source whose name
// cannot say what it holds, so its first bytes may show a YAML block list. So may a file whose
// name says neither JSON nor YAML (requests.txt): JSON Lines cannot start with `- `, `---` or `#`.
StreamFormat detect(RequestReader::Source& s, const std::string& path, bool nameless) {
  const bool says_json = ends_with(path, ".jsonl") || ends_with(path, ".ndjson") || ends_with(path, ".json");
  if (ends_with(path, ".yaml") || ends_with(path, ".yml")) return StreamFormat::yaml_list;
  if (!s.more()) return StreamFormat::json_lines;
  std::string_view head(s.here(), s.available());
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
  std::size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return StreamFormat::json_lines;
  if (head[first] == '[') return StreamFormat::json_list;
  if (nameless || !says_json) {
    std::string_view rest = head.substr(first);
    if (rest.substr(0, 2) == "- " || rest.substr(0, 2) == "-\n" || rest.substr(0, 3) == "---" || rest[0] == '#') {
      return StreamFormat::yaml_list;
    }
  }
  return StreamFormat::json_lines;
}

std::unique_ptr<RequestReader> make_reader(StreamFormat f, std::unique_ptr<RequestReader::Source> s, std::string name,
                                           const StreamOptions& options) {
  StreamOptions o = options;
  o.format = f;
  switch (f) {
    case StreamFormat::json_list: return std::unique_ptr<RequestReader>(new JsonListReader(std::move(s), std::move(name), o));
    case StreamFormat::yaml_list: return std::unique_ptr<RequestReader>(new YamlListReader(std::move(s), std::move(name), o));
    default: return std::unique_ptr<RequestReader>(new JsonLinesReader(std::move(s), std::move(name), o));
  }
}

}  // namespace

std::string_view to_string(StreamFormat f) {
  switch (f) {
    case StreamFormat::auto_detect: return "auto";
    case StreamFormat::json_lines: return "JSON Lines";
    case StreamFormat::json_list: return "JSON list";
    case StreamFormat::yaml_list: return "YAML list";
  }
  return "?";
}

RequestReader::RequestReader(std::unique_ptr<Source> source, std::string name, const StreamOptions& options)
    : source_(std::move(source)), name_(std::move(name)), format_(options.format), limits_(options.limits) {}

RequestReader::~RequestReader() = default;

bool RequestReader::next(PendingRecord& out) { return error_.empty() && read_next(out); }

std::uint64_t RequestReader::bytes_read() const {
  return source_->fd < 0 ? source_->begin : source_->read_total - source_->available();
}
std::uint64_t RequestReader::size_hint() const { return source_->fd < 0 ? source_->data.size() : source_->size; }

std::unique_ptr<RequestReader> RequestReader::open(const std::string& path, const StreamOptions& options,
                                                   std::string* error) {
  auto s = std::make_unique<Source>();
  bool is_stdin = path == "-";
  const std::string& given = options.name.empty() ? path : options.name;
  s->path = is_stdin ? "standard input" : given;
  bool nameless = is_stdin;
  if (is_stdin) {
    s->fd = STDIN_FILENO;
  } else {
    s->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (s->fd < 0) {
      if (error) *error = "cannot read " + given + ": " + std::strerror(errno);
      return nullptr;
    }
    s->own_fd = true;
  }
  struct stat st;
  if (::fstat(s->fd, &st) == 0) {
    if (!is_stdin && S_ISDIR(st.st_mode)) {
      if (error) *error = "cannot read " + given + ": it is a directory";
      return nullptr;
    }
    // The size left to read, for the progress bar; also of standard input redirected from a file
    // (`--requests - < big.jsonl`), which may have been read part way already.
    if (S_ISREG(st.st_mode)) {
      off_t at = std::max<off_t>(::lseek(s->fd, 0, SEEK_CUR), 0);
      s->size = at < st.st_size ? static_cast<std::uint64_t>(st.st_size - at) : 0;
    }
    if (!is_stdin) nameless = !S_ISREG(st.st_mode);
  }
  std::string name = is_stdin ? "<stdin>" : given;
  StreamFormat f = options.format == StreamFormat::auto_detect ? detect(*s, given, nameless) : options.format;
  if (!s->error.empty()) {
    if (error) *error = s->error;
    return nullptr;
  }
  return make_reader(f, std::move(s), std::move(name), options);
}

std::unique_ptr<RequestReader> RequestReader::from_text(std::string text, std::string name, const StreamOptions& options) {
  auto s = std::make_unique<Source>();
  s->data = std::move(text);
  s->eof = true;
  s->path = name;
  StreamFormat f = options.format == StreamFormat::auto_detect ? detect(*s, name, true) : options.format;
  return make_reader(f, std::move(s), std::move(name), options);
}

}  // namespace sandgate
