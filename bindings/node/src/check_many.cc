// checkBatch: the engine runs on a libuv worker thread; JS values are read on the main thread first
// (V8 values may not be touched anywhere else): a plain value as its JSON text, which the worker
// parses, anything else into a Node tree. Results are written as JSON text on the worker too: the
// main thread only makes one string per result (result_json.h). An item whose every layer is text
// (a string, the JSON text of a value) gets only the head of its result (result_head.h): writing
// `resolved`, `provenance` and `rules_applied` was half of a record's work, and index.js checks such an item again
// (checkItem, the same code on the main thread) when one of those is first read. checkTexts takes a
// batch of plain items as one text (index.js, batchText).
#include "check_many.h"

#include <cstdint>
#include <cstring>
#include <memory>

#include "inputs.h"
#include "js_to_node.h"
#include "node_to_js.h"
#include "result_head.h"
#include "result_json.h"
#include "sandgate/json_value.h"
#include "sandgate/stream.h"
#include "value_text.h"

namespace sandgate_node {
namespace {

constexpr const char* k_layer_inputs[] = {"defaults", "sandbox", "overrides"};

struct Job {
  std::shared_ptr<const CheckContext> context;
  sandgate::Document sandbox;
  std::optional<sandgate::Document> defaults, overrides;
  // A layer given as the JSON text of a plain value (value_text.h), parsed on the worker: on the
  // main thread it was a third of the native work of converting an item, and the main thread is
  // what checkMany's rate is capped by. The core refuses a few texts (a `\u` escape that decodes to
  // a NUL or a lone surrogate, a nesting past its depth) that only a walk of the JS value reports
  // as check() does: the item is then answered null, and index.js checks it on the main thread.
  std::optional<std::string> json[3];  // defaults, sandbox, overrides
  // The same, when the layer's text lies in a batch's one text (checkTexts): parsed where it is.
  struct Span {
    char* data = nullptr;  // followed by a NUL
    std::size_t size = 0;
  } span[3];
  bool refused = false;
  // A string item: one record's JSON text (a JSON Lines line), read on the worker as a stream's
  // line is (SPEC §10.1: a sandbox, or {id, sandbox, defaults, overrides} whose own layers replace
  // the shared ones), as Python's check_many and diffPolicies read theirs.
  std::optional<sandgate::PendingRecord> record;
  char16_t lone = 0;  // the record's first unpaired surrogate (js_text), or 0
  bool head_only = false;  // index.js can check the item again: the result's head is enough
};

// Layer `k` of a job (0 defaults, 1 sandbox, 2 overrides, as Job::json).
void set_layer(Job& j, std::size_t k, sandgate::Document d) {
  if (k == 1) {
    j.sandbox = std::move(d);
  } else {
    (k == 0 ? j.defaults : j.overrides) = std::move(d);
  }
}

// The layers a job checks; false with `unreadable` set when its record cannot be read, or with
// `j.refused` when the core refused one of its JSON texts.
bool job_layers(Job& j, sandgate::Request::OwnedLayers& layers, sandgate::Result& unreadable) {
  for (std::size_t k = 0; k < 3; ++k) {
    std::optional<sandgate::Node> root;
    if (j.span[k].data) {
      root = sandgate::node_from_json_in_place(j.span[k].data, j.span[k].size);
    } else if (j.json[k]) {
      root = sandgate::node_from_json_value(std::move(*j.json[k]));
    } else {
      continue;
    }
    if (!root) {
      j.refused = true;
      return false;
    }
    set_layer(j, k, sandgate::document_from_node(std::move(*root), k_layer_inputs[k]));
  }
  if (!j.record) {
    layers = {.defaults = std::move(j.defaults), .sandbox = std::move(j.sandbox), .overrides = std::move(j.overrides)};
    return true;
  }
  sandgate::RequestRecord r = sandgate::prepare_record(std::move(*j.record), k_records_name);
  if (!r.readable()) {
    sandgate::Diagnostics problem{std::move(*r.problem)};
    name_lone_surrogate(problem, j.lone);
    unreadable = sandgate::Result::from_diagnostics(std::move(problem));
    return false;
  }
  layers = {.defaults = r.defaults ? std::move(r.defaults) : std::move(j.defaults),
            .sandbox = std::move(r.sandbox),
            .overrides = r.overrides ? std::move(r.overrides) : std::move(j.overrides)};
  return true;
}

// The job's result: its check, or the problem of a record that cannot be read (none, with
// `j.refused` set, when the core refused one of its JSON texts).
sandgate::Result run(Job& j) {
  sandgate::Request::OwnedLayers layers;
  sandgate::Result unreadable;
  return job_layers(j, layers, unreadable) ? j.context->run(std::move(layers)) : std::move(unreadable);
}

class CheckWorker : public Napi::AsyncWorker {
 public:
  CheckWorker(Napi::Env env, std::vector<Job> jobs, std::unique_ptr<char[]> text = nullptr)
      : Napi::AsyncWorker(env, "sandgate.checkMany"),
        jobs_(std::move(jobs)),
        as_text_(results_as_text()),
        deferred_(Napi::Promise::Deferred::New(env)),
        text_(std::move(text)) {}

