// The request-stream pipeline on several threads (SPEC §10): diff_policies over
// examples/requests.jsonl on 4 threads must give the same JSON as on 1, record for record, and
// the ordered pool must hand the answers over in input order; and a RecordChecker driven a chunk at
// a time, whose results go back to the workers that made them to be freed (what Python's
// check_many does), must answer as check_records does. Run under ThreadSanitizer by
// scripts/test-tsan.sh (the `tsan` preset), where a data race in the pool, the reader or the
// engines shared by the workers fails it; in the other presets it is an ordinary test.
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "sandgate/diff.h"
#include "sandgate/sandgate.h"
#include "sandgate/stream.h"

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

// The verdicts of every record, checked `jobs` at a time in chunks of 29, each result dropped at the
// next chunk and freed by the worker that made it, as bind_many.cpp's Graveyard does.
std::vector<bool> chunked_oks(unsigned jobs, const std::string& requests) {
  PolicyLoad policy = Policy::parse(read("policies/production-cks.yaml"), Format::yaml, "production-cks.yaml");
  Engine engine(policy.policy);
  struct Plot {
    std::mutex mu;
    std::vector<std::unique_ptr<Result>> dead;
  };
  std::vector<Plot> plots(jobs);
  auto free_some = [&](unsigned w) {
    std::vector<std::unique_ptr<Result>> out;
    std::lock_guard lock(plots[w].mu);
    for (int i = 0; i < 2 && !plots[w].dead.empty(); ++i) {
      out.push_back(std::move(plots[w].dead.back()));
      plots[w].dead.pop_back();
    }
  };
  RecordChecker checker(engine, {}, jobs, "requests.jsonl", Limits{}, free_some);
  auto reader = RequestReader::from_text(requests, "requests.jsonl");
  std::vector<bool> oks;
  std::vector<std::pair<std::unique_ptr<Result>, unsigned>> chunk;
  for (;;) {
    for (auto& [r, w] : chunk) {  // what the caller let go of, back to its worker
      std::lock_guard lock(plots[w].mu);
      plots[w].dead.push_back(std::move(r));
    }
    chunk.clear();
    std::size_t n = checker.take([&](PendingRecord& p) { return reader->next(p); },
                                 [&](RequestRecord&&, std::unique_ptr<Result> r, unsigned w) {
                                   oks.push_back(r->ok());
                                   chunk.emplace_back(std::move(r), w);
                                   return true;
                                 },
                                 29);
    if (n < 29) break;
  }
  return oks;
}

std::vector<bool> oks_at_once(const std::string& requests) {
  PolicyLoad policy = Policy::parse(read("policies/production-cks.yaml"), Format::yaml, "production-cks.yaml");
  Engine engine(policy.policy);
  auto reader = RequestReader::from_text(requests, "requests.jsonl");
  std::vector<bool> oks;
  check_records([&](PendingRecord& p) { return reader->next(p); }, reader->name(), reader->limits(), engine, {}, 1,
                [&](RequestRecord&&, Result&& r) {
                  oks.push_back(r.ok());
                  return true;
                });
  return oks;
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
  std::vector<bool> at_once = oks_at_once(requests);
  for (unsigned jobs : {1u, 2u, 3u}) {
    if (chunked_oks(jobs, requests) != at_once) {
      std::fprintf(stderr, "streams_threads_test: a chunked check on %u threads differs from check_records\n", jobs);
      ++failures;
    }
  }
  std::printf("streams_threads_test: %zu records checked in chunks on 1, 2 and 3 threads, freed by their workers: %s\n",
              at_once.size(), failures ? "DIFFERENT" : "identical");
  return failures ? 1 : 0;
}
