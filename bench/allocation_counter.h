// Heap allocations made by the process so far: the benchmarks that link allocation_counter.cpp
// replace operator new to count them, so a benchmark can report the allocations of its own span.
#pragma once

#include <cstdint>

namespace sandgate::bench {
std::uint64_t allocations();
}  // namespace sandgate::bench