  Napi::Promise promise() const { return deferred_.Promise(); }

 protected:
  void Execute() override {
    results_.reserve(jobs_.size());
    texts_.resize(jobs_.size());
    exact_.resize(jobs_.size());
    for (std::size_t i = 0; i < jobs_.size(); ++i) {
      auto& j = jobs_[i];
      results_.push_back(run(j));
      if (j.refused) continue;
      exact_[i] = as_text_ && (j.head_only ? result_head_json(results_.back(), texts_[i])
                                           : result_to_json_text(results_.back(), texts_[i]));
      // The text says it all: free the result here, on the worker that built it, rather than
      // keeping it for the main thread to free after OnOK.
      if (exact_[i]) results_.back() = sandgate::Result();
    }
  }

  void OnOK() override {
    Napi::Env env = Env();
    try {
      Napi::Array out = Napi::Array::New(env, results_.size());
      for (std::size_t i = 0; i < results_.size(); ++i) {
        Napi::HandleScope scope(env);
        out.Set(static_cast<std::uint32_t>(i),
                jobs_[i].refused ? env.Null() : result_to_js_or_text(env, results_[i], texts_[i], exact_[i]));
      }
      deferred_.Resolve(out);
    } catch (const Napi::Error& e) {
      deferred_.Reject(e.Value());
    }
  }

  void OnError(const Napi::Error& e) override { deferred_.Reject(e.Value()); }

 private:
  std::vector<Job> jobs_;
  bool as_text_;
  std::vector<sandgate::Result> results_;
  std::vector<std::string> texts_;
  std::vector<char> exact_;  // texts_[i] says what result_to_js would build (results_[i] is then freed)
  Napi::Promise::Deferred deferred_;
  std::unique_ptr<char[]> text_;  // checkTexts: the batch's text, which the jobs' spans point into
};

// A layer of an item: its JSON text kept for the worker to parse, or the layer loaded now (text,
// or a value JSON text does not carry).
void take_layer(Napi::Env env, Napi::Value v, Napi::Value json, std::size_t k, Job& j) {
  if (v.IsUndefined() || v.IsNull()) return;
  if (json.IsString()) {
    j.json[k] = json.As<Napi::String>().Utf8Value();
    return;
  }
  set_layer(j, k, load_layer(env, v, k_layer_inputs[k]));
}

// The job of one checkBatch item (see check_batch).
Job job_of(Napi::Env env, Napi::Value value) {
  if (!value.IsArray()) throw Napi::TypeError::New(env, "a checkBatch item is an array");
  Napi::Array item = value.As<Napi::Array>();
  Job j;
  j.context = unwrap_context(env, item.Get(0u));
  Napi::Value sandbox = item.Get(1u), record = item.Get(7u);
  if (record.IsNumber() && sandbox.IsString()) {
    sandgate::PendingRecord& p = j.record.emplace();
    p.index = static_cast<std::size_t>(record.As<Napi::Number>().Int64Value());
    p.line = static_cast<int>(p.index);
    if (!js_text(env, sandbox, p.text, nullptr, &j.lone)) throw Napi::Error::New(env, "checkMany: cannot read a string item");
    p.bytes = p.text.size();
  } else if (sandbox.IsUndefined() || sandbox.IsNull()) {
    j.sandbox = load_layer(env, sandbox, "sandbox");  // as check() answers an absent sandbox
  } else {
    take_layer(env, sandbox, item.Get(4u), 1, j);
  }
  take_layer(env, item.Get(2u), item.Get(5u), 0, j);
  take_layer(env, item.Get(3u), item.Get(6u), 2, j);
  j.head_only = item.Get(8u).ToBoolean().Value();
  return j;
}

}  // namespace

// checkBatch(items: Array<[context, sandbox, defaults?, overrides?, sandboxJson?, defaultsJson?,
// overridesJson?, record?, headOnly?]>) → Promise<Array<Result | null>>; the *Json are the layers'
// JSON texts where index.js made them (value_text.h); `record`, the item's 1-based position, says
// that `sandbox` is a string item: a record's text; `headOnly`, that index.js can check the item
// again (checkItem), so the head of its result is enough (result_head.h). Otherwise results are
// whole: the check already ran on a worker. null: the core refused a JSON text (see Job::json);
// index.js checks that item itself.
Napi::Value check_batch(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsArray()) throw Napi::TypeError::New(env, "checkBatch expects an array of items");
  Napi::Array items = info[0].As<Napi::Array>();
  std::vector<Job> jobs;
  jobs.reserve(items.Length());
  for (std::uint32_t i = 0; i < items.Length(); ++i) {
    Napi::HandleScope scope(env);
    jobs.push_back(job_of(env, items.Get(i)));
  }
  auto* worker = new CheckWorker(env, std::move(jobs));  // deletes itself after OnOK / OnError
  Napi::Promise p = worker->promise();
  worker->Queue();
  return p;
}

