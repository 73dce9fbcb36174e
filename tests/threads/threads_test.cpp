// One Policy (with runners and org) loaded once and shared by 8 threads, each running
// Engine::check on a varied set of requests in its own order; every result must equal the
// single-threaded baseline, byte for byte (result_to_json). Run under ThreadSanitizer by
// scripts/test-tsan.sh (the `tsan` preset); in the other presets it is an ordinary test.
//
// The requests: a list written here (GPU, annotations, volumes, network, multi-container, broken
// input) plus every `sandbox` text of tests/conformance/check/*.yaml and examples/sandboxes/*,
// each checked as the Python and as the TypeScript client. Half the threads check documents
// loaded once and shared; the other half load their own copy of the text each time.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "sandgate/sandgate.h"

namespace {

using namespace sandgate;

constexpr int k_threads = 8;
constexpr int k_rounds = 2;

constexpr std::string_view k_policy = R"(display_name: threads
base:
  metadata:
    annotations:
      sunk.coreweave.com/partition: sandboxes
constraints:
  resources:
    max_cpu: "8"
    max_memory: 32Gi
    min_cpu: 100m
    default_cpu: "1"
    default_memory: 1Gi
    cpu_ceiling: "16"
    memory_ceiling: 64Gi
    max_gpu_count: 4
  metadata:
    denied_annotation_prefixes: [coreweave.com/]
    max_annotation_count: 8
  lifecycle:
    default_lifetime_seconds: 3600
  security:
    allowed_runtime_classes: [kata-qemu, runc, nvidia]
    default_cpu_runtime_class: kata-qemu
    default_gpu_runtime_class: nvidia
  volumes:
    allowed_media: [STORAGE_MEDIUM_DISK, STORAGE_MEDIUM_MEMORY]
    max_size: 8Gi
  network:
    allowed_egress:
      - https_hostname: "*.example.com"
      - cidr: {cidr: 10.0.0.0/8}
)";

constexpr std::string_view k_runners = R"(runners:
  - runner_id: prod-us-east-1
    mode: cks
    gpu_types:
      - {type: H100, memory_gb: 80}
      - {type: A100, memory_gb: 40}
    max_gpu_count: 8
  - runner_id: slurm-1
    mode: cks
    sunk: {scheduler_name: tenant-slurm-slurm-scheduler, kill_wait_seconds: 60}
)";

constexpr std::string_view k_org = "gpu_allowed: true\nmax_gpus_per_sandbox: 8\n";

const char* const k_requests[] = {
    "resources: {cpu: \"1\", memory: 1Gi}\n",
    "resources: {cpu: \"100\", memory: 1Gi}\n",
    "resources:\n  requests: {cpu: 500m, memory: 512Mi}\n  limits: {cpu: \"2\", memory: 2Gi}\nplacement_mode: cks\n",
    "runner_ids: [prod-us-east-1]\nresources: {cpu: \"2\", memory: 8Gi, gpu: {count: 2, type: H100}}\n",
    "runner_ids: [prod-us-east-1]\nresources: {gpu: {count: 1, memory_gb: 40}}\n",
    "runner_ids: [prod-us-east-1]\nresources: {gpu: {count: 1, type: h100}}\n",
    "runner_ids: [slurm-1]\nresources: {cpu: 500m, memory: 1G}\n",
    "annotations:\n  coreweave.com/x: \"1\"\n  team: ml\n  sunk.coreweave.com/partition: mine\n",
    "annotations: {\"Team\": a, \"a b\": c}\n",
    "max_lifetime_seconds: 9999999\nmax_timeout_seconds: 500\n",
    "volumes:\n  - {name: scratch, mount_path: /scratch, medium: memory, size: 50%}\nresources: {cpu: \"1\", memory: 2Gi}\n",
    "volumes:\n  - {name: a, mount_path: /proc/x}\n  - {name: a, mount_path: /proc/x}\n",
    "network:\n  egress:\n    - https_hostname: api.example.com\n    - cidr: {cidr: 192.168.0.0/16}\n",
    "placement_mode: cks\ncontainers:\n  - {name: main, image: python:3.12, primary: true, resources: {cpu: \"1\", memory: 1Gi}}\n"
    "  - {name: side, image: busybox, resources: {cpu: 200m, memory: 64Mi}}\n",
    "{\"containerImage\": \"python:3.12\", \"maxLifetimeSeconds\": 60, \"tags\": [\"a\", \"a\"]}\n",
    "tags: [nightly, \"bad tag\"]\nrunner_ids: serverless\n",
    "resources: {cpu: 1, memory: yes}\n",
    "profile_ids: [x]\n",
    "key: [unclosed\n",
    "",
    "- just\n- a list\n",
};

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every `sandbox` text of the conformance check cases, read with sandgate's own loader.
void add_conformance_requests(std::vector<std::string>& out) {
  std::filesystem::path dir = std::filesystem::path(SANDGATE_SOURCE_DIR) / "tests" / "conformance" / "check";
  if (!std::filesystem::is_directory(dir)) return;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    Document doc = load_document(read_file(f), Format::yaml, f.string(), "cases");
    const Node* cases = doc.loaded ? doc.root.find("cases") : nullptr;
    if (!cases || !cases->is_array()) continue;
    for (const auto& c : cases->items) {
      const Node* s = c.find("sandbox");
      if (s && s->is_string()) out.push_back(s->text);
    }
  }
}

