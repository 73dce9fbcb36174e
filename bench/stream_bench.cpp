// Google Benchmark of the request-stream path (SPEC §10), split so the cost of each part shows:
// reading a record (prepare_record: the JSON loader and the record shape), checking it
// (Engine::check), diffing it under two policies, and the whole ordered pipeline on 1 and 2
// threads over records held in memory (records/s, no I/O).
//   cmake --build --preset default --target sandgate_stream_bench
//   ./build/default/bench/sandgate_stream_bench --benchmark_min_time=1
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "sandgate/sandgate.h"
#include "sandgate/diff.h"
#include "sandgate/stream.h"
#include "stream/ordered_pool.h"
#include "stream/result_view.h"

namespace {

using namespace sandgate;

std::string read(const std::string& rel) {
  std::ifstream in(std::string(SANDGATE_SOURCE_DIR) + "/examples/" + rel, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The 300 lines of examples/requests.jsonl (the two broken ones left out).
std::vector<std::string> lines() {
  std::vector<std::string> out;
  std::istringstream in(read("requests.jsonl"));
  for (std::string l; std::getline(in, l);) {
    if (out.size() < 300) out.push_back(l);
  }
  return out;
}

PendingRecord pending(const std::string& line, std::size_t i) {
  PendingRecord p;
  p.index = i + 1;
  p.line = static_cast<int>(i + 1);
  p.text = line;
  return p;
}

std::shared_ptr<const Policy> policy(const char* name) { return Policy::parse(read(name), Format::yaml, name).policy; }
std::shared_ptr<const Runners> runners() { return Runners::parse(read("runners.yaml"), Format::yaml, "runners.yaml").runners; }

void BM_prepare_record(benchmark::State& state) {
  auto ls = lines();
  std::size_t i = 0;
  for (auto _ : state) {
    RequestRecord r = prepare_record(pending(ls[i % ls.size()], i), "requests.jsonl");
    benchmark::DoNotOptimize(r.sandbox.loaded);
    ++i;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(i));
}
BENCHMARK(BM_prepare_record);

void BM_check_record(benchmark::State& state) {
  auto ls = lines();
  std::vector<RequestRecord> records;
  for (std::size_t i = 0; i < ls.size(); ++i) records.push_back(prepare_record(pending(ls[i], i), "requests.jsonl"));
  Engine engine(policy("policies/production-cks-v2.yaml"), runners());
  std::size_t i = 0;
  for (auto _ : state) {
    const RequestRecord& r = records[i++ % records.size()];
    stream::ResultView v =
        stream::view_of(engine.check(r.sandbox, r.defaults ? &*r.defaults : nullptr, r.overrides ? &*r.overrides : nullptr), stream::ViewDetail::summary);
    benchmark::DoNotOptimize(v.ok);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(i));
}
BENCHMARK(BM_check_record);

void BM_diff_record(benchmark::State& state) {
  auto ls = lines();
  std::vector<RequestRecord> records;
  for (std::size_t i = 0; i < ls.size(); ++i) records.push_back(prepare_record(pending(ls[i], i), "requests.jsonl"));
  PolicyDiffer differ(policy("policies/production-cks.yaml"), policy("policies/production-cks-v2.yaml"), runners());
  std::size_t i = 0;
  for (auto _ : state) {
    RecordDiff d = differ.diff(records[i++ % records.size()]);  // a copy: diff takes over the layers
    benchmark::DoNotOptimize(d.cls);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(i));
}
BENCHMARK(BM_diff_record);

// The whole path but I/O: read, check and order 30,000 records on N threads.
void BM_pipeline(benchmark::State& state) {
  auto ls = lines();
  Engine engine(policy("policies/production-cks-v2.yaml"), runners());
  constexpr std::size_t k_records = 30000;
  for (auto _ : state) {
    std::size_t next = 0, accepted = 0;
    stream::PoolOptions o;
    o.jobs = static_cast<unsigned>(state.range(0));
    stream::run_ordered<PendingRecord, int>(
        o,
        [&](PendingRecord& p) {
          if (next == k_records) return false;
          p = pending(ls[next % ls.size()], next);
          ++next;
          return true;
        },
        [](const PendingRecord& p) { return p.text.size(); },
        [&](PendingRecord&& p) {
          RequestRecord r = prepare_record(std::move(p), "requests.jsonl");
          auto res = engine.check(r.sandbox, r.defaults ? &*r.defaults : nullptr, r.overrides ? &*r.overrides : nullptr);
          return stream::view_of(std::move(res), stream::ViewDetail::summary).ok ? 1 : 0;
        },
        [&](int&& ok) {
          accepted += static_cast<std::size_t>(ok);
          return true;
        });
    benchmark::DoNotOptimize(accepted);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * k_records));
}
BENCHMARK(BM_pipeline)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
