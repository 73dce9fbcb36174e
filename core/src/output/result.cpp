// Result: what is known at once (ok, the Resolution, the findings) and what is made on first
// access — the diagnostics as text and the resolved sandbox — kept once made. The lazy parts are
// published with a compare-and-swap, so a const Result can be read from several threads.
#include "sandgate/result.h"

#include <algorithm>

#include "engine/rules.h"
#include "output/output.h"
#include "sandgate/request.h"
#include "sandgate/small_vector.h"

namespace sandgate {

namespace {

template <typename T, typename Build>
const T& lazy_get(std::atomic<T*>& slot, Build build) {
  if (T* v = slot.load(std::memory_order_acquire)) return *v;
  auto made = std::make_unique<T>(build());
  T* expected = nullptr;
  if (slot.compare_exchange_strong(expected, made.get(), std::memory_order_acq_rel)) return *made.release();
  return *expected;  // another thread made it first
}

output::ReadingPlace place_of(const Diagnostic& d) {
  if (!d.source) return {d.input, 0, d.walk_order};
  return {d.input, d.source->line, d.source->column};
}

// The order to read n diagnostics in, given each one's place: inputs in order of first mention,
// then line and column (diagnostics without a position keep their relative order). Empty when
// they are in that order already, the usual case: then nothing is allocated.
template <typename PlaceOf>
std::vector<std::size_t> reading_order(std::size_t n, PlaceOf place) {
  std::vector<std::size_t> order;
  if (n < 2) return order;
  // The inputs in order of first mention: a handful (sandbox, defaults, overrides, policy,
  // runners, org), kept without allocating.
  SmallVector<std::string_view, 8> inputs;
  auto rank = [&](std::string_view input) -> std::size_t {
    auto at = std::find(inputs.begin(), inputs.end(), input);
    if (at == inputs.end()) {
      inputs.push_back(input);
      return inputs.size() - 1;
    }
    return static_cast<std::size_t>(at - inputs.begin());
  };
  struct Key {
    std::size_t rank;
    int line, column;
    std::size_t index;
    auto operator<=>(const Key&) const = default;
  };
  auto key = [&](std::size_t i) {
    output::ReadingPlace p = place(i);
    return Key{rank(p.input), p.line, p.column, i};
  };
  Key previous = key(0);
  std::size_t i = 1;
  for (; i < n; ++i) {
    Key k = key(i);
    if (k < previous) break;
    previous = k;
  }
  if (i == n) return order;
  // Otherwise the keys are sorted (the index keeps it stable). Ranks are first-mention order, so
  // the keys already made stay valid.
  std::vector<Key> keys;
  keys.reserve(n);
  for (std::size_t j = 0; j < n; ++j) keys.push_back(key(j));
  std::sort(keys.begin(), keys.end());
  order.reserve(n);
  for (const Key& k : keys) order.push_back(k.index);
  return order;
}

}  // namespace

Result::Result() = default;
Result::~Result() = default;

void Result::copy_from(const Result& other) {
  ok_ = other.ok_;
  checked_ = other.checked_;
  eager_ = other.eager_;
  request_ = other.request_;
  inputs_ = other.inputs_;
  resolution_ = other.resolution_;
  findings_ = other.findings_;
  own_resolved_ = other.own_resolved_;
  diagnostics_.reset();
  output_.reset();
}

Result::Result(const Result& other) { copy_from(other); }

Result& Result::operator=(const Result& other) {
  if (this != &other) copy_from(other);
  return *this;
}

Result::Result(Result&& other) noexcept
    : ok_(other.ok_),
      checked_(other.checked_),
      eager_(std::move(other.eager_)),
      request_(std::move(other.request_)),
      inputs_(std::move(other.inputs_)),
      resolution_(std::move(other.resolution_)),
      findings_(std::move(other.findings_)),
      own_resolved_(std::move(other.own_resolved_)) {
  // The Resolution moved with us; what was made from it stays valid (it points into the Request,
  // Policy and Runners, never into the Resolution).
  diagnostics_.value.store(other.diagnostics_.value.exchange(nullptr));
  output_.value.store(other.output_.value.exchange(nullptr));
}

Result& Result::operator=(Result&& other) noexcept {
  if (this == &other) return *this;
  ok_ = other.ok_;
  checked_ = other.checked_;
  eager_ = std::move(other.eager_);
  request_ = std::move(other.request_);
  inputs_ = std::move(other.inputs_);
  resolution_ = std::move(other.resolution_);
  findings_ = std::move(other.findings_);
  own_resolved_ = std::move(other.own_resolved_);
  diagnostics_.reset();
  output_.reset();
  diagnostics_.value.store(other.diagnostics_.value.exchange(nullptr));
  output_.value.store(other.output_.value.exchange(nullptr));
  return *this;
}

Result Result::from_diagnostics(Diagnostics diagnostics) {
  Result r;
  r.ok_ = !has_errors(diagnostics);
  r.eager_ = std::move(diagnostics);
  return r;
}

Result Result::from_resolved(Diagnostics diagnostics, Node resolved, QosClass qos) {
  Result r = from_diagnostics(std::move(diagnostics));
  r.own_resolved_ = std::make_shared<const Node>(std::move(resolved));
  r.resolution_.qos = qos;
  return r;
}

void Result::add_diagnostics(const Diagnostics& more) {
  if (more.empty()) return;
  eager_.insert(eager_.end(), more.begin(), more.end());
  ok_ = ok_ && !has_errors(more);
  diagnostics_.reset();
}

Diagnostics Result::take_errors() && {
  auto errors_of = [](Diagnostics all) {
    std::erase_if(all, [](const Diagnostic& d) { return d.severity != Severity::error; });
    return all;
  };
  if (Diagnostics* made = diagnostics_.value.load(std::memory_order_acquire)) return errors_of(std::move(*made));
  if (findings_.empty()) return errors_of(collect_diagnostics());
  // The errors of diagnostics(), in its order, with only the error findings put into words.
  // That order ranks the inputs by first mention among all the diagnostics, so every finding's
  // place is read (cheap). Positions below run over the list collect_diagnostics makes: the load
  // errors, the request's own diagnostics, the findings, the eager diagnostics.
  const Diagnostics& given = inputs_->errors;
  const Diagnostics& own = request_->diagnostics();
  const std::size_t n_given = given.size(), n_own = n_given + own.size(), n_found = n_own + findings_.size();
  const std::size_t n = n_found + eager_.size();
  FindingContext cx{request_->model(), resolution_, *resolution_.policy_model, *inputs_};
  auto place = [&](std::size_t i) -> output::ReadingPlace {
    if (i < n_given) return place_of(given[i]);
    if (i < n_own) return place_of(own[i - n_given]);
    if (i < n_found) return output::reading_place(cx, findings_[i - n_own]);
    return place_of(eager_[i - n_found]);
  };
  Diagnostics errors;
  errors.reserve(error_count());
  auto take = [&](std::size_t i) {
    auto is_error = [](const auto& x) { return x.severity == Severity::error; };
    if (i < n_given) {
      if (is_error(given[i])) errors.push_back(given[i]);
    } else if (i < n_own) {
      if (is_error(own[i - n_given])) errors.push_back(own[i - n_given]);
    } else if (i < n_found) {
      if (is_error(findings_[i - n_own])) errors.push_back(output::materialize(cx, findings_[i - n_own]));
    } else if (is_error(eager_[i - n_found])) {
      errors.push_back(std::move(eager_[i - n_found]));
    }
  };
  auto order = reading_order(n, place);
  if (order.empty()) {
    for (std::size_t i = 0; i < n; ++i) take(i);
  } else {
    for (std::size_t i : order) take(i);
  }
  return errors;
}

const Diagnostics& Result::diagnostics() const {
  return lazy_get(diagnostics_.value, [&] { return collect_diagnostics(); });
}

Diagnostics Result::collect_diagnostics() const {
  Diagnostics all;
  // One allocation: grown one push at a time, the vector moved each diagnostic (a large object)
  // on every doubling.
  all.reserve((inputs_ ? inputs_->errors.size() : 0) + (request_ ? request_->diagnostics().size() : 0) +
              findings_.size() + eager_.size());
  if (inputs_) all.insert(all.end(), inputs_->errors.begin(), inputs_->errors.end());
  if (request_) all.insert(all.end(), request_->diagnostics().begin(), request_->diagnostics().end());
  if (!findings_.empty()) {
    FindingContext cx{request_->model(), resolution_, *resolution_.policy_model, *inputs_};
    for (const auto& f : findings_) all.push_back(output::materialize(cx, f));
  }
  all.insert(all.end(), eager_.begin(), eager_.end());
  sort_for_reading(all);
  return all;
}

std::size_t Result::error_count() const {
  std::size_t n = 0;
  auto count = [&](const Diagnostics& ds) {
    for (const auto& d : ds) n += d.severity == Severity::error;
  };
  if (inputs_) count(inputs_->errors);
  if (request_) count(request_->diagnostics());
  for (const auto& f : findings_) n += f.severity == Severity::error;
  count(eager_);
  return n;
}

std::vector<const Diagnostic*> Result::with_severity(Severity s) const {
  std::vector<const Diagnostic*> out;
  for (const auto& d : diagnostics()) {
    if (d.severity == s) out.push_back(&d);
  }
  return out;
}

const ResolvedOutput& Result::output() const {
  return lazy_get(output_.value, [&] {
    if (own_resolved_) return ResolvedOutput{*own_resolved_, {}, {}};
    if (!checked_) return ResolvedOutput{};
    FindingContext cx{request_->model(), resolution_, *resolution_.policy_model, *inputs_};
    return output::resolve(cx);
  });
}

std::string_view Result::placement_mode() const { return checked_ ? to_string(resolution_.mode) : std::string_view(); }

std::string_view Result::qos_class() const { return checked_ || own_resolved_ ? to_string(resolution_.qos) : std::string_view(); }

std::string_view Result::runner_id() const { return checked_ ? resolution_.runner_id : std::string_view(); }

std::vector<std::string> Result::other_candidates() const {
  std::vector<std::string> out;
  const Resolution& r = resolution_;
  if (!checked_ || !r.primary || r.primary->builtin) return out;
  for (std::size_t i = 1; i < r.candidates.size(); ++i) out.push_back(r.candidates[i]->id);
  return out;
}

std::optional<GpuResolution> Result::gpu() const {
  if (!checked_ || !resolution_.gpu) return std::nullopt;
  const model::GpuRequest* g = request_->model().gpu();
  GpuResolution out;
  out.count = g->count;
  out.type = g->type;
  out.memory_gb = g->memory_gb;
  for (auto t : resolution_.eligible_gpu_types) out.eligible_types.emplace_back(t);
  return out;
}

std::optional<RuntimeClassResolution> Result::runtime_class() const {
  if (!checked_) return std::nullopt;
  return RuntimeClassResolution{std::string(resolution_.runtime_class), output::runtime_class_source(request_->model(), resolution_)};
}

std::optional<SlurmMapping> Result::slurm() const {
  if (!checked_ || !resolution_.slurm) return std::nullopt;
  SlurmMapping out;
  out.scheduler = std::string(resolution_.scheduler);
  out.cpus_per_task = resolution_.cpus_per_task;
  out.min_memory_node = resolution_.min_memory_node;
  out.job_parameters = engine::slurm_job_parameters(request_->model(), *resolution_.policy_model, resolution_);
  return out;
}

void sort_for_reading(Diagnostics& diagnostics) {
  auto order = reading_order(diagnostics.size(), [&](std::size_t i) { return place_of(diagnostics[i]); });
  if (order.empty()) return;
  // Each diagnostic, a large object, is moved once.
  Diagnostics sorted;
  sorted.reserve(diagnostics.size());
  for (std::size_t i : order) sorted.push_back(std::move(diagnostics[i]));
  diagnostics = std::move(sorted);
}

}  // namespace sandgate
