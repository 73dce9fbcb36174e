// The JSON Pointer of an Origin, written out only when someone reads it.
//
// A compiled policy records where each of its values was written, and a request where each of
// its values came from, for the diagnostics that may name them later; most never do. Writing
// every pointer as text when it was recorded cost a policy compile a fifth of its instructions
// (and a heap block for each pointer past the 15-character short-string buffer). A deferred
// pointer keeps the walk instead: where it started (`base`, text that must outlive it) and up to
// k_steps member or index steps into a tree that must also outlive it and not change. Only the
// compiled Policy, Runners and Request models use deferred pointers, over trees they own and
// never modify once read; anything else (or a deeper walk) is written out at once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sandgate/node.h"

namespace sandgate::model {

class InputPointer {
 public:
  static constexpr std::size_t k_steps = 6;

  InputPointer() = default;
  InputPointer(std::string text) : text_(std::move(text)) {}  // NOLINT: text converts implicitly
  InputPointer(const char* text) : text_(text) {}              // NOLINT
  // Copies only the steps in use: origins are many, and mostly written or shallow.
  InputPointer(const InputPointer& o) : text_(o.text_) { copy_walk(o); }
  InputPointer(InputPointer&& o) noexcept : text_(std::move(o.text_)) { copy_walk(o); }
  InputPointer& operator=(const InputPointer& o) {
    if (this != &o) {
      text_ = o.text_;
      copy_walk(o);
    }
    return *this;
  }
  InputPointer& operator=(InputPointer&& o) noexcept {
    text_ = std::move(o.text_);
    copy_walk(o);
    return *this;
  }
  ~InputPointer() = default;

  // A deferred pointer: `base`, then each step a member (its key as the input spelled it) or, for
  // a null member, an array index. `Step` is any type with `member` and `index` (Cursor::Step).
  // A walk deeper than k_steps is written at once.
  template <typename Step>
  static InputPointer deferred(std::string_view base, const Step* steps, std::size_t n) {
    InputPointer p;
    if (n > k_steps) {
      p.text_ = std::string(base);
      for (std::size_t i = 0; i < n; ++i) append(p.text_, encode(steps[i].member, steps[i].index));
      return p;
    }
    p.base_ = base;
    p.n_ = static_cast<std::uint8_t>(n);
    for (std::size_t i = 0; i < n; ++i) p.steps_[i] = encode(steps[i].member, steps[i].index);
    return p;
  }

  // A written pointer has no walk, a deferred one no text (an empty walk from "" is "" either way).
  std::string str() const {
    if (base_.empty() && n_ == 0) return text_;
    // Made in one allocation: appended step by step, a pointer past the inline buffer grew twice.
    std::size_t size = base_.size();
    for (std::size_t i = 0; i < n_; ++i) size += 1 + ((steps_[i] & 1) ? 20 : reinterpret_cast<const Member*>(steps_[i])->input_key().size());
    std::string out;
    out.reserve(size);  // a token with "~" or "/" to escape may add another
    out.append(base_);
    for (std::size_t i = 0; i < n_; ++i) append(out, steps_[i]);
    return out;
  }
  operator std::string() const { return str(); }  // NOLINT: reads as the text it stands for

  // The text of a pointer that is not deferred (a merged field's, which cursors start from).
  std::string_view written() const { return text_; }

  bool empty() const { return text_.empty() && base_.empty() && n_ == 0; }

  friend bool operator==(const InputPointer& a, const InputPointer& b) { return a.str() == b.str(); }

 private:
  // A member by its address (aligned: the low bit is 0), an index as (index << 1) | 1.
  static std::uintptr_t encode(const Member* member, std::size_t index) {
    return member ? reinterpret_cast<std::uintptr_t>(member) : (static_cast<std::uintptr_t>(index) << 1) | 1u;
  }
  static void append(std::string& out, std::uintptr_t step) {
    if (step & 1) {
      pointer_append(out, static_cast<std::size_t>(step >> 1));
    } else {
      pointer_append(out, reinterpret_cast<const Member*>(step)->input_key());
    }
  }
  void copy_walk(const InputPointer& o) {
    base_ = o.base_;
    n_ = o.n_;
    std::copy_n(o.steps_, n_, steps_);
  }

  std::string text_;       // the pointer, when written
  std::string_view base_;  // the walk, when deferred: where it starts,
  std::uint8_t n_ = 0;     // how many steps it takes,
  std::uintptr_t steps_[k_steps];  // and the steps (the first n_ are set)
};

}  // namespace sandgate::model
