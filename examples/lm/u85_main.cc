// Greedy generation with examples/lm's U85Step (u85_step.py) in firmware:
// the loop runs here, the step is one Ethos-U85 delegate. Each call gets the
// token and the position one-hot, the mask and the KV caches, all int8 in the
// method's own input buffers; the loop writes the k/v rows each call returns
// into the caches at the position (the only cache bytes written per token)
// and feeds back the argmax of the logits once the prompt is consumed.
//
// The generation (prompt ids, tokens to generate, each input's int8 codes) is
// the tensor file the ethosu_firmware rule embeds as the model's input
// (u85_generation.py). Per call the firmware prints the logits (an OUTPUT
// record) and a TOKEN record: the NPU's PMU cycles, the board timer ticks of
// the call (instructions on QEMU's -icount) and the cache bytes written.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cc/backends/ethosu/board_npu.h"
#include "cc/backends/ethosu/ethosu_backend.h"
#include "cc/core/arena.h"
#include "cc/kernels/registry.h"
#include "cc/platform/platform.h"
#include "cc/runner/firmware_memory.h"
#include "cc/runner/protocol.h"
#include "cc/runner/tensor_file.h"
#include "cc/runtime/method.h"
#include "cc/runtime/program.h"
#include "cc/support/text_builder.h"

extern "C" const unsigned char esdk_model_pte[], esdk_model_pte_end[];
extern "C" const unsigned char esdk_model_input[], esdk_model_input_end[];

namespace {

using namespace ethosu_sdk;  // NOLINT: a firmware's main

// The step's inputs (u85_step.INPUT_NAMES) and outputs: logits, then one
// row per cache in cache order.
constexpr size_t kTokenInput = 0;
constexpr size_t kPositionInput = 1;
constexpr size_t kMaskInput = 2;
constexpr size_t kFirstCache = 3;
constexpr size_t kCaches = 4;  // k and v of two layers
constexpr size_t kInputs = kFirstCache + kCaches;
constexpr size_t kLogitsOutput = 0;
constexpr int kHeadAxis = 1, kPositionAxis = 2, kHeadDimAxis = 3;

// The generation file's records (u85_generation.py).
struct Generation {
  const int32_t* prompt = nullptr;
  size_t prompt_length = 0;
  int32_t generate = 0;
  // Per input: the int8 code of 0.0 and of its marked value (1 in a one-hot
  // row, MASKED in the mask; a cache marks nothing).
  const int8_t* codes = nullptr;
  int8_t Zero(size_t input) const { return codes[2 * input]; }
  int8_t Marked(size_t input) const { return codes[2 * input + 1]; }
};

Status ReadGeneration(Generation* out) {
  runner::TensorFile file;
  ESDK_RETURN_IF_ERROR(runner::TensorFile::Parse(
      esdk_model_input, static_cast<size_t>(esdk_model_input_end - esdk_model_input), &file));
  runner::TensorRecord prompt, generate, codes;
  if (file.count() != 3) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "generation file: %u records, not 3 (prompt, tokens, codes)",
                         static_cast<unsigned>(file.count()));
  }
  ESDK_RETURN_IF_ERROR(file.Get(0, &prompt));
  ESDK_RETURN_IF_ERROR(file.Get(1, &generate));
  ESDK_RETURN_IF_ERROR(file.Get(2, &codes));
  if (prompt.tensor.dtype != runtime::ScalarType::kInt || prompt.tensor.numel == 0 ||
      generate.tensor.dtype != runtime::ScalarType::kInt || generate.tensor.numel != 1 ||
      codes.tensor.dtype != runtime::ScalarType::kChar || codes.tensor.numel != 2 * kInputs) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "generation file: want int32 prompt ids, one int32 count and "
                         "int8 codes [%u, 2]; regenerate it with u85_generation.py",
                         static_cast<unsigned>(kInputs));
  }
  out->prompt = prompt.tensor.Data<int32_t>();
  out->prompt_length = prompt.tensor.numel;
  out->generate = *generate.tensor.Data<int32_t>();
  out->codes = codes.tensor.Data<int8_t>();
  return Status::Ok();
}

