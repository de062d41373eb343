// Pins a Vela behaviour that departs from TOSA, in 5.1.0 and 5.2.0 (sim/npu/README.md,
// "Where Vela departs from TOSA"): for q @ k^T with q, k from unbind() of a
// 5-D tensor, the per-head MatMul commands change IFM2_BASE0 and OFM_BASE0
// but never IFM_BASE0, so every head multiplies head 0's rows.
//
// Checks, on the `attention_scores_unbind` case (1x4x16x16 int8 output):
//  1. the command stream: all matmuls (NPU_OP_CONV weights_ifm2) see one
//     IFM_BASE0 and as many distinct IFM2_BASE0 as there are heads;
//  2. the NPU model's output equals the TOSA reference model's for head 0,
//     bit for bit, and differs in every other head;
//  3. with the stream patched the way a correct compiler would write it
//     (matmul k reads IFM_BASE0 + k * IFM_STRIDE_Y, the layout of the 4-D
//     `attention_scores` case), every head is bit-exact: the difference is
//     Vela's, not the model's.
// If a Vela upgrade fixes the stream, check 1 fails: make the case a
// normal bit-exact npu_case then, and set the version in
// python/ethosu_sdk/aot/workarounds/vela_faults.py (UNBIND_MATMUL.fixed_in).
// Usage: vela_unbind_matmul_test PAYLOAD TENSORS
#include <cstdio>
#include <cstring>
#include <vector>

#include "cc/backends/ethosu/vela_payload.h"
#include "cc/runner/tensor_file.h"
#include "cc/testing/unit_test.h"
#include "sim/host/case_files.h"
#include "sim/host/ethosu_delegate.h"
#include "sim/host/payload_harness.h"

namespace {

namespace npu_harness = ethosu_sdk::npu_harness;
using ethosu_sdk::runner::TensorRecord;

// IFM_BASE0, IFM_STRIDE_Y and IFM2_BASE0 (cmd1 opcodes 0x000, 0x005, 0x080)
// in effect at each NPU_OP_CONV with weights_ifm2.
struct MatMulBases {
  uint32_t ifm = 0, ifm2 = 0, ifm_stride_y = 0;
};

std::vector<MatMulBases> MatMulBasesOf(const uint32_t* words, size_t count) {
  std::vector<MatMulBases> found;
  MatMulBases current;
  for (size_t i = 0; i < count; ++i) {
    const uint32_t word = words[i];
    const uint32_t opcode = word & 0x3FF, control = (word >> 14) & 3, param = word >> 16;
    if (control == 1) {
      if (i + 1 >= count) break;
      if (opcode == 0x000) current.ifm = words[i + 1];
      if (opcode == 0x005) current.ifm_stride_y = words[i + 1];
      if (opcode == 0x080) current.ifm2 = words[i + 1];
      ++i;
    } else if (opcode == 2 && (param & 1) != 0) {
      found.push_back(current);
    }
  }
  return found;
}

// The stream with IFM_BASE0 set to base + k * IFM_STRIDE_Y before matmul k
// and restored after it (later commands rely on the register's old value).
std::vector<uint32_t> SteppedStream(const uint32_t* words, size_t count) {
  std::vector<uint32_t> out;
  MatMulBases current;
  uint32_t k = 0;
  for (size_t i = 0; i < count; ++i) {
    const uint32_t word = words[i];
    const uint32_t opcode = word & 0x3FF, control = (word >> 14) & 3, param = word >> 16;
    if (control == 1 && i + 1 < count) {
      if (opcode == 0x000) current.ifm = words[i + 1];
      if (opcode == 0x005) current.ifm_stride_y = words[i + 1];
      out.push_back(word);
      out.push_back(words[++i]);
      continue;
    }
    const bool matmul = opcode == 2 && (param & 1) != 0 && control == 0;
    if (matmul) {
      out.push_back(0x4000);  // NPU_SET_IFM_BASE0
      out.push_back(current.ifm + k++ * current.ifm_stride_y);
    }
    out.push_back(word);
    if (matmul) {
      out.push_back(0x4000);
      out.push_back(current.ifm);
    }
  }
  return out;
}

// Runs the payload; counts the elements per head that differ from `expected`.
bool Run(const ethosu_sdk::backends::ethosu::VelaPayload& payload,
         const npu_harness::CaseFiles& files, const TensorRecord& expected, size_t heads,
         size_t per_head, std::vector<size_t>* differ) {
  npu_harness::HarnessOptions options;
  options.output_fill = 0xA5;
  npu_harness::PayloadHarness harness;
  ethosu_sdk::Status status = npu_harness::BindCase(files, payload, options, &harness);
  if (status.ok()) status = harness.Run();
  if (!status.ok()) {
    fprintf(stderr, "execute: %s\n", status.message());
    return false;
  }
  const uint8_t* output = harness.output(0).data();
  const auto* want = static_cast<const uint8_t*>(expected.tensor.data);
  differ->assign(heads, 0);
  for (size_t h = 0; h < heads; ++h) {
    for (size_t k = h * per_head; k < (h + 1) * per_head; ++k) (*differ)[h] += output[k] != want[k];
  }
  return true;
}

constexpr size_t kHeads = 4, kPerHead = 16 * 16;  // the case's 1x4x16x16 output

// From the command line, checked before the tests run.
npu_harness::CaseFiles files;

}  // namespace

