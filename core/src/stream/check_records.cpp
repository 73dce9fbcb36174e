// check_records and RecordChecker: the batch check as a library function, for the bindings.
#include <memory>
#include <optional>
#include <thread>

#include "sandgate/stream.h"
#include "stream/ordered_pool.h"
#include "stream/result_view.h"

namespace sandgate {

namespace {

struct Checked {
  RequestRecord record;
  std::unique_ptr<Result> result;  // allocated by the worker that checked it
  unsigned worker = 0;
};

std::size_t weight(const PendingRecord& p) { return p.text.size() + p.tape.size() + 256; }

}  // namespace

struct RecordChecker::Impl {
  Impl(const Engine& e, const CheckOptions& o, unsigned jobs, std::string name, const Limits& l,
       std::function<void(unsigned)> c)
      : engine(e), options(o), stream_name(std::move(name)), limits(l), chore(std::move(c)),
        pool(pool_options(jobs), [this](PendingRecord&& p, unsigned w) { return check(std::move(p), w); }) {}

  static stream::PoolOptions pool_options(unsigned jobs) {
    stream::PoolOptions o;
    o.jobs = jobs ? jobs : std::max(1u, std::thread::hardware_concurrency());
    return o;
  }

  Checked check(PendingRecord&& p, unsigned worker) {
    if (chore) chore(worker);
    Checked c;
    c.worker = worker;
    c.record = prepare_record(std::move(p), stream_name, limits);
    if (c.record.readable()) {
      c.result = std::make_unique<Result>(engine.check(stream::compile_record(std::move(c.record), options)));
    } else {
      c.result = std::make_unique<Result>(stream::problem_result(*c.record.problem));
    }
    return c;
  }

  const Engine& engine;
  CheckOptions options;
  std::string stream_name;
  Limits limits;
  std::function<void(unsigned)> chore;
  stream::OrderedPool<PendingRecord, Checked> pool;  // its workers stop before the rest goes
  std::optional<stream::OrderedPool<PendingRecord, Checked>::Session> session;  // take()'s, ended first
};

RecordChecker::RecordChecker(const Engine& engine, const CheckOptions& options, unsigned jobs, std::string stream_name,
                             const Limits& limits, std::function<void(unsigned)> chore)
    : impl_(std::make_unique<Impl>(engine, options, jobs, std::move(stream_name), limits, std::move(chore))) {}

RecordChecker::~RecordChecker() = default;

unsigned RecordChecker::jobs() const { return impl_->pool.jobs(); }

bool RecordChecker::run(const std::function<bool(PendingRecord&)>& next, const Deliver& deliver) {
  return impl_->pool.run([&](PendingRecord& p) { return next(p); }, weight,
                         [&](Checked&& c) { return deliver(std::move(c.record), std::move(c.result), c.worker); });
}

std::size_t RecordChecker::take(const std::function<bool(PendingRecord&)>& next, const Deliver& deliver, std::size_t n) {
  if (!impl_->session) impl_->session.emplace(impl_->pool);
  std::size_t given = 0;
  impl_->session->step([&](PendingRecord& p) { return next(p); }, weight,
                       [&](Checked&& c) {
                         ++given;
                         return deliver(std::move(c.record), std::move(c.result), c.worker);
                       },
                       n);
  return given;
}

bool check_records(const std::function<bool(PendingRecord&)>& next, const std::string& stream_name, const Limits& limits,
                   const Engine& engine, const CheckOptions& options, unsigned jobs,
                   const std::function<bool(RequestRecord&&, Result&&)>& deliver) {
  RecordChecker checker(engine, options, jobs, stream_name, limits);
  return checker.run(next, [&](RequestRecord&& record, std::unique_ptr<Result> result, unsigned) {
    return deliver(std::move(record), std::move(*result));
  });
}

}  // namespace sandgate
