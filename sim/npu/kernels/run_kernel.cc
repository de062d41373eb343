#include "sim/npu/kernels/run_kernel.h"

#include "sim/npu/kernels/convolution.h"
#include "sim/npu/kernels/elementwise.h"
#include "sim/npu/kernels/ifm_upscale.h"
#include "sim/npu/kernels/pooling.h"
#include "sim/npu/kernels/resize.h"

namespace ethosu_sdk::npu {

bool KernelScratchBytes(const Operation& op, size_t* bytes) {
  switch (op.kind) {
    case OperationKind::kConvolution:
    case OperationKind::kDepthwise:
      *bytes = ConvolutionScratchBytes(op);
      return true;
    case OperationKind::kMatMul:
      *bytes = MatMulScratchBytes(op);
      return true;
    case OperationKind::kPooling:
    case OperationKind::kNullPool:
    case OperationKind::kElementwise:
    case OperationKind::kElementwiseU55:
    case OperationKind::kResize:
      break;
  }
  return false;
}

void RunKernel(const Operation& op) {
  if (op.upscale) UpscaleIfm(op);
  switch (op.kind) {
    case OperationKind::kConvolution:
    case OperationKind::kDepthwise:
      return RunConvolution(op);
    case OperationKind::kMatMul:
      return RunMatMul(op);
    case OperationKind::kPooling:
      return RunPooling(op);
    case OperationKind::kNullPool:
      return RunNullPool(op);
    case OperationKind::kElementwise:
      return RunElementwise(op);
    case OperationKind::kElementwiseU55:
      return RunElementwiseU55(op);
    case OperationKind::kResize:
      return RunResize(op);
  }
}

}  // namespace ethosu_sdk::npu
