// Corrupt and truncated payloads and command streams must come back as
// errors, never crash or touch memory outside the given buffers. Built twice:
// as a plain test and with AddressSanitizer (see BUILD.bazel).
// Usage: robustness_test PAYLOAD   (a valid Vela payload to corrupt)
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "cc/backends/ethosu/vela_payload.h"
#include "cc/testing/unit_test.h"
#include "sim/host/ethosu_delegate.h"
#include "sim/host/payload_harness.h"

namespace npu = ethosu_sdk::npu;

namespace {

using ethosu_sdk::npu_harness::AlignedBytes;
using ethosu_sdk::npu_harness::HarnessOptions;

// A payload run with exactly-sized buffers (inputs all 7) and small bounds;
// returns the status.
ethosu_sdk::Status Run(const uint8_t* data, size_t size) {
  HarnessOptions options;
  options.workspace_bytes = 1u << 20;
  options.limits.max_work_per_operation = 1u << 22;
  options.input_fill = 7;
  return ethosu_sdk::npu_harness::RunPayloadBytes(data, size, options);
}

// Offset of the register command stream inside the payload file.
size_t CommandOffset(const std::vector<uint8_t>& file) {
  ethosu_sdk::backends::ethosu::VelaPayload payload;
  if (!ethosu_sdk::backends::ethosu::ParseVelaPayload(file.data(), file.size(), &payload).ok())
    return 0;
  return size_t(reinterpret_cast<const uint8_t*>(payload.commands) - file.data());
}

void PutWord(std::vector<uint8_t>* file, size_t at, uint32_t word) {
  for (int i = 0; i < 4; ++i) (*file)[at + size_t(i)] = uint8_t(word >> (8 * i));
}

// Writes "STOP" over the stream after `prefix` words of `commands`.
std::vector<uint8_t> WithCommands(const std::vector<uint8_t>& file, size_t offset,
                                  const std::vector<uint32_t>& commands) {
  std::vector<uint8_t> out = file;
  for (size_t i = 0; i < commands.size(); ++i) PutWord(&out, offset + 4 * i, commands[i]);
  return out;
}

template <typename AnyStatus>
bool Contains(const AnyStatus& s, const char* text) {
  return !s.ok() && strstr(s.message(), text) != nullptr;
}

const char* payload_path = nullptr;  // from the command line

}  // namespace

