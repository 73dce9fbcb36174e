// Running one function over a stream of inputs on several threads, with the outputs delivered in
// input order and a bounded amount in flight (a reorder window of batches, capped in count and in
// bytes), so a stream of any length needs the same memory.
//
// The calling thread reads (`produce`) and delivers (`deliver`); workers run `work`. With one job
// everything runs on the calling thread, with no thread at all.
//
// `OrderedPool` keeps its workers between runs, for a caller that drives a stream a part at a time
// (Python's check_many, a chunk per call): each worker has an index, passed to `work`, so what a
// worker allocated can later be given back to that same worker to free. `run_ordered` is one run
// of a pool made for it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
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

// work(In&&, worker) -> Out   on worker `worker` (0 … jobs-1; 0 is the calling thread with one job)
template <typename In, typename Out>
class OrderedPool {
  struct Batch {
    std::vector<In> in;
    std::vector<Out> out;
    std::size_t bytes = 0;
    bool taken = false;  // by a worker (under mu_)
    bool done = false;
    std::exception_ptr error;
  };

 public:
  using Work = std::function<Out(In&&, unsigned worker)>;

  OrderedPool(const PoolOptions& options, Work work) : options_(options), work_(std::move(work)) {
    if (options_.jobs <= 1) return;
    threads_.reserve(options_.jobs);
    try {
      for (unsigned i = 0; i < options_.jobs; ++i) threads_.emplace_back([this, i] { serve(i); });
    } catch (...) {
      stop();
      throw;
    }
  }
  ~OrderedPool() { stop(); }
  OrderedPool(const OrderedPool&) = delete;
  OrderedPool& operator=(const OrderedPool&) = delete;

  unsigned jobs() const { return options_.jobs <= 1 ? 1u : options_.jobs; }

  // One stream through the pool, driven a part at a time: step() delivers up to `n` outputs and
  // returns with the window still in flight, so the workers go on while the caller handles what it
  // was given (Python iterating over a chunk of results). Destroying it drops the batches no worker
  // has taken and waits for the others. One session at a time per pool.
  //
  // produce(In&) -> bool        the next input, false at the end (calling thread)
  // weight(const In&) -> size_t its size in bytes, for the memory bound
  // deliver(Out&&) -> bool      in input order (calling thread); false stops the session
  class Session {
   public:
    explicit Session(OrderedPool& pool) : pool_(pool) {}
    ~Session() { pool_.drain(window_); }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // Delivers at most `n` outputs, producing inputs as the window allows; returns false once
    // `deliver` has returned false. An exception thrown by `work` is rethrown here, and ends the
    // session. `produce` must give the same stream from call to call.
    template <typename Produce, typename Weight, typename Deliver>
    bool step(Produce produce, Weight weight, Deliver deliver, std::size_t n) {
      if (stopped_) return false;
      if (pool_.threads_.empty()) {
        for (std::size_t given = 0; given < n && more_; ++given) {
          In in;
          if (!produce(in)) {
            more_ = false;
            break;
          }
          if (!deliver(pool_.work_(std::move(in), 0))) return stop();
        }
        return true;
      }
      const std::size_t max_batches =
          pool_.options_.window_batches ? pool_.options_.window_batches : 4u * pool_.options_.jobs;
      for (std::size_t given = 0;;) {
        while (more_ && window_.size() < max_batches && in_flight_ < pool_.options_.window_bytes) {
          auto b = std::make_unique<Batch>();
          b->in.reserve(pool_.options_.batch_items);
          while (b->in.size() < pool_.options_.batch_items && b->bytes < pool_.options_.batch_bytes) {
            In x;
            if (!produce(x)) {
              more_ = false;
              break;
            }
            b->bytes += weight(x);
            b->in.push_back(std::move(x));
          }
          if (b->in.empty()) break;
          in_flight_ += b->bytes;
          window_.push_back(std::move(b));
          {
            std::lock_guard lock(pool_.mu_);
            pool_.queue_.push_back(window_.back().get());
          }
          pool_.work_ready_.notify_one();
        }
        if (given == n || window_.empty()) return true;
        Batch& front = *window_.front();
        {
          std::unique_lock lock(pool_.mu_);
          pool_.batch_done_.wait(lock, [&] { return front.done; });
        }
        if (front.error) {
          std::exception_ptr e = front.error;
          stop();
          std::rethrow_exception(e);
        }
        for (; next_out_ < front.out.size() && given < n; ++given) {
          if (!deliver(std::move(front.out[next_out_++]))) return stop();
        }
        if (next_out_ == front.out.size()) {
          in_flight_ -= front.bytes;
          window_.pop_front();
          next_out_ = 0;
        }
      }
    }
    // Every input was produced and delivered (or the session stopped).
    bool finished() const { return stopped_ || (!more_ && window_.empty()); }

