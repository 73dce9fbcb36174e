// check_records: the batch check as a library function, for the bindings.
#include <thread>

#include "sandgate/stream.h"
#include "stream/ordered_pool.h"
#include "stream/result_view.h"

namespace sandgate {

bool check_records(const std::function<bool(PendingRecord&)>& next, const std::string& stream_name, const Limits& limits,
                   const Engine& engine, const CheckOptions& options, unsigned jobs,
                   const std::function<bool(RequestRecord&&, Result&&)>& deliver) {
  struct Checked {
    RequestRecord record;
    Result result;
  };
  stream::PoolOptions pool;
  pool.jobs = jobs ? jobs : std::max(1u, std::thread::hardware_concurrency());
  return stream::run_ordered<PendingRecord, Checked>(
      pool, [&](PendingRecord& p) { return next(p); }, [](const PendingRecord& p) { return p.text.size() + 256; },
      [&](PendingRecord&& p) {
        Checked c;
        c.record = prepare_record(std::move(p), stream_name, limits);
        if (c.record.readable()) {
          c.result = engine.check(stream::compile_record(std::move(c.record), options));
        } else {
          c.result = stream::problem_result(*c.record.problem);
        }
        return c;
      },
      [&](Checked&& c) { return deliver(std::move(c.record), std::move(c.result)); });
}

}  // namespace sandgate
