// A validated NPU operation: everything its kernel needs, decoded from the
// registers once and checked once (feature-map boxes inside their regions,
// work within limits, weights and scales decoded). Kernels run unchecked
// loops over it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/npu/memory/feature_map.h"
#include "sim/npu/memory/window.h"
#include "sim/npu/operations/elementwise_modes.h"
#include "sim/npu/output/output_writer.h"
#include "sim/npu/weights/packed_weights.h"

namespace ethosu_sdk::npu {

enum class OperationKind {
  kConvolution,
  kDepthwise,
  kMatMul,  // CONV with weights from IFM2
  kPooling,
  kNullPool,     // POOL mode NONE: accumulators from IFM2
  kElementwise,  // U85
  kElementwiseU55,
  kResize,  // U85 NPU_OP_RESIZE
};

// Pooling modes (NPU_OP_POOL parameter).
enum PoolMode : int {
  kPoolMax = 0,
  kPoolAverage = 1,
  kPoolReduceSum = 2,
  kPoolSum = 3,
  kPoolNone = 4,
  kPoolMin = 5
};
// Resize modes (NPU_OP_RESIZE parameter).
enum ResizeMode : int { kResizeBilinear = 0, kResizeReplicate = 1, kResizeNearest = 2 };

// NPU_OP_RESIZE along one axis (TOSA RESIZE's integer form): OFM index o
// sits at position o * step + offset, in units of 1/scale_n of an IFM
// element; the IFM has `extent` elements on the axis.
struct ResizeAxis {
  int scale_n = 1, step = 1, offset = 0, extent = 1;
};

// U55 elementwise pre-scaling (IFM_PRECISION.scale_mode and OPA/OPB scales).
struct U55Scaling {
  int scale_mode = 0;
  RoundMode round = RoundMode::kNatural;
  int64_t opa_scale = 0, opb_scale = 0;
  int opa_shift = 0;
  bool swapped = false;  // IFM2 is operand A
};

struct Operation {
  OperationKind kind = OperationKind::kConvolution;
  int mode = 0;  // PoolMode, ElementwiseMode or ResizeMode
  FeatureMap ifm, ifm2, ofm;
  Window window;
  OutputStage output;
  PackedWeights weights;
  // U55/U65 arithmetic: the 40-bit bias joins after the 32-bit sum, and
  // a scaled AVERAGE sums (see pooling.cc).
  bool u55 = false;
  // Elementwise: IFM/IFM2 pre-scaling, or one operand a scalar (the IFM2,
  // or on U85 the IFM too) whose value is `scalar_value`.
  Scale ifm_scale, ifm2_scale;
  U55Scaling u55_scaling;
  bool scalar = false;      // IFM2 is the scalar
  bool ifm_scalar = false;  // IFM is the scalar (U85)
  bool unary = false;       // no IFM2 (ABS, CLZ, NOT)
  int32_t scalar_value = 0;
  // Pooling mode NONE and MatMul: the accumulator width sums wrap to
  // (ACC_FORMAT: 32 or 48 bits).
  int accumulator_bits = 32;
  // Convolution with ACC_INPUT IFM2: its sums start from IFM2's 32-bit
  // accumulators (an OFM-shaped feature map) instead of 0.
  bool accumulate_ifm2 = false;
  // U85 accumulator chaining (convolution): with `keep_input` (ACC_INPUT
  // KEEP) the sums start from `kept`, the accumulators the previous
  // operation left (OFM-shaped, HWC, 32-bit); with `keep_output` (ACC_OUTPUT
  // disabled) they are left in `kept` unscaled and no OFM is written.
  uint32_t* kept = nullptr;
  bool keep_input = false, keep_output = false;
  // Resize: the axes.
  ResizeAxis resize_y, resize_x;
  // IFM_UPSCALE (nearest, or zeros between elements): the IFM as stored;
  // `ifm` is then its 2x upscaled copy in the workspace (`upscaled`),
  // which the kernel reads.
  bool upscale = false, upscale_zeros = false;
  FeatureMap upscale_source;
  Region upscaled;
  // Kernel scratch from the workspace, sized by the builder.
  void* scratch = nullptr;
  uint64_t macs = 0;  // multiply-accumulates the kernel performs
};

}  // namespace ethosu_sdk::npu