   private:
    bool stop() {
      stopped_ = true;
      more_ = false;
      pool_.drain(window_);
      window_.clear();
      return false;
    }
    OrderedPool& pool_;
    std::deque<std::unique_ptr<Batch>> window_;  // in input order
    std::size_t in_flight_ = 0;
    std::size_t next_out_ = 0;  // outputs of the front batch delivered already
    bool more_ = true, stopped_ = false;
  };

  // The whole stream at once. Returns false when `deliver` stopped it; an exception thrown by
  // `work` is rethrown here. Every batch is finished or dropped before it returns.
  template <typename Produce, typename Weight, typename Deliver>
  bool run(Produce produce, Weight weight, Deliver deliver) {
    Session s(*this);
    return s.step(produce, weight, deliver, static_cast<std::size_t>(-1));
  }

 private:
  // Leaves no batch of `window` behind: those no worker has taken are dropped, the others waited for.
  void drain(std::deque<std::unique_ptr<Batch>>& window) {
    if (window.empty()) return;
    std::unique_lock lock(mu_);
    for (auto it = queue_.begin(); it != queue_.end();) {
      bool ours = false;
      for (auto& b : window) ours = ours || b.get() == *it;
      it = ours ? queue_.erase(it) : it + 1;
    }
    for (auto& b : window) {
      if (b->taken) batch_done_.wait(lock, [&] { return b->done; });
    }
  }

  void serve(unsigned index) {
    for (;;) {
      Batch* b;
      {
        std::unique_lock lock(mu_);
        work_ready_.wait(lock, [&] { return closing_ || !queue_.empty(); });
        if (queue_.empty()) return;  // closing
        b = queue_.front();
        queue_.pop_front();
        b->taken = true;
      }
      try {
        b->out.reserve(b->in.size());
        for (auto& x : b->in) b->out.push_back(work_(std::move(x), index));
      } catch (...) {
        b->error = std::current_exception();
      }
      b->in.clear();
      {
        std::lock_guard lock(mu_);
        b->done = true;
      }
      batch_done_.notify_all();
    }
  }

  void stop() {
    {
      std::lock_guard lock(mu_);
      closing_ = true;
      queue_.clear();
    }
    work_ready_.notify_all();
    for (auto& t : threads_) t.join();
    threads_.clear();
  }

  PoolOptions options_;
  Work work_;
  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable work_ready_, batch_done_;
  std::deque<Batch*> queue_;
  bool closing_ = false;
};

// One run over `produce` with a pool made for it: work(In&&) -> Out on any thread.
template <typename In, typename Out, typename Produce, typename Weight, typename Work, typename Deliver>
bool run_ordered(const PoolOptions& options, Produce produce, Weight weight, Work work, Deliver deliver) {
  OrderedPool<In, Out> pool(options, [&work](In&& x, unsigned) { return work(std::move(x)); });
  return pool.run(produce, weight, deliver);
}

}  // namespace sandgate::stream