// The step must be what u85_step.py exports: int8 tensors in the default
// dim order, and nothing but NPU delegates (so no kernel reuses an input's
// buffer between calls: the caches persist in them).
Status CheckStep(const runtime::Method& method) {
  if (method.InputCount() != kInputs || method.OutputCount() != 1 + kCaches) {
    return Status::Error(
        ErrorCode::kInvalidArgument, "the step takes %u inputs and returns %u, not %u and %u",
        static_cast<unsigned>(method.InputCount()), static_cast<unsigned>(method.OutputCount()),
        static_cast<unsigned>(kInputs), static_cast<unsigned>(1 + kCaches));
  }
  for (size_t pc = 0; pc < method.InstructionCount(); ++pc) {
    if (std::strcmp(method.InstructionName(pc), "delegate") != 0) {
      return Status::Error(ErrorCode::kNotSupported,
                           "instruction %u runs %s on the CPU; the step must be all NPU",
                           static_cast<unsigned>(pc), method.InstructionName(pc));
    }
  }
  for (size_t i = 0; i < kInputs + 1 + kCaches; ++i) {
    const runtime::Value& value = i < kInputs ? method.Input(i) : method.Output(i - kInputs);
    if (!value.IsTensor() || value.tensor->dtype != runtime::ScalarType::kChar ||
        !value.tensor->HasDefaultDimOrder()) {
      return Status::Error(
          ErrorCode::kNotSupported,
          "step tensor %u is not int8 in the default dim order (compile with io=\"int8\")",
          static_cast<unsigned>(i));
    }
  }
  return Status::Ok();
}

// One clear error for a generation the cache or the vocabulary cannot hold.
Status CheckGeneration(const Generation& generation, size_t vocabulary, size_t positions) {
  const size_t calls = generation.prompt_length + static_cast<size_t>(generation.generate) - 1;
  if (generation.generate < 1 || calls > positions) {
    return Status::Error(
        ErrorCode::kInvalidArgument,
        "a prompt of %u tokens and %d generated need %u positions; the cache has %u",
        static_cast<unsigned>(generation.prompt_length), static_cast<int>(generation.generate),
        static_cast<unsigned>(calls + 1), static_cast<unsigned>(positions));
  }
  for (size_t i = 0; i < generation.prompt_length; ++i) {
    if (generation.prompt[i] < 0 || static_cast<size_t>(generation.prompt[i]) >= vocabulary) {
      return Status::Error(ErrorCode::kInvalidArgument,
                           "prompt token %u is id %d, outside the vocabulary of %u",
                           static_cast<unsigned>(i), static_cast<int>(generation.prompt[i]),
                           static_cast<unsigned>(vocabulary));
    }
  }
  return Status::Ok();
}

runtime::Tensor& InputTensor(const runtime::Method& method, size_t i) {
  return *method.Input(i).tensor;
}

void Fill(runtime::Tensor& tensor, int8_t code) { std::memset(tensor.data, code, tensor.nbytes); }

// The inputs of the call at `position` with `token`.
void SetInputs(const runtime::Method& method, const Generation& generation, int32_t token,
               size_t position) {
  runtime::Tensor& token_row = InputTensor(method, kTokenInput);
  Fill(token_row, generation.Zero(kTokenInput));
  token_row.Data<int8_t>()[token] = generation.Marked(kTokenInput);
  runtime::Tensor& position_row = InputTensor(method, kPositionInput);
  Fill(position_row, generation.Zero(kPositionInput));
  position_row.Data<int8_t>()[position] = generation.Marked(kPositionInput);
  // Cache rows from the position on are masked; the last element is the step's own row.
  runtime::Tensor& mask = InputTensor(method, kMaskInput);
  int8_t* codes = mask.Data<int8_t>();
  for (size_t j = 0; j < mask.numel; ++j) {
    codes[j] = j < position || j + 1 == mask.numel ? generation.Zero(kMaskInput)
                                                   : generation.Marked(kMaskInput);
  }
}

// Each returned k/v row into its cache at `position`: heads x head_dim bytes.
size_t WriteRows(const runtime::Method& method, size_t position) {
  size_t written = 0;
  for (size_t c = 0; c < kCaches; ++c) {
    runtime::Tensor& cache = InputTensor(method, kFirstCache + c);
    const runtime::Tensor& row = *method.Output(1 + c).tensor;
    const size_t rows = static_cast<size_t>(cache.Size(kPositionAxis));
    const size_t width = static_cast<size_t>(cache.Size(kHeadDimAxis));
    if (position >= rows) continue;  // the last position: no later call reads it
    for (int32_t h = 0; h < cache.Size(kHeadAxis); ++h) {
      std::memcpy(cache.Data<int8_t>() + (h * rows + position) * width,
                  row.Data<int8_t>() + h * width, width);
      written += width;
    }
  }
  return written;
}

