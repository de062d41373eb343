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

// Sets the method's inputs from records first .. first + InputCount() - 1.
Status SetInputs(runtime::Method& method, const TensorFile& inputs, uint32_t first) {
  for (uint32_t i = 0; i < method.InputCount(); ++i) {
    TensorRecord record;
    ESDK_RETURN_IF_ERROR(inputs.Get(first + i, &record));
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

// How many calls the input file holds: one set of the method's inputs per
// call, call after call (a sequence for a method whose mutable buffers
// carry state from one call to the next).
Status CountCalls(const runtime::Method& method, const TensorFile& inputs, uint32_t iterations,
                  uint32_t* calls) {
  const size_t per_call = method.InputCount();
  if (per_call == 0 && inputs.count() == 0) {
    *calls = 1;
    return Status::Ok();
  }
  if (per_call == 0 || inputs.count() == 0 || inputs.count() % per_call != 0) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "input count differs: the file has %lld tensors, the method takes %lld "
                         "(or a multiple of it: one set per call of a sequence)",
                         static_cast<long long>(inputs.count()), static_cast<long long>(per_call));
  }
  *calls = static_cast<uint32_t>(inputs.count() / per_call);
  if (*calls > 1 && iterations > 1) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "a sequence of %lld calls runs once: iterations must be 1, not %lld",
                         static_cast<long long>(*calls), static_cast<long long>(iterations));
  }
  return Status::Ok();
}

// Compares the outputs of call `call` with records call * OutputCount() ...
// of `expected`; false on any mismatch.
Status CompareOutputs(const runtime::Method& method, const TensorFile& expected, uint32_t call,
                      bool* all_pass) {
  const uint32_t first = call * static_cast<uint32_t>(method.OutputCount());
  for (uint32_t o = 0; o < method.OutputCount(); ++o) {
    TensorRecord record;
    ESDK_RETURN_IF_ERROR(expected.Get(first + o, &record));
    const runtime::Tensor& actual = *method.Output(o).tensor;
    const Comparison c = Compare(actual, record.tensor, record.scale, record.tolerance_steps);
    PrintComparison(first + o, c);
    *all_pass = *all_pass && c.shape_ok && c.mismatches == 0;
  }
  return Status::Ok();
}

Status CheckOutputs(const runtime::Method& method) {
  for (size_t o = 0; o < method.OutputCount(); ++o) {
    if (!method.Output(o).IsTensor()) {
      return Status::Error(ErrorCode::kNotSupported, "output %lld is not a tensor",
                           static_cast<long long>(o));
    }
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

  TensorFile inputs, expected;
  const uint32_t iterations = config.iterations == 0 ? 1 : config.iterations;
  uint32_t calls = 1;
  Status status = TensorFile::Parse(config.inputs, config.inputs_size, &inputs);
  if (status.ok()) status = CountCalls(method, inputs, iterations, &calls);
  if (status.ok()) status = CheckOutputs(method);
  if (status.ok() && config.expected != nullptr) {
    status = TensorFile::Parse(config.expected, config.expected_size, &expected);
    if (status.ok() && expected.count() != calls * method.OutputCount()) {
      status = Status::Error(
          ErrorCode::kInvalidArgument,
          "expected output count differs: the file has %lld tensors, %lld calls give %lld",
          static_cast<long long>(expected.count()), static_cast<long long>(calls),
          static_cast<long long>(calls * method.OutputCount()));
    }
  }
  if (!status.ok()) return Fail(status);

  InstructionProfile profile;
  const bool profiled = profile.Attach(&method, config.runtime_arena);
  bool all_pass = true;
  for (uint32_t run = 0; run < calls * iterations; ++run) {
    const uint32_t call = calls > 1 ? run : 0;
    // Memory planning may reuse an input's buffer once it is consumed, so
    // inputs are copied in again before every run (not timed).
    status = SetInputs(method, inputs, call * static_cast<uint32_t>(method.InputCount()));
    if (!status.ok()) return Fail(status);
    const uint64_t start = platform::TimerTicks();
    profile.Start(start);
    status = method.Execute();
    const uint64_t ticks = platform::TimerTicks() - start;
    if (!status.ok()) return Fail(status, method.FailedInstruction());
    PrintTime(run, ticks, platform::TimerTicksPerSecond());
    // A single call's timed iterations: the outputs are the last run's.
    if (calls == 1 && run + 1 < iterations) continue;
    const size_t first = call * method.OutputCount();
    for (size_t o = 0; o < method.OutputCount() && config.print_outputs; ++o) {
      PrintTensor("OUTPUT", first + o, *method.Output(o).tensor);
    }
    if (config.expected != nullptr) {
      status = CompareOutputs(method, expected, call, &all_pass);
      if (!status.ok()) return Fail(status);
    }
  }
  if (profiled) profile.Print(method);  // the last call's
  PrintResult(config.expected == nullptr ? "DONE" : all_pass ? "PASS" : "FAIL");
  PrintEnd();
  return config.expected == nullptr || all_pass ? kRunPass : kRunMismatch;
}

}  // namespace ethosu_sdk::runner
