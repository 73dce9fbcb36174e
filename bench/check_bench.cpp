// Google Benchmark of `check` on the README examples against loaded policies, with heap
// allocations counted (a replaced global operator new), not guessed.
//   cmake --preset default && cmake --build --preset default --target sandgate_bench
//   ./build/default/bench/sandgate_bench --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "allocation_counter.h"
#include "examples.h"
#include "sandgate/sandgate.h"

namespace {

using namespace sandgate;
using namespace sandgate::bench;

void report_allocations(benchmark::State& state, std::uint64_t before) {
  state.counters["allocs_per_op"] =
      benchmark::Counter(static_cast<double>(allocations() - before) / static_cast<double>(state.iterations()));
}

// check() on a compiled request: the rules alone (a policy diff checks one compiled request
// against two policies). A passing request allocates nothing here.
void BM_check_compiled(benchmark::State& state) {
  const Example& e = k_examples[state.range(0)];
  Engine engine = engine_for(e);
  Document doc = load_document(read(e.sandbox), Format::yaml, e.sandbox, "sandbox");
  auto request = Request::compile({nullptr, &doc, nullptr});
  state.SetLabel(e.sandbox);
  std::uint64_t before = allocations();
  for (auto _ : state) {
    Result r = engine.check(request);
    benchmark::DoNotOptimize(r.ok());
  }
  report_allocations(state, before);
}
BENCHMARK(BM_check_compiled)->DenseRange(0, std::size(k_examples) - 1);

// Reading the outcome as a user does: the diagnostics put into words and the resolved sandbox.
void BM_check_compiled_and_read(benchmark::State& state) {
  const Example& e = k_examples[state.range(0)];
  Engine engine = engine_for(e);
  Document doc = load_document(read(e.sandbox), Format::yaml, e.sandbox, "sandbox");
  auto request = Request::compile({nullptr, &doc, nullptr});
  state.SetLabel(e.sandbox);
  std::uint64_t before = allocations();
  for (auto _ : state) {
    Result r = engine.check(request);
    benchmark::DoNotOptimize(r.diagnostics().size());
    benchmark::DoNotOptimize(r.resolved().members.size());
  }
  report_allocations(state, before);
}
BENCHMARK(BM_check_compiled_and_read)->DenseRange(0, std::size(k_examples) - 1);

// Compile + check from a request already loaded into a tree (what the bindings do).
void BM_check_tree(benchmark::State& state) {
  const Example& e = k_examples[state.range(0)];
  Engine engine = engine_for(e);
  Document doc = load_document(read(e.sandbox), Format::yaml, e.sandbox, "sandbox");
  state.SetLabel(e.sandbox);
  std::uint64_t before = allocations();
  for (auto _ : state) {
    Result r = engine.check(doc);
    benchmark::DoNotOptimize(r.ok());
  }
  report_allocations(state, before);
}
BENCHMARK(BM_check_tree)->DenseRange(0, std::size(k_examples) - 1);

// The same from YAML text: what `sandgate check` does per file.
void BM_check_text(benchmark::State& state) {
  const Example& e = k_examples[state.range(0)];
  Engine engine = engine_for(e);
  std::string text = read(e.sandbox);
  state.SetLabel(e.sandbox);
  std::uint64_t before = allocations();
  for (auto _ : state) {
    Document doc = load_document(text, Format::yaml, e.sandbox, "sandbox");
    Result r = engine.check(doc);
    benchmark::DoNotOptimize(r.ok());
  }
  report_allocations(state, before);
}
BENCHMARK(BM_check_text)->DenseRange(0, std::size(k_examples) - 1);

void BM_validate_policy(benchmark::State& state) {
  std::string text = read("policies/production-cks.yaml");
  std::uint64_t before = allocations();
  for (auto _ : state) {
    Result r = validate_policy(text, Format::yaml, "production-cks.yaml");
    benchmark::DoNotOptimize(r.ok());
  }
  report_allocations(state, before);
}
BENCHMARK(BM_validate_policy);

void BM_quantity_parse(benchmark::State& state) {
  std::uint64_t before = allocations();
  for (auto _ : state) {
    auto q = Quantity::parse("1.5Gi");
    benchmark::DoNotOptimize(q);
  }
  report_allocations(state, before);
}
BENCHMARK(BM_quantity_parse);

}  // namespace

BENCHMARK_MAIN();
