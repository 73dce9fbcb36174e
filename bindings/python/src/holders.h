// What the Python layer holds on to between calls: loaded inputs and results. All are plain values
// owning their data, so the engine can run on them with the GIL released.
#pragma once

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
};

using LoadedPolicy = Loaded<Policy>;
using LoadedRunners = Loaded<Runners>;
using LoadedOrg = Loaded<Org>;

// Native results of check_many that Python has let go of. Freeing one takes about as long as a
// quarter of checking it, and Python drops them on the thread that holds the GIL, where nothing
// else can run: the next chunk frees them instead, with the GIL released, beside the pool's
// workers (bind_many.cpp). Open while its ManyCheck lives; once closed, results are freed where
// they are dropped.
struct Graveyard {
  std::mutex mu;
  bool open = true;
  std::vector<Result> dead;

  // Takes `r` if open; once closed, leaves it to its owner to free.
  void bury(Result& r) {
    std::lock_guard lock(mu);
    if (open) dead.push_back(std::move(r));
  }
  std::vector<Result> take() {
    std::vector<Result> out;
    std::lock_guard lock(mu);
    out.swap(dead);
    return out;
  }
  std::vector<Result> close() {
    std::vector<Result> out;
    std::lock_guard lock(mu);
    open = false;
    out.swap(dead);
    return out;
  }
};

struct CheckResult {
  Result result;
  std::shared_ptr<Graveyard> graveyard;  // set on check_many's results

  CheckResult() = default;
  explicit CheckResult(Result r, std::shared_ptr<Graveyard> g = nullptr) : result(std::move(r)), graveyard(std::move(g)) {}
  CheckResult(CheckResult&&) noexcept = default;  // leaves `graveyard` empty in the source
  CheckResult& operator=(CheckResult&&) noexcept = default;
  CheckResult(const CheckResult&) = delete;
  CheckResult& operator=(const CheckResult&) = delete;
  ~CheckResult() {
    if (!graveyard) return;
    try {
      graveyard->bury(result);
    } catch (...) {  // no memory for the list: `result` is untouched and freed here, as before
    }
  }
};

}  // namespace sandgate::python
