// diffPolicies (SPEC §10.3): a thin layer over the core's start_diff / PolicyDiffer / replay. JS
// values are read on the main thread (V8 values may not be touched anywhere else); the diff and its
// renderings run on a thread of their own (DiffJob), the replay itself on the core's ordered pool.
#include "diff_policies.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <deque>
#include <optional>
#include <system_error>
#include <thread>

#include "inputs.h"
#include "js_to_node.h"
#include "records_feed.h"
#include "sandgate/diff.h"
#include "sandgate/stream.h"

namespace sandgate_node {
namespace {

// `label`: the name of a policy given as text (`<old>`, `<new>`), so that the two sides of a diff
// of two texts can be told apart (a file keeps its name; a value has none).
sandgate::PolicyLoad policy_load(Napi::Env env, Napi::Value v, const char* label) {
  std::shared_ptr<PolicyInput> in = unwrap_policy(v);
  if (!in) in = load_policy(env, v, v.IsString() || v.IsTypedArray() || v.IsArrayBuffer() ? label : "", false);
  return sandgate::PolicyLoad{in->value, in->diagnostics};
}

// Why a records-array item gives no record to check, as the converter said it: the diagnostic
// check() gives that value (SG_VALUE_READ_FAILED with what reading it threw, SG_VALUE_UNSUPPORTED
// naming a Date, the limit a walk stopped at), made the record's one problem, as prepare_record
// makes the first error of a record text that does not load. Otherwise the core would read the
// null the converter leaves in the item's place ("must be an object …, not null"), or a record
// without the `sandbox` or `defaults` the converter left out (`{sandbox: x}` read as an empty
// sandbox, `{sandbox, defaults: x}` without its defaults). Python's records do the same
// (bind_many.cpp, unreadable_object).
std::optional<sandgate::Diagnostic> unreadable(const Converted& c) {
  // Not loaded, as check() does not check an input whose conversion is not usable (load_layer):
  // the diagnostic that ended the walk is the last one.
  if (!c.usable) {
    for (auto d = c.diagnostics.rbegin(); d != c.diagnostics.rend(); ++d) {
      if (d->severity == sandgate::Severity::error) return *d;
    }
  }
  const bool has_layers = c.root.is_object() && c.root.find("sandbox");
  for (const auto& d : c.diagnostics) {
    if (d.severity != sandgate::Severity::error) continue;
    if (d.path.empty()) {
      if (c.root.is_null()) return d;  // the item itself was left out
      continue;
    }
    const bool layer = d.path == "/sandbox" || (has_layers && (d.path == "/defaults" || d.path == "/overrides"));
    if (layer && c.root.is_object() && !c.root.find(std::string_view(d.path).substr(1))) return d;
  }
  return std::nullopt;
}

// One diffPolicies call: its inputs, read on the main thread, and the diff, run off it. A diff that
// reads a records file that may never end (a FIFO, a device: read through a RecordsFeed) runs on a
// thread of its own, settled on the main thread through a thread-safe function
// (start_on_own_thread); any other is libuv work (DiffWork, below), which costs less (a diff of
// two small policies: 61 µs a call against 169 µs). Not libuv work for an endless file: a worker
// thread's teardown (worker.terminate()) waits for its libuv work to end before it runs any cleanup
// hook, so work blocked reading a FIFO without a writer would hang the terminate and the process
// with it. A thread of our own is not waited for there; the cleanup hook below stops its read and
// joins it. The other diffs, a regular file's too, end by themselves.
class DiffJob {
 public:
  explicit DiffJob(Napi::Env env) : deferred_(Napi::Promise::Deferred::New(env)) {}
  ~DiffJob() { join(); }
  DiffJob(const DiffJob&) = delete;
  DiffJob& operator=(const DiffJob&) = delete;

  Napi::Promise promise() const { return deferred_.Promise(); }

  sandgate::PolicyLoad old_policy, new_policy;
  std::shared_ptr<const sandgate::Runners> runners;
  std::shared_ptr<const sandgate::Org> org;
  sandgate::DiffOptions options;
  bool has_records = false;
  std::unique_ptr<sandgate::RequestReader> reader;  // records given as stream text
  std::string records_path;                          // or as a file, opened and read on the job's thread
  std::shared_ptr<RecordsFeed> feed;                 // for a file that may never end (records_feed.h)
  std::deque<sandgate::PendingRecord> items;        // or as an array, converted on the main thread
  // A string's unpaired surrogate (js_text): for the stream text, whether it had one; for the
  // array, each string item's first one by its 1-based position.
  bool stream_lone = false;
  std::vector<std::pair<std::size_t, char16_t>> lone_items;

