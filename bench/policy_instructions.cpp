// Instructions and heap allocations of compiling each example policy from its tree — what
// `validate_policy(dict)` and `Policy(dict)` spend in the core once a binding has converted the
// value — measured deterministically under callgrind (bench/policy_instructions.sh): the tree is
// copied outside the measured span, then `Policy::from_node` and the load's destruction are the
// only code collected. Outside valgrind it prints the allocation counts.
#include <valgrind/callgrind.h>

#include <cstdio>

#include "allocation_counter.h"
#include "examples.h"

int main() {
  using namespace sandgate;
  using namespace sandgate::bench;
  for (const char* name : k_policies) {
    Document doc = load_document(read(name), Format::yaml, name, "policy");
    (void)Policy::from_node(doc.root, name);  // first-use statics: the compiled schema
    Node tree = doc.root;
    std::uint64_t before = allocations();
    CALLGRIND_TOGGLE_COLLECT;
    {
      PolicyLoad load = Policy::from_node(std::move(tree), name);
      if (!load.policy) std::printf("%s did not compile\n", name);
    }
    CALLGRIND_TOGGLE_COLLECT;
    std::uint64_t made = allocations() - before;
    CALLGRIND_DUMP_STATS_AT(name);
    std::printf("%s %llu\n", name, static_cast<unsigned long long>(made));
  }
  return 0;
}
