// Generation with examples/lm's U85Step (u85_step.py) in firmware: the loop
// runs here, the step is one Ethos-U85 delegate. Each call gets the token and
// the position one-hot, the mask and the KV caches, all int8 in the method's
// own input buffers; the loop writes the k/v rows each call returns into the
// caches at the position (the only cache bytes written per token) and, once
// the prompt is consumed, feeds back the token the sampler draws from the
// int8 logits (top_k_sampler.h; top-k 1 is the argmax, greedy).
//
// The generation (prompt ids, tokens to generate, each input's int8 codes,
// the sampler's top-k, seed and weight table) is the tensor file the
// ethosu_firmware rule embeds as the model's input (u85_generation.py). Per
// call the firmware prints the logits (an OUTPUT record) and a TOKEN record:
// the argmax and the token fed back, the NPU's PMU cycles, the board timer
// ticks of the call (instructions on QEMU's -icount) and the cache bytes
// written.
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
#include "examples/lm/top_k_sampler.h"

extern "C" const unsigned char esdk_model_pte[], esdk_model_pte_end[];
extern "C" const unsigned char esdk_model_input[], esdk_model_input_end[];

namespace {

using namespace ethosu_sdk;  // NOLINT: a firmware's main
using examples::lm::kWeightTableSize;

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
  // The sampler (top_k_sampler.h): k (1 is greedy), seed, weight table.
  int32_t top_k = 1;
  uint32_t seed = 1;
  const int32_t* weights = nullptr;
};

constexpr size_t kGenerationRecords = 5;  // prompt, tokens, codes, [k, seed], weights

Status ReadGeneration(Generation* out) {
  runner::TensorFile file;
  ESDK_RETURN_IF_ERROR(runner::TensorFile::Parse(
      esdk_model_input, static_cast<size_t>(esdk_model_input_end - esdk_model_input), &file));
  runner::TensorRecord prompt, generate, codes, sampling, weights;
  if (file.count() != kGenerationRecords) {
    return Status::Error(
        ErrorCode::kInvalidArgument,
        "generation file: %u records, not %u (prompt, tokens, codes, top-k and seed, weights)",
        static_cast<unsigned>(file.count()), static_cast<unsigned>(kGenerationRecords));
  }
  ESDK_RETURN_IF_ERROR(file.Get(0, &prompt));
  ESDK_RETURN_IF_ERROR(file.Get(1, &generate));
  ESDK_RETURN_IF_ERROR(file.Get(2, &codes));
  ESDK_RETURN_IF_ERROR(file.Get(3, &sampling));
  ESDK_RETURN_IF_ERROR(file.Get(4, &weights));
  const auto is = [](const runtime::Tensor& t, runtime::ScalarType dtype, size_t numel) {
    return t.dtype == dtype && (numel == 0 ? t.numel > 0 : t.numel == numel);
  };
  if (!is(prompt.tensor, runtime::ScalarType::kInt, 0) ||
      !is(generate.tensor, runtime::ScalarType::kInt, 1) ||
      !is(codes.tensor, runtime::ScalarType::kChar, 2 * kInputs) ||
      !is(sampling.tensor, runtime::ScalarType::kInt, 2) ||
      !is(weights.tensor, runtime::ScalarType::kInt, kWeightTableSize)) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "generation file: want int32 prompt ids, one int32 count, int8 codes "
                         "[%u, 2], int32 [top-k, seed] and int32 weights [%u]; regenerate it "
                         "with u85_generation.py",
                         static_cast<unsigned>(kInputs), static_cast<unsigned>(kWeightTableSize));
  }
  out->prompt = prompt.tensor.Data<int32_t>();
  out->prompt_length = prompt.tensor.numel;
  out->generate = *generate.tensor.Data<int32_t>();
  out->codes = codes.tensor.Data<int8_t>();
  out->top_k = sampling.tensor.Data<int32_t>()[0];
  out->seed = static_cast<uint32_t>(sampling.tensor.Data<int32_t>()[1]);
  out->weights = weights.tensor.Data<int32_t>();
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

// One clear error for a sampler the vocabulary or the rule cannot take.
Status CheckSampling(const Generation& generation, size_t vocabulary) {
  if (generation.top_k < 1 || static_cast<size_t>(generation.top_k) > vocabulary ||
      vocabulary > examples::lm::kMaxLogits) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "top-k of %d is outside 1 .. %u (the vocabulary); 1 is greedy",
                         static_cast<int>(generation.top_k), static_cast<unsigned>(vocabulary));
  }
  if (generation.seed == 0 || !examples::lm::ValidWeightTable(generation.weights)) {
    return Status::Error(ErrorCode::kInvalidArgument,
                         "sampler seed 0 or a weight outside [0, %d] (the first > 0); "
                         "regenerate the file with u85_generation.py",
                         static_cast<int>(examples::lm::kWeightOne));
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
  return CheckSampling(generation, vocabulary);
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

void PrintToken(size_t call, int32_t token, int32_t argmax, int32_t next, const CallFigures& f) {
  char buffer[256];
  TextBuilder line(buffer, sizeof(buffer));
  line.Str("ESDK TOKEN call=").UInt(call).Str(" token=").Int(token).Str(" argmax=").Int(argmax);
  line.Str(" next=").Int(next);
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

// The prompt, then each sampled token fed back: one Execute per position.
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
  examples::lm::XorShift32 rng(generation.seed);
  for (size_t call = 0; call < calls; ++call) {
    SetInputs(method, generation, token, call);
    const uint64_t cycles = npu.figures().cycles, jobs = npu.figures().jobs;
    const uint64_t start = platform::TimerTicks();
    ESDK_RETURN_IF_ERROR(method.Execute());
    const uint64_t ticks = platform::TimerTicks() - start;
    const size_t written = WriteRows(method, call);
    const bool prompt = call + 1 < generation.prompt_length;  // the next token is given
    const int32_t next = prompt ? generation.prompt[call + 1]
                                : examples::lm::SampleTopK(logits.Data<int8_t>(), logits.numel,
                                                           static_cast<size_t>(generation.top_k),
                                                           generation.weights, rng);
    runner::PrintTensor("OUTPUT", call, logits);
    PrintToken(
        call, token, Argmax(logits), next,
        {npu.figures().cycles - cycles, npu.figures().jobs - jobs, ticks, written, kv_bytes});
    token = next;
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
