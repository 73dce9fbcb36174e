// The request-stream pipeline on several threads (SPEC §10): diff_policies over
// examples/requests.jsonl on 4 threads must give the same JSON as on 1, record for record, and
// the ordered pool must hand the answers over in input order. Run under ThreadSanitizer by
// scripts/test-tsan.sh (the `tsan` preset), where a data race in the pool, the reader or the
// engines shared by the workers fails it; in the other presets it is an ordinary test.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "sandgate/diff.h"
#include "sandgate/sandgate.h"

namespace {

using namespace sandgate;

std::string read(const std::string& rel) {
  std::ifstream in(std::string(SANDGATE_SOURCE_DIR) + "/examples/" + rel, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string diff_json(unsigned jobs, const std::string& requests) {
  PolicyLoad old_policy = Policy::parse(read("policies/production-cks.yaml"), Format::yaml, "production-cks.yaml");
  PolicyLoad new_policy = Policy::parse(read("policies/production-cks-v2.yaml"), Format::yaml, "production-cks-v2.yaml");
  auto runners = Runners::parse(read("runners.yaml"), Format::yaml, "runners.yaml").runners;
  auto reader = RequestReader::from_text(requests, "requests.jsonl");
  DiffOptions options;
  options.jobs = jobs;
  options.examples = 3;
  return diff_to_json(diff_policies(old_policy, new_policy, reader.get(), runners, nullptr, options));
}

}  // namespace

int main() {
  std::string requests = read("requests.jsonl");
  if (requests.empty()) {
    std::fprintf(stderr, "streams_threads_test: examples/requests.jsonl is missing\n");
    return 1;
  }
  std::string baseline = diff_json(1, requests);
  int failures = 0;
  for (unsigned jobs : {2u, 4u}) {
    std::string got = diff_json(jobs, requests);
    if (got != baseline) {
      std::fprintf(stderr, "streams_threads_test: the diff on %u threads differs from the one on 1\n", jobs);
      ++failures;
    }
  }
  std::printf("streams_threads_test: policy diff over %zu bytes of requests on 1, 2 and 4 threads: %s\n", requests.size(),
              failures ? "DIFFERENT" : "identical");
  return failures ? 1 : 0;
}