TEST(Robustness, CorruptAndTruncatedPayloadsAreErrors) {
  AlignedBytes bytes;
  ASSERT_TRUE(ethosu_sdk::npu_harness::ReadFile(payload_path, &bytes) && !bytes.empty())
      << "payload readable: " << payload_path;
  const std::vector<uint8_t> file(bytes.data(), bytes.data() + bytes.size());
  EXPECT_TRUE(Run(file.data(), file.size()).ok()) << "unmodified payload runs";

  // Every truncation is rejected by the parser (the payload ends with the
  // footer block, so no proper prefix is complete).
  int truncations_accepted = 0;
  for (size_t n = 0; n < file.size(); ++n) truncations_accepted += Run(file.data(), n).ok();
  EXPECT_EQ(truncations_accepted, 0) << "every truncated payload is an error";

  const size_t cmd = CommandOffset(file);
  EXPECT_NE(cmd, 0u) << "command stream found";

  // Unknown opcode.
  ethosu_sdk::Status s = Run(WithCommands(file, cmd, {0x0000007Fu}).data(), file.size());
  EXPECT_TRUE(Contains(s, "unknown command")) << "unknown opcode is an error";
  // IFM in an unbound region (5), then a pooling op.
  // (OFM_PRECISION 0x100: global scale, so no scale stream is needed.)
  s = Run(WithCommands(file, cmd, {0x01000114u, 0x0005010Fu, 0x00030005u}).data(), file.size());
  EXPECT_TRUE(Contains(s, "region")) << "unbound region is an error";
  // IFM base far outside the scratch region.
  s = Run(WithCommands(file, cmd, {0x01000114u, 0x00014000u, 0x7FFFFFF0u, 0x00030005u}).data(),
          file.size());
  EXPECT_TRUE(Contains(s, "outside region")) << "out-of-range address is an error";
  // OFM in the read-only weight region (0).
  s = Run(WithCommands(file, cmd, {0x01000114u, 0x0000011Fu, 0x00030005u}).data(), file.size());
  EXPECT_TRUE(!s.ok()) << "write to the weight region is an error";
  // A payload command at the very end of the stream.
  {
    const uint32_t words[1] = {0x00004024u};  // OFM_SCALE without its payload word
    npu::Region regions[npu::kNumRegions];
    std::vector<uint8_t> workspace(1u << 16);
    const ethosu_sdk::Status m = npu::RunCommandStream(
        npu::NpuConfig(), words, 1, regions, {workspace.data(), workspace.size()}, nullptr);
    EXPECT_TRUE(Contains(m, "inside a command")) << "stream cut inside a command is an error";
  }
  // Configurations Vela has no table for, or with the wrong number of cores
  // (weight streams), are refused before the stream runs; Vela's are run.
  {
    using ethosu_sdk::ethosu::Product;
    const uint32_t words[1] = {0u};  // NPU_OP_STOP
    npu::Region regions[npu::kNumRegions];
    std::vector<uint8_t> workspace(1u << 16);
    const npu::NpuConfig bad[] = {{Product::kEthosU85, 512, 1},  {Product::kEthosU85, 384, 1},
                                  {Product::kEthosU85, 2048, 8}, {Product::kEthosU55, 512, 1},
                                  {Product::kEthosU55, 128, 2},  {Product::kEthosU65, 256, 4}};
    for (const npu::NpuConfig& config : bad) {
      const ethosu_sdk::Status m = npu::RunCommandStream(
          config, words, 1, regions, {workspace.data(), workspace.size()}, nullptr);
      EXPECT_TRUE(Contains(m, "not supported")) << "unknown configuration is an error";
    }
    const npu::NpuConfig good[] = {{Product::kEthosU85, 128, 1},
                                   {Product::kEthosU85, 2048, 4},
                                   {Product::kEthosU55, 32, 1},
                                   {Product::kEthosU65, 256, 2}};
    for (const npu::NpuConfig& config : good) {
      const ethosu_sdk::Status m = npu::RunCommandStream(
          config, words, 1, regions, {workspace.data(), workspace.size()}, nullptr);
      EXPECT_TRUE(m.ok()) << "Vela's configurations run";
    }
  }
  // DMA past the end of its source.
  s = Run(WithCommands(file, cmd,
                       {0x00000130u, 0x00010131u, 0x00004030u, 0xFFFFFF00u, 0x00004031u, 0x0u,
                        0x00004032u, 0x1000u, 0x00000010u})
              .data(),
          file.size());
  EXPECT_TRUE(Contains(s, "DMA")) << "out-of-range DMA is an error";
  // DMA into LUT memory (region_mode INTERNAL) past its 2 KiB.
  s = Run(WithCommands(file, cmd,
                       {0x00000130u, 0x01030131u, 0x00004030u, 0x0u, 0x00004031u, 0x700u,
                        0x00004032u, 0x200u, 0x00000010u})
              .data(),
          file.size());
  EXPECT_TRUE(Contains(s, "outside LUT memory")) << "DMA past the LUT memory is an error";
  // U85-only register fields (the U55/U65 command set has no LUT tables by
  // size, no matmul, no pooling mode NONE): checked on U85 payloads.
  ethosu_sdk::backends::ethosu::VelaPayload parsed;
  if (ethosu_sdk::backends::ethosu::ParseVelaPayload(file.data(), file.size(), &parsed).ok() &&
      parsed.npu.product == ethosu_sdk::ethosu::Product::kEthosU85) {
    // A 512-byte LUT (LUT_S8_S16) at table 7: outside the LUT memory.
    s = Run(WithCommands(file, cmd, {0x01030114u, 0x00E50125u, 0x00030005u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "outside LUT memory")) << "LUT table outside LUT memory is an error";
    // Matmul (weights from IFM2) with a 3-wide kernel.
    s = Run(WithCommands(file, cmd, {0x00020120u, 0x00010002u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "matmul with a kernel")) << "matmul with a kernel is an error";
    // Pooling mode NONE without accumulators from IFM2.
    s = Run(WithCommands(file, cmd, {0x01000114u, 0x00040005u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "ACC_INPUT_IFM2"))
        << "pooling NONE without IFM2 accumulators is an error";
    // NPU_OP_RESIZE with the reserved mode 3.
    s = Run(WithCommands(file, cmd, {0x01000114u, 0x00030007u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "bad resize mode")) << "reserved resize mode is an error";
    // Resize whose X step remainder (5) is not below the scale (n = 1).
    s = Run(WithCommands(file, cmd, {0x01000114u, 0x00004096u, 0x00000005u, 0x00000007u}).data(),
            file.size());
    EXPECT_TRUE(Contains(s, "step remainder"))
        << "resize step remainder above the scale is an error";
    // IFM_UPSCALE's reserved mode 3 on a pooling operation, and an upscale
    // on an elementwise one.
    s = Run(WithCommands(file, cmd, {0x01000114u, 0x00030107u, 0x00030005u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "bad IFM upscale mode")) << "reserved IFM upscale mode is an error";
    s = Run(WithCommands(file, cmd, {0x01000114u, 0x00010107u, 0x00010006u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "IFM upscale with an elementwise"))
        << "elementwise IFM upscale is refused";
    // An elementwise IFM with storage NONE (how Vela marks a scalar) read
    // as a feature map (broadcast mode NONE), and a reserved broadcast mode.
    s = Run(WithCommands(file, cmd, {0x01000114u, 0xC0010105u, 0x00000108u, 0x00010006u}).data(),
            file.size());
    EXPECT_TRUE(Contains(s, "storage NONE")) << "an unstored IFM read as a feature map is an error";
    s = Run(WithCommands(file, cmd, {0x01000114u, 0x00090108u, 0x00010006u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "broadcast mode 9 is reserved"))
        << "reserved broadcast mode is an error";
    // Accumulator chaining: a convolution with ACC_INPUT_KEEP (ACC_FORMAT
    // 0x10) when no operation kept accumulators; one with its output
    // disabled (0x40) over an OFM of 128x128x4 (256 KiB of accumulators,
    // beyond every U85's accumulator RAM: 8 to 128 KiB); a max pool with
    // its output disabled.
    s = Run(WithCommands(file, cmd, {0x00100124u, 0x00000002u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "previous operation kept no accumulators"))
        << "ACC_INPUT_KEEP with nothing kept is an error";
    s = Run(
        WithCommands(file, cmd, {0x007F0112u, 0x007F0111u, 0x00030113u, 0x00400124u, 0x00000002u})
            .data(),
        file.size());
    EXPECT_TRUE(Contains(s, "needs 262144 bytes of accumulators") &&
                s.code() == ethosu_sdk::ErrorCode::kNpuUnsupported)
        << "chaining beyond the accumulator RAM is refused";
    s = Run(WithCommands(file, cmd, {0x01000114u, 0x00400124u, 0x00000005u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "supported on convolutions only"))
        << "pooling with its output disabled is refused by name";
    // Elementwise modes the model does not run are named, not parse errors.
    s = Run(WithCommands(file, cmd, {0x000A0006u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "unsupported elementwise mode 10 (LSR)") &&
                s.code() == ethosu_sdk::ErrorCode::kNpuUnsupported)
        << "elementwise LSR is refused by name";
    s = Run(WithCommands(file, cmd, {0x003F0006u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "unsupported elementwise mode 63 (unknown)"))
        << "an elementwise mode Vela does not name is refused";
    // NPU_OP_BRANCH (0x4100, condition in bit 16, payload: target byte).
    // Forward over a reserved command to NPU_OP_STOP: taken, so no error.
    s = Run(WithCommands(file, cmd, {0x00004100u, 12u, 0x00000106u, 0xFFFF0000u}).data(),
            file.size());
    EXPECT_TRUE(s.ok()) << "a branch skips the commands before its target: " << s.message();
    s = Run(WithCommands(file, cmd, {0x00004100u, 0u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "branches taken: a loop that never ends") &&
                s.code() == ethosu_sdk::ErrorCode::kNpuLimit)
        << "a branch to itself ends at the branch limit";
    s = Run(WithCommands(file, cmd, {0x00004100u, 2u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "outside the")) << "a misaligned branch target is an error";
    s = Run(WithCommands(file, cmd, {0x00004100u, 0x7FFFFFF0u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "outside the")) << "a branch past the stream is an error";
    s = Run(WithCommands(file, cmd, {0x00014100u, 8u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "before any operation set it") &&
                s.code() == ethosu_sdk::ErrorCode::kNpuUnsupported)
        << "a conditional branch with no COND_STATUS is refused";
  } else {
    s = Run(WithCommands(file, cmd, {0x00004100u, 0u}).data(), file.size());
    EXPECT_TRUE(Contains(s, "no Ethos-U55/U65 command")) << "U55/U65 streams cannot branch";
  }

  // Random single-byte corruption of the whole payload: any result is
  // allowed except a crash or an out-of-bounds access (ASan build).
  uint32_t rng = 12345;
  int errors = 0, runs = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> bad = file;
    const int flips = 1 + trial % 4;
    for (int f = 0; f < flips; ++f) {
      rng = rng * 1664525u + 1013904223u;
      const size_t at = (trial % 2 == 0 && cmd != 0) ? cmd + (rng >> 8) % (file.size() - cmd)
                                                     : (rng >> 8) % file.size();
      rng = rng * 1664525u + 1013904223u;
      bad[at] ^= uint8_t(1u << ((rng >> 16) & 7));
    }
    errors += !Run(bad.data(), bad.size()).ok();
    ++runs;
  }
  printf("%d corrupted payloads: %d rejected with an error, %d ran to completion\n", runs, errors,
         runs - errors);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s PAYLOAD\n", argv[0]);
    return 2;
  }
  payload_path = argv[1];
  return RUN_ALL_TESTS();
}
