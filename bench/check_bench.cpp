// Placeholder until the README examples exist; replaced in the next commit.
#include <benchmark/benchmark.h>
BENCHMARK_MAIN();
