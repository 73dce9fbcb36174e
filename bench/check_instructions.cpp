// Instructions and heap allocations of one `check` per README example, measured deterministically:
// run under callgrind (bench/check_instructions.sh), each measured call is the only code collected
// (client requests toggle collection around it, after a warm-up call), and a replaced operator
// new counts allocations inside it. Four steps per example: check on the compiled request,
// compile + check from the loaded Document, the result as compact JSON text (what the Node binding
// hands over for every check: the resolved sandbox and provenance are built on the way), and
// freeing that result with its request. Outside valgrind it prints the allocation counts.
#include <valgrind/callgrind.h>

#include <cstdio>

#include "allocation_counter.h"
#include "examples.h"

int main() {
  using namespace sandgate;
  using namespace sandgate::bench;
  for (const Example& e : k_examples) {
    Engine engine = engine_for(e);
    Document doc = load_document(read(e.sandbox), Format::yaml, e.sandbox, "sandbox");
    auto request = Request::compile({nullptr, &doc, nullptr});
    {  // first-use statics (built-in runners, default image) and the thread's JSON buffer
      Result warm = engine.check(request);
      (void)result_to_json(warm, false);
    }
    std::uint64_t before = allocations();
    CALLGRIND_TOGGLE_COLLECT;
    Result r = engine.check(request);
    CALLGRIND_TOGGLE_COLLECT;
    std::uint64_t check_allocations = allocations() - before;
    CALLGRIND_DUMP_STATS_AT(e.sandbox.c_str());
    // Compile + check from the loaded Document, as Engine::check(Document) does.
    before = allocations();
    CALLGRIND_TOGGLE_COLLECT;
    Result full = engine.check(doc);
    CALLGRIND_TOGGLE_COLLECT;
    std::uint64_t full_allocations = allocations() - before;
    CALLGRIND_DUMP_STATS_AT(e.sandbox.c_str());
    before = allocations();
    CALLGRIND_TOGGLE_COLLECT;
    std::string json = result_to_json(full, false);
    CALLGRIND_TOGGLE_COLLECT;
    std::uint64_t json_allocations = allocations() - before;
    CALLGRIND_DUMP_STATS_AT(e.sandbox.c_str());
    {
      Result dropped = std::move(full);
      CALLGRIND_TOGGLE_COLLECT;
      { Result gone = std::move(dropped); }
      CALLGRIND_TOGGLE_COLLECT;
    }
    CALLGRIND_DUMP_STATS_AT(e.sandbox.c_str());
    std::printf("%s %s %llu %llu %llu %zu\n", e.sandbox.c_str(), r.ok() ? "passes" : "fails",
                static_cast<unsigned long long>(check_allocations), static_cast<unsigned long long>(full_allocations),
                static_cast<unsigned long long>(json_allocations), json.size());
  }
  return 0;
}