void add_example_requests(std::vector<std::string>& out) {
  std::filesystem::path dir = std::filesystem::path(SANDGATE_SOURCE_DIR) / "examples" / "sandboxes";
  if (!std::filesystem::is_directory(dir)) return;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) out.push_back(read_file(f));
}

struct Job {
  std::string text;
  CheckOptions options;
  Document shared;       // loaded once, read by every thread
  std::string baseline;  // the single-threaded result
};

Result check_text(const Engine& engine, const std::string& text, const CheckOptions& options) {
  Document doc = load_document(text, Format::auto_detect, "sandbox.yaml", "sandbox");
  return engine.check(doc, nullptr, nullptr, options);
}

}  // namespace

int main() {
  PolicyLoad policy = Policy::parse(k_policy, Format::yaml, "policy.yaml");
  RunnersLoad runners = Runners::parse(k_runners, Format::yaml, "runners.yaml");
  OrgLoad org = Org::parse(k_org, Format::yaml, "org.yaml");
  if (!policy.ok() || !runners.ok() || !org.ok()) {
    std::fprintf(stderr, "threads_test: a fixture does not load\n");
    return 1;
  }
  // Two engines over the same shared Policy object.
  const Engine with_inventory(policy.policy, runners.runners, org.org);
  const Engine policy_only(policy.policy);

  std::vector<std::string> texts(std::begin(k_requests), std::end(k_requests));
  add_conformance_requests(texts);
  add_example_requests(texts);

  std::vector<Job> jobs;
  for (const auto& t : texts) {
    for (const char* client : {"python", "typescript"}) {
      Job j;
      j.text = t;
      j.options.client = client;
      j.shared = load_document(t, Format::auto_detect, "sandbox.yaml", "sandbox");
      jobs.push_back(std::move(j));
    }
  }
  auto engine_for = [&](std::size_t i) -> const Engine& { return i % 3 == 0 ? policy_only : with_inventory; };
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].baseline = result_to_json(engine_for(i).check(jobs[i].shared, nullptr, nullptr, jobs[i].options));
  }

  std::atomic<long> mismatches{0}, checks{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < k_threads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<std::size_t> order(jobs.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::mt19937 rng(static_cast<unsigned>(t) * 7919u + 1u);
      for (int round = 0; round < k_rounds; ++round) {
        std::shuffle(order.begin(), order.end(), rng);
        for (std::size_t i : order) {
          const Job& j = jobs[i];
          // Even threads read the shared documents; odd threads load their own copy.
          Result r = (t % 2 == 0) ? engine_for(i).check(j.shared, nullptr, nullptr, j.options)
                                  : check_text(engine_for(i), j.text, j.options);
          std::string got = result_to_json(r);
          checks.fetch_add(1, std::memory_order_relaxed);
          if (got != j.baseline) {
            if (mismatches.fetch_add(1) < 3) {
              std::fprintf(stderr, "threads_test: thread %d, request %zu differs from the baseline\n--- request\n%s\n--- baseline\n%s\n--- got\n%s\n",
                           t, i, j.text.c_str(), j.baseline.c_str(), got.c_str());
            }
          }
        }
      }
    });
  }
  for (auto& th : threads) th.join();

  std::printf("threads_test: %zu requests x %d threads x %d rounds = %ld checks against one shared policy; %ld differ from the baseline\n",
              jobs.size(), k_threads, k_rounds, checks.load(), mismatches.load());
  return mismatches.load() == 0 ? 0 : 1;
}
