// The model's working memory inside the caller's Workspace: a bump
// allocator reset after every operation, and the chain buffers at its top
// that carry a chained OFM (U85) from one operation to the next.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cc/core/status.h"

namespace ethosu_sdk::npu {

class WorkspaceArena {
 public:
  WorkspaceArena(uint8_t* data, size_t size) : data_(data), size_(size), top_(size) {}

  void* Take(size_t bytes, const char* what, Status* status) {
    const size_t aligned = (used_ + kAlign - 1) & ~(kAlign - 1);
    const size_t top = pending_bytes_ != 0 ? pending_ : top_;  // below both chain buffers
    if (aligned > top || bytes > top - aligned) {
      *status = Status::Error(ErrorCode::kNpuLimit, "workspace too small for %s (%u bytes more)",
                              what, unsigned(bytes - (top > aligned ? top - aligned : 0)));
      return nullptr;
    }
    used_ = aligned + bytes;
    return data_ + aligned;
  }
  template <typename T>
  T* TakeArray(size_t count, const char* what, Status* status) {
    if (count > (~size_t(0)) / sizeof(T)) {
      *status = Status::Error(ErrorCode::kNpuLimit, "workspace too small for %s", what);
      return nullptr;
    }
    return static_cast<T*>(Take(count * sizeof(T), what, status));
  }
  size_t used() const { return used_; }
  void Reset(size_t to) { used_ = to; }

  // An operation may read one chain buffer while it writes the next (Vela
  // chains reduce-sum -> sub -> mul -> add), so the new one goes below the
  // current one and moves up to the top once the operation is done.
  uint8_t* TakeTop(size_t bytes, Status* status) {
    const size_t limit = (used_ + kAlign - 1) & ~(kAlign - 1);
    if (bytes > top_ || ((top_ - bytes) & ~(kAlign - 1)) < limit) {
      *status =
          Status::Error(ErrorCode::kNpuLimit, "workspace too small for a chain buffer of %u bytes",
                        unsigned(bytes));
      return nullptr;
    }
    pending_ = (top_ - bytes) & ~(kAlign - 1);
    pending_bytes_ = bytes;
    return data_ + pending_;
  }
  // Moves the chain buffer the last operation wrote (if any) to the top,
  // replacing the one it read; returns its new place or null.
  uint8_t* SettleTop() {
    if (pending_bytes_ == 0) return nullptr;
    const size_t to = (size_ - pending_bytes_) & ~(kAlign - 1);
    memmove(data_ + to, data_ + pending_, pending_bytes_);
    top_ = to;
    pending_bytes_ = 0;
    return data_ + to;
  }

 private:
  static constexpr size_t kAlign = 64;  // a cache line: kernels load 16-32 bytes at a time
  uint8_t* data_;
  size_t size_;
  size_t top_;
  size_t pending_ = 0, pending_bytes_ = 0;
  size_t used_ = 0;
};

}  // namespace ethosu_sdk::npu
