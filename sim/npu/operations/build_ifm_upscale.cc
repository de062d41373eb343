#include "sim/npu/operations/build_ifm_upscale.h"

#include <cstdint>

#include "sim/npu/commands/u85_registers.h"
#include "sim/npu/stream_error.h"

namespace ethosu_sdk::npu {
namespace {

using namespace u85;

constexpr int kUpscaleFactor = 2;

int Downscaled(int extent) { return (extent + kUpscaleFactor - 1) / kUpscaleFactor; }

}  // namespace

Status PrepareIfmUpscale(Context& ctx, const Window& w, int depth, Operation* op) {
  const uint32_t mode = ctx.regs.Get(kIfmUpscaleMode);
  if (mode == kUpscaleNone) return Status::Ok();
  if (mode != kUpscaleNearest && mode != kUpscaleZeros) {
    return StreamError("bad IFM upscale mode %u", mode);
  }
  const FeatureMap& source = op->ifm;
  if (source.chained) {
    return Status::Error(ErrorCode::kNpuUnsupported, "IFM upscale of a chained IFM not supported");
  }
  // Zeros are the zero point, stored in the IFM's type (GUESS, see UpscaleIfm).
  if (mode == kUpscaleZeros &&
      (source.zero_point < source.MinValue() || source.zero_point > source.MaxValue())) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "IFM upscale with zeros and zero point %d outside the IFM type",
                         int(source.zero_point));
  }
  const Extent upscaled{w.ifm_h, w.ifm_w, depth};
  if (upscaled.empty()) return Status::Ok();  // nothing read
  // Padding applies to the upscaled IFM (Vela works the padding out in
  // upscaled coordinates): the stored IFM holds half of it, rounded up.
  ESDK_RETURN_IF_ERROR(source.Validate({Downscaled(w.ifm_h), Downscaled(w.ifm_w), depth}, false));
  // Extents below 2^19 and depth below 2^17: no overflow in 64 bits, but
  // maybe in a 32-bit size_t.
  const uint64_t elements = uint64_t(w.ifm_h) * uint64_t(w.ifm_w) * uint64_t(depth);
  ESDK_RETURN_IF_ERROR(ctx.work.Charge(elements));
  const uint64_t bytes = elements * uint64_t(source.element_bytes);
  if (bytes > uint64_t(SIZE_MAX)) {
    return Status::Error(ErrorCode::kNpuLimit, "upscaled IFM of %llu bytes",
                         (unsigned long long)bytes);
  }
  Status status;
  uint8_t* buffer = static_cast<uint8_t*>(ctx.arena.Take(size_t(bytes), "upscaled IFM", &status));
  if (buffer == nullptr) return status;
  op->upscale = true;
  op->upscale_zeros = mode == kUpscaleZeros;
  op->upscale_source = source;
  op->upscaled.data = buffer;
  op->upscaled.writable = true;
  op->upscaled.size = size_t(bytes);
  // A dense HWC map of the upscaled extent, same element type and zero point.
  FeatureMap& copy = op->ifm;
  copy.region = &op->upscaled;
  for (uint64_t& b : copy.base) b = 0;
  copy.width0 = w.ifm_w;
  copy.height0 = copy.height1 = w.ifm_h;
  copy.height = w.ifm_h;
  copy.width = w.ifm_w;
  copy.depth = depth;
  copy.stride_x = int64_t(depth) * source.element_bytes;
  copy.stride_y = int64_t(w.ifm_w) * copy.stride_x;
  copy.stride_c = 0;
  copy.brick = false;
  return Status::Ok();
}

Status RefuseIfmUpscale(const RegisterFile& regs, const char* operation) {
  if (regs.Get(kIfmUpscaleMode) == kUpscaleNone) return Status::Ok();
  return Status::Error(ErrorCode::kNpuUnsupported, "IFM upscale with %s not supported", operation);
}

}  // namespace ethosu_sdk::npu
