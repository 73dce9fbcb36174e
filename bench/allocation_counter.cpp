// The replaced operator new behind allocations() (allocation_counter.h): every allocation of the
// process goes through here, malloc underneath, so the counts are those of the C library's allocator.
#include "allocation_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<std::uint64_t> g_allocations{0};
}  // namespace

namespace sandgate::bench {
std::uint64_t allocations() { return g_allocations.load(std::memory_order_relaxed); }
}  // namespace sandgate::bench

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
