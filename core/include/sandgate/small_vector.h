// A vector that keeps its first N elements inline and goes to the heap only past them, for the
// per-check state (candidates, findings, resolved containers) that a passing check must build
// without allocating. Elements must be trivially copyable, which keeps copies and moves simple.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>

namespace sandgate {

template <typename T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable values only");
  static_assert(N > 0);

 public:
  // User-provided, so that value-initialization (`SmallVector v{}`, `return {};` of a holder)
  // does not zero the inline buffer first: a `rep stos` of N elements was most of the time of
  // returning an empty cursor.
  SmallVector() noexcept {}  // NOLINT(modernize-use-equals-default)
  SmallVector(std::initializer_list<T> items) {
    for (const T& t : items) push_back(t);
  }
  SmallVector(const SmallVector& other) { assign(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) {
      size_ = 0;
      assign(other);
    }
    return *this;
  }
  SmallVector(SmallVector&& other) noexcept { take(other); }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  ~SmallVector() { release(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return heap_ ? heap_ : inline_data(); }
  const T* data() const { return heap_ ? heap_ : inline_data(); }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void clear() { size_ = 0; }
  void push_back(const T& value) {
    if (size_ == capacity()) grow(capacity() * 2);
    std::memcpy(static_cast<void*>(data() + size_), &value, sizeof(T));
    ++size_;
  }
  T& emplace_back() {
    push_back(T{});
    return back();
  }
  void pop_back() { --size_; }
  void erase(T* first, T* last) {
    std::memmove(static_cast<void*>(first), last, static_cast<std::size_t>(end() - last) * sizeof(T));
    size_ -= static_cast<std::size_t>(last - first);
  }
  // Keeps the elements for which `keep` is true, in order.
  template <typename Pred>
  void keep_if(Pred keep) {
    std::size_t out = 0;
    for (std::size_t i = 0; i < size_; ++i) {
      if (keep(data()[i])) data()[out++] = data()[i];
    }
    size_ = out;
  }

 private:
  alignas(T) unsigned char inline_[N * sizeof(T)];
  T* heap_ = nullptr;
  std::size_t size_ = 0;
  std::size_t heap_capacity_ = 0;

  T* inline_data() { return reinterpret_cast<T*>(inline_); }
  const T* inline_data() const { return reinterpret_cast<const T*>(inline_); }
  std::size_t capacity() const { return heap_ ? heap_capacity_ : N; }

  void grow(std::size_t capacity) {
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    T* bigger = static_cast<T*>(::operator new(capacity * sizeof(T)));
    std::memcpy(static_cast<void*>(bigger), data(), size_ * sizeof(T));
    release();
    heap_ = bigger;
    heap_capacity_ = capacity;
  }
  void release() {
    if (heap_) ::operator delete(heap_);
    heap_ = nullptr;
    heap_capacity_ = 0;
  }
  void assign(const SmallVector& other) {
    if (other.size_ > capacity()) grow(other.size_);
    std::memcpy(static_cast<void*>(data()), other.data(), other.size_ * sizeof(T));
    size_ = other.size_;
  }
  void take(SmallVector& other) {
    if (other.heap_) {
      heap_ = other.heap_;
      heap_capacity_ = other.heap_capacity_;
      other.heap_ = nullptr;
      other.heap_capacity_ = 0;
    } else {
      std::memcpy(static_cast<void*>(inline_data()), other.inline_data(), other.size_ * sizeof(T));
    }
    size_ = other.size_;
    other.size_ = 0;
  }
};

}  // namespace sandgate