TEST(VelaUnbindMatmul, StreamStepsIfm2ButNotIfm) {
  const ethosu_sdk::backends::ethosu::VelaPayload& payload = files.payload;
  const std::vector<MatMulBases> bases = MatMulBasesOf(payload.commands, payload.num_commands);
  size_t distinct_ifm2 = 0;
  for (size_t k = 0; k < bases.size(); ++k) {
    bool seen = false;
    for (size_t j = 0; j < k; ++j) seen |= bases[j].ifm2 == bases[k].ifm2;
    if (!seen) ++distinct_ifm2;
    printf("matmul %zu: IFM_BASE0 0x%x IFM2_BASE0 0x%x\n", k, bases[k].ifm, bases[k].ifm2);
    EXPECT_EQ(bases[k].ifm, bases[0].ifm)
        << "matmul " << k << " has its own IFM_BASE0 (Vela steps the IFM now)";
  }
  EXPECT_EQ(bases.size(), kHeads) << "matmuls";
  EXPECT_EQ(distinct_ifm2, kHeads) << "distinct IFM2_BASE0";
}

TEST(VelaUnbindMatmul, AsCompiledOnlyHeadZeroMatchesTosa) {
  std::vector<size_t> differ;
  ASSERT_TRUE(Run(files.payload, files, files.tensors[1], kHeads, kPerHead, &differ));
  for (size_t h = 0; h < kHeads; ++h) {
    printf("as compiled, head %zu: %zu of %zu elements differ from the TOSA reference model\n", h,
           differ[h], kPerHead);
    if (h == 0) {
      EXPECT_EQ(differ[h], 0u) << "head 0 matches";
    } else {
      EXPECT_NE(differ[h], 0u) << "head " << h << " differs (it reuses head 0's rows)";
    }
  }
}

TEST(VelaUnbindMatmul, SteppedStreamMatchesEveryHead) {
  const std::vector<uint32_t> stepped =
      SteppedStream(files.payload.commands, files.payload.num_commands);
  ethosu_sdk::backends::ethosu::VelaPayload fixed = files.payload;
  fixed.commands = stepped.data();
  fixed.num_commands = stepped.size();
  std::vector<size_t> differ;
  ASSERT_TRUE(Run(fixed, files, files.tensors[1], kHeads, kPerHead, &differ));
  for (size_t h = 0; h < kHeads; ++h) {
    printf("IFM stepped per head, head %zu: %zu of %zu elements differ\n", h, differ[h], kPerHead);
    EXPECT_EQ(differ[h], 0u) << "with the IFM stepped, head " << h << " matches";
  }
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s PAYLOAD TENSORS\n", argv[0]);
    return 2;
  }
  if (!npu_harness::LoadCase(argv[1], argv[2], &files)) return 2;
  if (files.tensors.size() != 2) {
    fprintf(stderr, "want a tensor file with one input and one output\n");
    return 2;
  }
  const ethosu_sdk::backends::ethosu::VelaPayload& payload = files.payload;
  if (payload.inputs.count != 1 || payload.outputs.count != 1) {
    fprintf(stderr, "want a payload with one input and one output\n");
    return 1;
  }
  const TensorRecord& expected = files.tensors[1];
  if (expected.tensor.nbytes != kHeads * kPerHead ||
      payload.outputs[0].bytes() != kHeads * kPerHead) {
    fprintf(stderr, "reference output has %zu bytes, the payload's %zu, want %zu\n",
            size_t(expected.tensor.nbytes), payload.outputs[0].bytes(), kHeads * kPerHead);
    return 1;
  }
  return RUN_ALL_TESTS();
}