  // Starts the diff of an endless records file on its own thread. The thread-safe function holds
  // the job until it is finalized (after it settled the promise, or at the environment's
  // teardown). Throws when no thread could be started.
  static void start_on_own_thread(Napi::Env env, const std::shared_ptr<DiffJob>& job) {
    auto* held = new std::shared_ptr<DiffJob>(job);
    napi_status status = napi_create_threadsafe_function(env, nullptr, nullptr, Napi::String::New(env, "sandgate.diffPolicies"),
                                                         0, 1, held, finalize, job.get(), settle_from_thread, &job->done_);
    if (status != napi_ok) {
      delete held;
      throw Napi::Error::New(env, "diffPolicies: cannot start the diff (no thread-safe function)");
    }
    // After the thread-safe function's own cleanup hook, so run before it (hooks run last-in,
    // first-out): the diff is stopped and joined before the function is finalized.
    napi_add_env_cleanup_hook(env, on_teardown, job.get());
    job->hooked_ = true;
    try {
      job->thread_ = std::thread([j = job.get()] {
        j->run_catching();
        napi_call_threadsafe_function(j->done_, nullptr, napi_tsfn_nonblocking);
        napi_release_threadsafe_function(j->done_, napi_tsfn_release);
      });
    } catch (const std::system_error& e) {
      napi_release_threadsafe_function(job->done_, napi_tsfn_release);  // finalized: the job is let go
      throw Napi::Error::New(env, std::string("diffPolicies: cannot start a thread: ") + e.what());
    }
  }

  // Ends the read of a records file where it is, as if the file ended there, and waits for the
  // diff to finish: at the environment's teardown (the cleanup hook), and at process exit (index.js
  // calls it on 'exit', where no cleanup hook runs and the process would end under a running diff).
  static void stop_and_join(void* job) {
    auto* j = static_cast<DiffJob*>(job);
    if (j->feed) j->feed->stop();
    j->join();
  }

 private:
  void join() {
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  }

  // On the main thread once the diff is done; env is null when the environment is being torn down.
  static void settle_from_thread(napi_env env, napi_value, void* job, void*) {
    auto* j = static_cast<DiffJob*>(job);
    if (env == nullptr) return;
    j->unhook(env);
    j->join();
    try {
      Napi::HandleScope scope(env);
      j->settle(Napi::Env(env));
    } catch (const Napi::Error&) {
      // The environment is ending (no JavaScript may run): no one waits for the answer.
    }
  }

  static void finalize(napi_env env, void* held, void*) {
    auto* h = static_cast<std::shared_ptr<DiffJob>*>(held);
    if (env != nullptr) (*h)->unhook(env);
    stop_and_join(h->get());
    delete h;
  }

  // The cleanup hook: Node drops a hook once it has run, so finalize must not remove it again.
  static void on_teardown(void* job) {
    static_cast<DiffJob*>(job)->hooked_ = false;
    stop_and_join(job);
  }

  void unhook(napi_env env) {
    if (hooked_) napi_remove_env_cleanup_hook(env, on_teardown, this);
    hooked_ = false;
  }

 public:
  // The diff, off the main thread; what it throws (std::bad_alloc) rejects the promise.
  void run_catching() {
    try {
      run();
    } catch (const std::exception& e) {
      error_ = std::string("diffPolicies: ") + e.what();
    }
  }

  // On the main thread, once run_catching() has returned.
  void settle(Napi::Env env) {
    if (!error_.empty()) {
      deferred_.Reject(Napi::Error::New(env, error_).Value());
      return;
    }
    Napi::Object o = Napi::Object::New(env);
    o.Set("json", Napi::String::New(env, json_));
    o.Set("markdown", Napi::String::New(env, markdown_));
    o.Set("text", Napi::String::New(env, text_));
    deferred_.Resolve(o);
  }