int32_t Argmax(const runtime::Tensor& logits) {
  const int8_t* values = logits.Data<int8_t>();
  size_t best = 0;
  for (size_t i = 1; i < logits.numel; ++i) best = values[i] > values[best] ? i : best;
  return static_cast<int32_t>(best);
}

void Emit(TextBuilder& line) {
  line.Char('\n');
  platform::ConsoleWrite(line.c_str(), line.size());
  line.Clear();
}

struct CallFigures {
  uint64_t npu_cycles, npu_jobs, ticks, kv_written, kv_bytes;
};

void PrintToken(size_t call, int32_t token, int32_t next, const CallFigures& f) {
  char buffer[256];
  TextBuilder line(buffer, sizeof(buffer));
  line.Str("ESDK TOKEN call=").UInt(call).Str(" token=").Int(token).Str(" argmax=").Int(next);
  line.Str(" npu_cycles=").UInt(f.npu_cycles).Str(" npu_jobs=").UInt(f.npu_jobs);
  line.Str(" ticks=").UInt(f.ticks).Str(" ticks_per_second=").UInt(platform::TimerTicksPerSecond());
  line.Str(" kv_written=").UInt(f.kv_written).Str(" kv_cache=").UInt(f.kv_bytes);
  Emit(line);
}

int Fail(const Status& status) {
  runner::PrintError(status, -1);
  runner::PrintResult("ERROR");
  runner::PrintEnd();
  return 2;
}

// The prompt, then each argmax fed back: one Execute per position.
Status Generate(runtime::Method& method, const Generation& generation,
                backends::ethosu::DriverNpu& npu) {
  const runtime::Tensor& logits = *method.Output(kLogitsOutput).tensor;
  const size_t positions = InputTensor(method, kPositionInput).numel;
  ESDK_RETURN_IF_ERROR(CheckGeneration(generation, logits.numel, positions));
  size_t kv_bytes = 0;
  for (size_t c = 0; c < kCaches; ++c) {
    Fill(InputTensor(method, kFirstCache + c), generation.Zero(kFirstCache + c));
    kv_bytes += InputTensor(method, kFirstCache + c).nbytes;
  }
  const size_t calls = generation.prompt_length + static_cast<size_t>(generation.generate) - 1;
  int32_t token = generation.prompt[0];
  for (size_t call = 0; call < calls; ++call) {
    SetInputs(method, generation, token, call);
    const uint64_t cycles = npu.figures().cycles, jobs = npu.figures().jobs;
    const uint64_t start = platform::TimerTicks();
    ESDK_RETURN_IF_ERROR(method.Execute());
    const uint64_t ticks = platform::TimerTicks() - start;
    const size_t written = WriteRows(method, call);
    const int32_t next = Argmax(logits);
    runner::PrintTensor("OUTPUT", call, logits);
    PrintToken(
        call, token, next,
        {npu.figures().cycles - cycles, npu.figures().jobs - jobs, ticks, written, kv_bytes});
    token = call + 1 < generation.prompt_length ? generation.prompt[call + 1] : next;
  }
  return Status::Ok();
}

}  // namespace

int main() {
  const auto& memory = firmware::kMemory;
  backends::ethosu::DriverNpu& npu = backends::ethosu::BoardDriverNpu();
  static backends::EthosUBackend ethosu_backend(npu, memory.fast_scratch);
  runtime::Backend* const backends[] = {&ethosu_backend};
  Generation generation;
  Status status = ReadGeneration(&generation);
  if (!status.ok()) return Fail(status);
  Result<runtime::Program> program = runtime::Program::Load(
      esdk_model_pte, static_cast<size_t>(esdk_model_pte_end - esdk_model_pte));
  if (!program.ok()) return Fail(program.status());
  Arena arena(memory.runtime_arena.data(), memory.runtime_arena.size());
  runtime::Registries registries;
  registries.operators = kernels::Registry();
  registries.backends = runtime::BackendRegistry(backends, 1);
  runtime::MethodMemory method_memory;
  method_memory.runtime = &arena;
  method_memory.planned = memory.planned;
  Result<runtime::Method> method =
      runtime::Method::Load(*program, "forward", registries, method_memory);
  if (!method.ok()) return Fail(method.status());
  runner::PrintBegin("forward", method->InputCount(), method->OutputCount());
  status = CheckStep(*method);
  if (status.ok()) status = Generate(*method, generation, npu);
  if (!status.ok()) return Fail(status);
  runner::PrintResult("DONE");
  runner::PrintEnd();
  return 0;
}
