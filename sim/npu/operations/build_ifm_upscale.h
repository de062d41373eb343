// IFM_UPSCALE: convolutions and pooling may read their IFM upscaled 2x in
// H and W (Vela: nearest-neighbour resize on U55, transpose convolution).
// The builder copies the IFM into a dense upscaled map in the workspace;
// kernels then read that map like any IFM.
#pragma once

#include "sim/npu/operations/context.h"
#include "sim/npu/operations/operation.h"

namespace ethosu_sdk::npu {

// With IFM_UPSCALE set: checks the stored IFM box the upscaled window
// [0, window.ifm_h) x [0, window.ifm_w) x [0, depth) reads, and points
// op->ifm at its copy (filled by UpscaleIfm before the kernel runs).
Status PrepareIfmUpscale(Context& ctx, const Window& window, int depth, Operation* op);

// For the operations that take no upscaled IFM (elementwise, matmul,
// pooling mode NONE, resize): an error if IFM_UPSCALE is set.
Status RefuseIfmUpscale(const RegisterFile& regs, const char* operation);

}  // namespace ethosu_sdk::npu
