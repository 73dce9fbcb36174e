// sandgate check --requests STREAM (SPEC §10.2): every record of a request stream checked on
// --jobs threads, one answer per record in input order (JSON Lines, or text listing the rejected
// records), then a summary: counts of accepted and rejected records and of each error code.
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <thread>

#include "cli.h"
#include "path_hint.h"
#include "output.h"
#include "sandgate/stream.h"
#include "stream/json_out.h"
#include "stream/ordered_pool.h"
#include "stream/result_view.h"

namespace sandgate::cli {
namespace {

struct Checked {
  std::string out;  // the JSON line, or the text line of a rejected record
  bool ok = false;
  bool unreadable = false;
  std::vector<Code> codes;  // distinct error codes
};

std::string json_line(const RequestRecord& rec, const stream::ResultView& v) {
  rapidjson::StringBuffer buf;
  JsonWriter<rapidjson::StringBuffer> w(buf);
  w.StartObject();
  w.Key("record");
  w.Int(rec.line);
  w.Key("index");
  w.Uint64(rec.index);
  w.Key("id");
  if (rec.id) {
    write_string(w, *rec.id);
  } else {
    w.Null();
  }
  w.Key("ok");
  w.Bool(v.ok);
  w.Key("placement_mode");
  write_string_or_null(w, v.placement_mode);
  w.Key("qos_class");
  write_string_or_null(w, v.qos_class);
  w.Key("runner");
  write_string_or_null(w, v.runner);
  w.Key("errors");
  w.StartArray();
  for (const auto& e : v.errors) stream::put_error(w, e);
  w.EndArray();
  w.Key("warnings");
  w.Uint64(v.warnings);
  w.EndObject();
  std::string s;
  s.reserve(buf.GetSize() + 1);  // the newline too: no second block
  s.append(buf.GetString(), buf.GetSize());
  s += '\n';
  return s;
}

std::string text_line(const RequestRecord& rec, const stream::ResultView& v, const std::string& stream_name, bool color) {
  const Diagnostic* first = v.errors.empty() ? nullptr : &v.errors.front();
  std::string where;
  if (first && first->source) {
    where = first->source->file + ":" + std::to_string(first->source->line) + ":" + std::to_string(first->source->column);
  } else {
    where = stream_name + ":" + std::to_string(rec.line);
  }
  std::string s = where + ": record " + std::to_string(rec.line);
  if (rec.id) s += " (id \"" + *rec.id + "\")";
  s += ": ";
  if (first) {
    std::string tag = "error[" + std::string(first->name()) + "]";
    s += color ? "\x1b[1;31m" + tag + "\x1b[0m" : tag;
    s += " " + first->input + ":" + (first->path.empty() ? "/" : first->path) + ": " + first->message;
    if (v.errors.size() > 1) s += " (+" + std::to_string(v.errors.size() - 1) + " more)";
  } else {
    s += "rejected";
  }
  return s + "\n";
}

}  // namespace

int run_batch_check(const BatchCheck& b, const GlobalOptions& g) {
  bool text = b.format_given && g.format == "text";
  if (b.format_given && g.format == "sarif") {
    std::cerr << "sandgate check: --requests writes JSON Lines (the default, or --format json) or --format text, not SARIF\n";
    return k_usage;
  }
  StreamOptions so;
  so.limits = g.limits;
  std::string error;
  std::unique_ptr<RequestReader> reader = RequestReader::open(b.requests, so, &error);
  if (!reader) {
    std::cerr << "sandgate: " << with_path_meant(error, b.requests) << "\n";
    return k_usage;
  }
  bool color = text && (g.color == "always" ||
                        (g.color == "auto" && isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr));
  Engine engine(b.policy, b.runners, b.org);
  const std::string name = reader->name();
  const Limits limits = reader->limits();

  auto work = [&](PendingRecord&& p) {
    RequestRecord rec = prepare_record(std::move(p), name, limits);
    Checked c;
    stream::ResultView v;
    if (!rec.readable()) {
      c.unreadable = true;
      v.errors.push_back(*rec.problem);
    } else if (b.setup_fatal) {
      v.errors = b.setup_errors;
    } else {
      v = stream::view_of(engine.check(stream::compile_record(std::move(rec), b.options)), stream::ViewDetail::summary);
    }
    c.ok = v.ok && v.errors.empty();
    v.ok = c.ok;
    for (const auto& e : v.errors) {
      if (std::find(c.codes.begin(), c.codes.end(), e.code) == c.codes.end()) c.codes.push_back(e.code);
    }
    if (!text) {
      c.out = json_line(rec, v);
    } else if (!c.ok) {
      c.out = text_line(rec, v, name, color);
    }
    return c;
  };

  Stdout out;
  Progress progress(true);
  std::uint64_t records = 0, accepted = 0, unreadable = 0;
  std::map<Code, std::uint64_t> per_code;
  auto deliver = [&](Checked&& c) {
    ++records;
    if (c.ok) ++accepted;
    if (c.unreadable) ++unreadable;
    for (Code code : c.codes) ++per_code[code];
    if (!c.out.empty() && !out.write(c.out)) return false;
    progress.update(records, reader->bytes_read(), reader->size_hint());
    return true;
  };
  stream::PoolOptions pool;
  pool.jobs = b.jobs ? b.jobs : std::max(1u, std::thread::hardware_concurrency());
  bool completed = stream::run_ordered<PendingRecord, Checked>(
      pool, [&](PendingRecord& p) { return reader->next(p); }, [](const PendingRecord& p) { return p.text.size() + 256; },
      work, deliver);
  progress.clear();

  // The summary: on stdout after the text answers, on stderr after JSON Lines.
  std::string summary = grouped(records) + " record(s): " + grouped(accepted) + " accepted, " +
                        grouped(records - accepted) + " rejected";
  if (unreadable) summary += " (" + grouped(unreadable) + " unreadable)";
  summary += "\n";
  std::vector<std::pair<Code, std::uint64_t>> codes(per_code.begin(), per_code.end());
  std::stable_sort(codes.begin(), codes.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  std::size_t width = 0, count_width = 0;
  for (const auto& [code, n] : codes) {
    width = std::max(width, code_info(code).name.size());
    count_width = std::max(count_width, grouped(n).size());
  }
  for (const auto& [code, n] : codes) {
    std::string name_col(code_info(code).name), count = grouped(n);
    name_col.resize(width, ' ');
    summary += "  " + name_col + "  " + std::string(count_width - count.size(), ' ') + count + "\n";
  }
  if (records == 0) summary += "  (the stream holds no records)\n";
  if (text) {
    if (records > accepted) out.write("\n");
    out.write(summary);
  } else if (out.flush()) {
    std::cerr << summary;
  }
  if (!reader->error().empty()) {
    std::cerr << "sandgate: " << reader->error() << " (stopped after " << records << " record(s))\n";
    return k_usage;
  }
  if (!completed || !out.ok()) return k_usage;  // main() reports the failed write
  return accepted == records ? k_ok : k_invalid;
}

}  // namespace sandgate::cli
