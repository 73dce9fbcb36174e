// Running one function over a stream of inputs on several threads, with the outputs delivered in
// input order and a bounded amount in flight (a reorder window of batches, capped in count and in
// bytes), so a stream of any length needs the same memory.
//
// The calling thread reads (`produce`) and delivers (`deliver`); workers run `work`. With one job
// everything runs on the calling thread, with no thread at all.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace sandgate::stream {

struct PoolOptions {
  unsigned jobs = 1;
  std::size_t batch_items = 64;             // inputs per batch
  std::size_t batch_bytes = 1 << 20;        // or fewer, once their weight reaches this
  std::size_t window_batches = 0;           // batches in flight; 0 = 4 per job
  std::size_t window_bytes = 64u << 20;     // weight in flight (one batch may overshoot it)
};

// produce(In&) -> bool        the next input, false at the end (calling thread)
// weight(const In&) -> size_t its size in bytes, for the memory bound
// work(In&&) -> Out           any thread
// deliver(Out&&) -> bool      in input order (calling thread); false stops early
// Returns false when `deliver` stopped it. An exception thrown by `work` is rethrown here.
template <typename In, typename Out, typename Produce, typename Weight, typename Work, typename Deliver>
bool run_ordered(const PoolOptions& options, Produce produce, Weight weight, Work work, Deliver deliver) {
  if (options.jobs <= 1) {
    for (;;) {
      In in;
      if (!produce(in)) return true;
      if (!deliver(work(std::move(in)))) return false;
    }
  }

  struct Batch {
    std::vector<In> in;
    std::vector<Out> out;
    std::size_t bytes = 0;
    bool done = false;
    std::exception_ptr error;
  };
  std::mutex mu;
  std::condition_variable work_ready, batch_done;
  std::deque<Batch*> queue;
  bool closing = false;

  auto worker = [&] {
    for (;;) {
      Batch* b;
      {
        std::unique_lock lock(mu);
        work_ready.wait(lock, [&] { return closing || !queue.empty(); });
        if (queue.empty()) return;
        b = queue.front();
        queue.pop_front();
      }
      try {
        b->out.reserve(b->in.size());
        for (auto& x : b->in) b->out.push_back(work(std::move(x)));
      } catch (...) {
        b->error = std::current_exception();
      }
      b->in.clear();
      {
        std::lock_guard lock(mu);
        b->done = true;
      }
      batch_done.notify_all();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(options.jobs);
  for (unsigned i = 0; i < options.jobs; ++i) threads.emplace_back(worker);
  auto stop_workers = [&] {
    {
      std::lock_guard lock(mu);
      closing = true;
      queue.clear();
    }
    work_ready.notify_all();
    for (auto& t : threads) t.join();
  };

  const std::size_t max_batches = options.window_batches ? options.window_batches : 4u * options.jobs;
  std::deque<std::unique_ptr<Batch>> window;  // in input order
  std::size_t in_flight = 0;
  bool more = true, completed = true;
  std::exception_ptr error;
  while (more || !window.empty()) {
    while (more && window.size() < max_batches && in_flight < options.window_bytes) {
      auto b = std::make_unique<Batch>();
      b->in.reserve(options.batch_items);
      while (b->in.size() < options.batch_items && b->bytes < options.batch_bytes) {
        In x;
        if (!produce(x)) {
          more = false;
          break;
        }
        b->bytes += weight(x);
        b->in.push_back(std::move(x));
      }
      if (b->in.empty()) break;
      in_flight += b->bytes;
      {
        std::lock_guard lock(mu);
        queue.push_back(b.get());
      }
      work_ready.notify_one();
      window.push_back(std::move(b));
    }
    if (window.empty()) continue;
    Batch& front = *window.front();
    {
      std::unique_lock lock(mu);
      batch_done.wait(lock, [&] { return front.done; });
    }
    if (front.error) {
      error = front.error;
      break;
    }
    bool go_on = true;
    for (auto& o : front.out) {
      if (!deliver(std::move(o))) {
        go_on = false;
        break;
      }
    }
    in_flight -= front.bytes;
    window.pop_front();
    if (!go_on) {
      completed = false;
      break;
    }
  }
  stop_workers();
  if (error) std::rethrow_exception(error);
  return completed;
}

}  // namespace sandgate::stream
