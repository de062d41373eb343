// Reflection and replication padding of the last 1, 2 or 3 dims, for any
// dtype: reflection_pad{1,2,3}d mirror the edge (without repeating it),
// replication_pad{1,2,3}d repeat it. `padding` lists (before, after) pairs
// from the last dim backwards, as torch.nn.functional.pad does.
#include <cstdint>
#include <cstring>

#include "cc/kernels/kernel_util.h"
#include "cc/kernels/kernels.h"

namespace ethosu_sdk::kernels {
namespace {

enum class PadMode { kReflect, kReplicate };

Status Pad(const Tensor& in, IntList padding, int32_t dims, PadMode mode, Tensor& out,
           const char* name) {
  if (in.dtype != out.dtype) return DtypeError(name, out);
  if (padding.size() != static_cast<size_t>(2 * dims))
    return ShapeError("padding needs two sizes per padded dim",
                      static_cast<int64_t>(padding.size()));
  if (in.rank < dims || in.rank > dims + 2) return ShapeError("pad input rank", in.rank);
  int64_t before[runtime::kMaxRank] = {};
  int32_t shape[runtime::kMaxRank];
  for (int32_t d = 0; d < in.rank; ++d) {
    shape[d] = in.sizes[d];
    const int32_t from_end = in.rank - 1 - d;
    if (from_end >= dims) continue;
    const int64_t lo = padding[2 * static_cast<size_t>(from_end)],
                  hi = padding[2 * static_cast<size_t>(from_end) + 1];
    const int64_t size = in.sizes[d];
    if (mode == PadMode::kReflect && (lo >= size || hi >= size || lo < 0 || hi < 0)) {
      return ShapeError("reflection padding must be below the input size", lo > hi ? lo : hi, size);
    }
    if (mode == PadMode::kReplicate && (size == 0 || lo < 0 || hi < 0))
      return ShapeError("replication padding of an empty dim or negative", lo, hi);
    if (size + lo + hi > INT32_MAX) return ShapeError("padded size", size + lo + hi);
    before[d] = lo;
    shape[d] = static_cast<int32_t>(size + lo + hi);
  }
  ESDK_RETURN_IF_ERROR(ExpectShape(out, shape, in.rank, name));
  if (Overlap(in, out)) return Status::Error(ErrorCode::kNotSupported, "pad in place");
  size_t strides[runtime::kMaxRank];
  RowMajorStrides(in, strides);
  const size_t element = in.ElementSize();
  int32_t coord[runtime::kMaxRank] = {};
  for (size_t i = 0; i < out.numel; ++i) {
    size_t src = 0;
    for (int32_t d = 0; d < in.rank; ++d) {
      int64_t c = coord[d] - before[d];
      const int64_t size = in.sizes[d];
      if (mode == PadMode::kReflect) {
        if (c < 0) c = -c;
        if (c >= size) c = 2 * (size - 1) - c;
      } else {
        c = c < 0 ? 0 : c >= size ? size - 1 : c;
      }
      src += strides[d] * static_cast<size_t>(c);
    }
    std::memcpy(out.Data<uint8_t>() + i * element, in.Data<const uint8_t>() + src * element,
                element);
    NextCoord(coord, out.sizes, out.rank);
  }
  return Status::Ok();
}

}  // namespace

Status ReflectionPad1dOut(const Tensor& self, IntList padding, Tensor& out) {
  return Pad(self, padding, 1, PadMode::kReflect, out, kReflectionPad1dOutName);
}
Status ReflectionPad2dOut(const Tensor& self, IntList padding, Tensor& out) {
  return Pad(self, padding, 2, PadMode::kReflect, out, kReflectionPad2dOutName);
}
Status ReflectionPad3dOut(const Tensor& self, IntList padding, Tensor& out) {
  return Pad(self, padding, 3, PadMode::kReflect, out, kReflectionPad3dOutName);
}
Status ReplicationPad1dOut(const Tensor& self, IntList padding, Tensor& out) {
  return Pad(self, padding, 1, PadMode::kReplicate, out, kReplicationPad1dOutName);
}
Status ReplicationPad2dOut(const Tensor& self, IntList padding, Tensor& out) {
  return Pad(self, padding, 2, PadMode::kReplicate, out, kReplicationPad2dOutName);
}
Status ReplicationPad3dOut(const Tensor& self, IntList padding, Tensor& out) {
  return Pad(self, padding, 3, PadMode::kReplicate, out, kReplicationPad3dOutName);
}

}  // namespace ethosu_sdk::kernels