// checkTexts(context, text, count, firstRecord) → what checkBatch answers for `count` items checked
// with `context`, every layer given as text: `text` holds three segments an item, defaults, sandbox
// and overrides, an absent layer empty, joined by newlines. With `firstRecord` 0 each item is a
// plain sandbox and its segments are JSON texts (lib/plain_json.js; JSON.stringify writes no
// newline); with `firstRecord` n ≥ 1 each item is a string item, its middle segment a record's
// text (the n-th, n+1-th, … item of the call; index.js sends none with a newline or a lone
// surrogate). One string crosses over for the batch: checkBatch's nine reads of each item's array
// and a string each cost the main thread, which caps checkMany's rate, 11,000 instructions an item.
// The text is read in one pass into a block the worker keeps, and each segment ends with a NUL
// where its newline was, so that the core parses it in place.
Napi::Value check_texts(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[1].IsString() || !info[2].IsNumber() || !info[3].IsNumber()) {
    throw Napi::TypeError::New(env, "checkTexts(context, text, count, firstRecord)");
  }
  std::shared_ptr<const CheckContext> context = unwrap_context(env, info[0]);
  const double count = info[2].As<Napi::Number>().DoubleValue();
  const double first_record = info[3].As<Napi::Number>().DoubleValue();
  if (!(first_record >= 0 && first_record <= 9007199254740991.0) || first_record != static_cast<double>(static_cast<std::int64_t>(first_record))) {
    throw Napi::TypeError::New(env, "checkTexts: firstRecord must be 0 or a record's 1-based position");
  }
  const bool records = first_record >= 1;
  std::size_t room = 0;
  if (!utf8_room(info[1], room)) throw Napi::Error::New(env);
  std::unique_ptr<char[]> text(new char[room]);
  std::size_t size = 0;
  if (!write_utf8(info[1], text.get(), room, size)) throw Napi::Error::New(env);
  std::vector<Job> jobs;
  if (count >= 1 && count <= static_cast<double>(size)) jobs.reserve(static_cast<std::size_t>(count));
  char* at = text.get();
  char* const end = at + size;  // the NUL V8 wrote
  for (std::size_t segment = 0;; ++segment) {
    auto* stop = static_cast<char*>(std::memchr(at, '\n', static_cast<std::size_t>(end - at)));
    if (!stop) stop = end;
    *stop = '\0';
    if (segment % 3 == 0) {
      Job& j = jobs.emplace_back();
      j.context = context;
      j.head_only = true;  // every layer is text: index.js can check the item again
    }
    const auto size_here = static_cast<std::size_t>(stop - at);
    if (records && segment % 3 == 1) {
      // As job_of reads a string item (an empty one is a blank record, answered as such).
      sandgate::PendingRecord& p = jobs.back().record.emplace();
      p.index = static_cast<std::size_t>(first_record) + jobs.size() - 1;
      p.line = static_cast<int>(p.index);
      p.text.assign(at, size_here);
      p.bytes = size_here;
    } else if (stop > at) {
      jobs.back().span[segment % 3] = {at, size_here};
    }
    if (stop == end) {
      // Three segments an item, and a sandbox or record in each: anything else is a caller's bug,
      // and a wrong split would check one item's layer as another's.
      bool whole = segment % 3 == 2 && static_cast<double>(jobs.size()) == count;
      for (const Job& j : jobs) whole = whole && (records || j.span[1].data);
      if (!whole) throw Napi::TypeError::New(env, "checkTexts: the text must hold three segments for each of `count` items, the sandbox's never empty (a record's may be)");
      break;
    }
    at = stop + 1;
  }
  auto* worker = new CheckWorker(env, std::move(jobs), std::move(text));  // deletes itself after OnOK / OnError
  Napi::Promise p = worker->promise();
  worker->Queue();
  return p;
}

// checkItem(item) → the whole result of one checkBatch item, checked here: a deferred field of a
// checkMany result whose head came from checkBatch; null as checkBatch answers it.
Napi::Value check_item(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Job j = job_of(env, info[0]);
  sandgate::Result r = run(j);
  return j.refused ? env.Null() : result_to_js_or_text(env, r);
}

}  // namespace sandgate_node
