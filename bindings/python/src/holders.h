// What the Python layer holds on to between calls: loaded inputs and results. All are plain values
// owning their data, so the engine can run on them with the GIL released.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "sandgate/document.h"
#include "sandgate/engine.h"
#include "sandgate/policy.h"
#include "sandgate/result.h"

namespace sandgate::python {

// One request layer (sandbox, defaults or overrides), from text or from a Python value.
struct InputDocument {
  Document doc;
};

// A policy, runner inventory or org, loaded once. `value` is null when the input could not be read
// as a document at all; `diagnostics` then holds why.
template <typename T>
struct Loaded {
  std::shared_ptr<const T> value;
  Diagnostics diagnostics;
  std::string file;
  // Those of `diagnostics` the binding gave a hint of its own (the str rule's, bind_inputs.cpp):
  // `value` keeps the core's copy without it, and that copy is what a check reports.
  Diagnostics hinted;
};

using LoadedPolicy = Loaded<Policy>;
using LoadedRunners = Loaded<Runners>;
using LoadedOrg = Loaded<Org>;

// Native results of check_many that Python has let go of. Freeing one takes about as long as a
// quarter of checking it, and Python drops them on the thread that holds the GIL — the thread that
// also reads every record and so already limits how far check_many scales. Each result goes
// back to the worker that made it (a plot per worker), which frees it before a later record: freed
// on the thread that allocated it, a result costs the allocator no lock (glibc keeps an arena per
// thread; freeing into another thread's arena contends for its lock, and cost more than the
// second thread gained). Open while its ManyCheck lives; once closed, results are freed where they
// are dropped.
struct Graveyard {
  explicit Graveyard(unsigned workers) : plots(workers) {}

  // Takes `r` (made by `worker`) if open; once closed, leaves it to its owner to free.
  void bury(std::unique_ptr<Result>& r, unsigned worker) {
    if (!open.load(std::memory_order_acquire) || worker >= plots.size()) return;
    Plot& p = plots[worker];
    std::lock_guard lock(p.mu);
    p.dead.push_back(std::move(r));
  }
  // Frees up to `n` results that `worker` made, each outside the lock; run by that worker (before
  // every record it checks: no allocation here).
  void free_some(unsigned worker, std::size_t n) {
    Plot& p = plots[worker];
    for (; n > 0; --n) {
      std::unique_ptr<Result> r;
      {
        std::lock_guard lock(p.mu);
        if (p.dead.empty()) return;
        r = std::move(p.dead.back());
        p.dead.pop_back();
      }
    }
  }
  // Stops taking results, and hands the ones held to the caller to free.
  std::vector<std::unique_ptr<Result>> close() {
    open.store(false, std::memory_order_release);
    std::vector<std::unique_ptr<Result>> out;
    for (Plot& p : plots) {
      std::lock_guard lock(p.mu);
      for (auto& r : p.dead) out.push_back(std::move(r));
      p.dead.clear();
    }
    return out;
  }

 private:
  struct Plot {
    std::mutex mu;
    std::vector<std::unique_ptr<Result>> dead;
  };
  std::vector<Plot> plots;  // one per worker, made once (a Plot cannot move)
  std::atomic<bool> open{true};
};

// A result as Python holds it. The Result lives on the heap, so handing it from the pool's worker
// to Python and back to the graveyard moves a pointer, not its 2 KB.
struct CheckResult {
  std::unique_ptr<Result> result;
  std::shared_ptr<Graveyard> graveyard;  // set on check_many's results
  unsigned worker = 0;                   // which of the graveyard's workers made it

  explicit CheckResult(Result r) : result(std::make_unique<Result>(std::move(r))) {}
  CheckResult(std::unique_ptr<Result> r, std::shared_ptr<Graveyard> g, unsigned w)
      : result(std::move(r)), graveyard(std::move(g)), worker(w) {}
  CheckResult(CheckResult&&) noexcept = default;  // leaves `graveyard` and `result` empty in the source
  CheckResult& operator=(CheckResult&&) noexcept = default;
  CheckResult(const CheckResult&) = delete;
  CheckResult& operator=(const CheckResult&) = delete;
  ~CheckResult() {
    if (!graveyard || !result) return;
    try {
      graveyard->bury(result, worker);
    } catch (...) {  // no memory for the list: `result` is untouched and freed here, as before
    }
  }
};

}  // namespace sandgate::python