 private:
  void run() {
    if (!records_path.empty() && !open_records()) return;
    sandgate::PolicyDiff d = sandgate::start_diff(old_policy, new_policy, options.examples);
    if (has_records && d.old_readable && d.new_readable) {
      sandgate::PolicyDiffer differ(old_policy.policy, new_policy.policy, runners, org, options.check);
      if (reader) {
        sandgate::replay(d, differ, *reader, options);
      } else {
        sandgate::replay(
            d, differ,
            [&](sandgate::PendingRecord& p) {
              if (items.empty()) return false;
              p = std::move(items.front());
              items.pop_front();
              return true;
            },
            k_records_name, sandgate::Limits{}, options);
      }
    }
    if (feed) {
      // The copy ends with the replay (or was stopped); a failed read of the file is reported as
      // the core's reader reports one of its own.
      if (int e = feed->end(); e != 0 && d.error.empty()) d.error = "cannot read " + records_name_ + ": " + std::strerror(e);
    }
    if (stream_lone || !lone_items.empty()) {
      for (auto& r : d.records) {
        char16_t lone = stream_lone ? k_some_surrogate : 0;
        for (const auto& [index, unit] : lone_items) lone = index == r.index ? unit : lone;
        name_lone_surrogate(r.errors, lone);
      }
    }
    json_ = sandgate::diff_to_json(d);
    markdown_ = sandgate::diff_to_markdown(d);
    text_ = sandgate::diff_to_text(d);
  }

  // Opens the records file for the core's reader, which reads it as the CLI reads --requests FILE:
  // record by record on this thread, in bounded memory whatever the file (a stream may be longer
  // than the document size limit, and a device or FIFO has no end). A regular file (and what cannot
  // be opened: the core's message says why) is the core's to open; any other goes through the feed,
  // so that worker.terminate() and process exit can stop its read (a file that became a FIFO since
  // diff_policies looked has no feed and is the core's too). "-" would be standard input.
  bool open_records() {
    records_name_ = records_path == "-" ? "./-" : records_path;
    std::string error;
    // O_NONBLOCK: not waiting here for a FIFO's writer (the feed's poll() waits for it, stoppably).
    int fd = ::open(records_name_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (feed && fd >= 0 && ::fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
      if (std::string pipe = feed->start(fd); !pipe.empty()) {
        fd = -1;  // the feed's
        sandgate::StreamOptions as_file;
        as_file.name = records_name_;  // detected and named as the file, not as the pipe
        reader = sandgate::RequestReader::open(pipe, as_file, &error);
      }
    }
    if (fd >= 0) ::close(fd);
    if (!reader && error.empty()) reader = sandgate::RequestReader::open(records_name_, {}, &error);
    if (!reader) {
      error_ = "diffPolicies: records: " + error;
      return false;
    }
    return true;
  }

  std::string error_;  // the promise's rejection, when not empty
  std::string json_, markdown_, text_;
  std::string records_name_;  // the records file as the core's reader names it
  napi_threadsafe_function done_ = nullptr;
  bool hooked_ = false;
  std::thread thread_;
  Napi::Promise::Deferred deferred_;
};

// A diff without a records file, as libuv work.
class DiffWork : public Napi::AsyncWorker {
 public:
  DiffWork(Napi::Env env, std::shared_ptr<DiffJob> job) : Napi::AsyncWorker(env, "sandgate.diffPolicies"), job_(std::move(job)) {}

 protected:
  void Execute() override { job_->run_catching(); }
  void OnOK() override { job_->settle(Env()); }

