#include "cc/runner/run_program.h"

#include "cc/platform/platform.h"
#include "cc/runner/instruction_profile.h"
#include "cc/runner/protocol.h"
#include "cc/runner/tensor_file.h"
#include "cc/runtime/program.h"

namespace ethosu_sdk::runner {
namespace {

RunResult Fail(const Status& status, int64_t instruction = -1) {
  PrintError(status, instruction);
  PrintResult("ERROR");
  PrintEnd();
  return kRunError;
}

Status InputDiffers(uint32_t i, const runtime::Tensor& input, const runtime::Tensor& record) {
  constexpr size_t kCapacity = 12 * runtime::kMaxRank + 3;
  char file[kCapacity], method[kCapacity], sizes[kCapacity], order[kCapacity];
  runtime::FormatSizes(record, file, sizeof(file));
  runtime::FormatSizes(input.InMemoryOrder(), method, sizeof(method));
  runtime::FormatSizes(input, sizes, sizeof(sizes));
  runtime::FormatDimOrder(input, order, sizeof(order));
  const char* record_type = runtime::ScalarTypeName(record.dtype);
  const char* input_type = runtime::ScalarTypeName(input.dtype);
  if (input.HasDefaultDimOrder()) {
    return Status::Error(
        ErrorCode::kInvalidArgument,
        "input %lld dtype or shape differs: the file has %s %s, the method takes %s %s",
        static_cast<long long>(i), record_type, file, input_type, method);
  }
  return Status::Error(
      ErrorCode::kInvalidArgument,
      "input %lld dtype or shape differs: the file has %s %s, the method takes %s %s "
      "(sizes %s in dim order %s, listed in memory order)",
      static_cast<long long>(i), record_type, file, input_type, method, sizes, order);
}

Status SetInputs(runtime::Method& method, const TensorFile& inputs) {
  if (inputs.count() != method.InputCount()) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "input count differs: the file has %lld tensors, the method takes %lld",
                         static_cast<long long>(inputs.count()),
                         static_cast<long long>(method.InputCount()));
  }
  for (uint32_t i = 0; i < inputs.count(); ++i) {
    TensorRecord record;
    ESDK_RETURN_IF_ERROR(inputs.Get(i, &record));
    const runtime::Value& value = method.Input(i);
    if (!value.IsTensor()) {
      return Status::Error(ErrorCode::kNotSupported, "input %lld is not a tensor",
                           static_cast<long long>(i));
    }
    // A record lists the sizes in memory order (schema/tensor_file.md).
    const runtime::Tensor expected = value.tensor->InMemoryOrder();
    if (expected.dtype != record.tensor.dtype || !expected.SameShape(record.tensor)) {
      return InputDiffers(i, *value.tensor, record.tensor);
    }
    ESDK_RETURN_IF_ERROR(method.SetInput(i, record.tensor.data, record.tensor.nbytes));
  }
  return Status::Ok();
}

}  // namespace

RunResult RunProgram(const RunConfig& config) {
  Result<runtime::Program> loaded_program = runtime::Program::Load(config.pte, config.pte_size);
  if (!loaded_program.ok()) return Fail(loaded_program.status());
  const runtime::Program& program = *loaded_program;

  runtime::MethodMemory memory;
  memory.runtime = config.runtime_arena;
  memory.planned = config.planned;
  Result<runtime::Method> loaded_method =
      runtime::Method::Load(program, config.method, config.registries, memory);
  if (!loaded_method.ok()) return Fail(loaded_method.status());
  runtime::Method& method = *loaded_method;
  PrintBegin(config.method, method.InputCount(), method.OutputCount());

  TensorFile inputs;
  Status status = TensorFile::Parse(config.inputs, config.inputs_size, &inputs);
  if (!status.ok()) return Fail(status);

  InstructionProfile profile;
  const bool profiled = profile.Attach(&method, config.runtime_arena);
  const uint32_t iterations = config.iterations == 0 ? 1 : config.iterations;
  for (uint32_t i = 0; i < iterations; ++i) {
    // Memory planning may reuse an input's buffer once it is consumed, so
    // inputs are copied in again before every run (not timed).
    status = SetInputs(method, inputs);
    if (!status.ok()) return Fail(status);
    const uint64_t start = platform::TimerTicks();
    profile.Start(start);
    status = method.Execute();
    const uint64_t ticks = platform::TimerTicks() - start;
    if (!status.ok()) return Fail(status, method.FailedInstruction());
    PrintTime(i, ticks, platform::TimerTicksPerSecond());
  }
  if (profiled) profile.Print(method);

  for (size_t o = 0; o < method.OutputCount(); ++o) {
    const runtime::Value& value = method.Output(o);
    if (!value.IsTensor())
      return Fail(Status::Error(ErrorCode::kNotSupported, "output %lld is not a tensor",
                                static_cast<long long>(o)));
    if (config.print_outputs) PrintTensor("OUTPUT", o, *value.tensor);
  }

  if (config.expected == nullptr) {
    PrintResult("DONE");
    PrintEnd();
    return kRunPass;
  }
  TensorFile expected;
  status = TensorFile::Parse(config.expected, config.expected_size, &expected);
  if (status.ok() && expected.count() != method.OutputCount()) {
    status = Status::Error(
        ErrorCode::kInvalidArgument,
        "expected output count differs: the file has %lld tensors, the method gives %lld",
        static_cast<long long>(expected.count()), static_cast<long long>(method.OutputCount()));
  }
  if (!status.ok()) return Fail(status);
  bool all_pass = true;
  for (uint32_t o = 0; o < expected.count(); ++o) {
    TensorRecord record;
    status = expected.Get(o, &record);
    if (!status.ok()) return Fail(status);
    const runtime::Tensor& actual = *method.Output(o).tensor;
    const Comparison c = Compare(actual, record.tensor, record.scale, record.tolerance_steps);
    PrintComparison(o, c);
    all_pass = all_pass && c.shape_ok && c.mismatches == 0;
  }
  PrintResult(all_pass ? "PASS" : "FAIL");
  PrintEnd();
  return all_pass ? kRunPass : kRunMismatch;
}

}  // namespace ethosu_sdk::runner