 private:
  std::shared_ptr<DiffJob> job_;
};

// Runners and an org are the same for both sides: ones with errors are refused, as the CLI refuses
// them ("fix them first"), rather than making both sides reject everything alike.
template <typename T>
std::shared_ptr<const T> take(Napi::Env env, const Compiled<T>& c, const char* what) {
  for (const auto& d : c.diagnostics) {
    if (d.severity == sandgate::Severity::error) {
      std::string where = d.path.empty() ? std::string() : " at " + d.path;
      // "the <what> input has", which reads right for every input (runners, org, old policy, …).
      throw Napi::Error::New(env, std::string("diffPolicies: the ") + what + " input has errors; fix them first: " +
                                      std::string(d.name()) + where + ": " + d.message);
    }
  }
  return c.value;
}

bool absent(const Napi::Value& v) { return v.IsUndefined() || v.IsNull(); }

}  // namespace

// diffPolicies(old, new, records, runners, org, client, placement, examples, jobs, recordsPath)
//   old, new: policy handles, text or JS values; records: undefined, stream text (string or bytes)
//   or an array of records (JS values, or one JSON Lines line as a string); recordsPath: a file of
//   records (records then undefined), read on the worker as the CLI reads --requests
//   → [Promise<{json, markdown, text}>, stop]: stop() ends the read of recordsPath where it is, as
//   if the file ended there, and waits for the diff to end, for index.js to call at process exit
//   (no one reads that answer); undefined unless recordsPath is a FIFO or device
Napi::Value diff_policies(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto worker = std::make_shared<DiffJob>(env);
  worker->old_policy = policy_load(env, info[0], "<old>");
  worker->new_policy = policy_load(env, info[1], "<new>");
  Napi::Value records = info[2];
  if (info[9].IsString()) {
    worker->has_records = true;
    worker->records_path = info[9].As<Napi::String>().Utf8Value();
    // Looked at here, where opening a FIFO would wait for its writer but stat(2) does not.
    if (struct stat st; ::stat(worker->records_path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
      worker->feed = std::make_shared<RecordsFeed>();
    }
  } else if (!absent(records)) {
    worker->has_records = true;
    std::string text, file;
    if (records.IsArray()) {
      Napi::Array a = records.As<Napi::Array>();
      for (std::uint32_t i = 0; i < a.Length(); ++i) {
        Napi::HandleScope scope(env);
        Napi::Value item = a.Get(i);
        sandgate::PendingRecord p;
        p.index = i + 1;
        p.line = static_cast<int>(i + 1);
        if (item.IsString()) {
          // js_text: an unpaired surrogate is SG_INVALID_UTF8 at its column, not U+FFFD.
          char16_t lone = 0;
          if (!js_text(env, item, p.text, nullptr, &lone)) throw Napi::Error::New(env, "diffPolicies: cannot read a string record");
          if (lone) worker->lone_items.emplace_back(p.index, lone);
          p.bytes = p.text.size();
        } else {
          Converted c = js_to_node(env, item, std::string(sandgate::k_requests_input));
          if (std::optional<sandgate::Diagnostic> problem = unreadable(c)) {
            problem->source = sandgate::SourceLocation{k_records_name, p.line, 1};  // as the core places a record's
            p.problem = std::move(problem);
          } else {
            p.tree = std::move(c.root);
            p.tree_diagnostics = std::move(c.diagnostics);
          }
        }
        worker->items.push_back(std::move(p));
      }
    } else if (char16_t lone = 0; js_text(env, records, text, &file, &lone)) {
      worker->stream_lone = lone != 0;
      // A file's records are named by its path, as the CLI names them.
      worker->reader = sandgate::RequestReader::from_text(std::move(text), file.empty() ? k_records_name : file);
    } else {
      throw Napi::TypeError::New(env, "diffPolicies: records must be an array of records or request stream text");
    }
  }
  if (!absent(info[3])) worker->runners = take(env, load_runners(env, info[3]), "runners");
  if (!absent(info[4])) worker->org = take(env, load_org(env, info[4]), "org");
  worker->options.check.client = info[5].IsString() ? info[5].As<Napi::String>().Utf8Value() : "typescript";
  worker->options.check.placement = info[6].IsString() ? info[6].As<Napi::String>().Utf8Value() : "";
  worker->options.examples = info[7].IsNumber() ? info[7].As<Napi::Number>().Uint32Value() : 5;
  worker->options.jobs = info[8].IsNumber() ? info[8].As<Napi::Number>().Uint32Value() : 0;
  Napi::Array out = Napi::Array::New(env, 2);
  out.Set(0u, worker->promise());
  if (!worker->feed) {
    (new DiffWork(env, worker))->Queue();  // deletes itself once it has settled the promise
  } else {
    DiffJob::start_on_own_thread(env, worker);
    // Weak: the job (its records file, the feed's pipes, the answer) is let go once the promise is
    // settled, not when the garbage collector gets to this function.
    out.Set(1u, Napi::Function::New(env, [job = std::weak_ptr<DiffJob>(worker)](const Napi::CallbackInfo&) {
      if (std::shared_ptr<DiffJob> j = job.lock()) DiffJob::stop_and_join(j.get());
    }, "stop"));
  }
  return out;
}

}  // namespace sandgate_node
