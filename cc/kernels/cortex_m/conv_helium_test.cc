// The Helium (conv_helium.cc) and DSP (conv_dsp.cc) convolutions against the
// plain C arithmetic
// (conv_reference.cc, itself bit-exact against ExecuTorch's Python reference
// in :kernel_cases_test), byte for byte, over drawn shapes, strides,
// paddings, dilations, offsets, per-channel requantizations (left shifts
// that overflow int32 included) and activation limits. On QEMU's Cortex-M55
// (the _firmware_test) the Helium code runs, on QEMU's Cortex-M33
// (_qemu_an505_firmware_test) the DSP code; where a variant's extension is
// missing it must decline every call, so the plain C path serves.
#include <cstdint>
#include <cstring>

#include "cc/kernels/cortex_m/conv_params.h"
#include "cc/kernels/cortex_m/test_draw.h"
#include "cc/testing/unit_test.h"

namespace ethosu_sdk::kernels::cortex_m {
namespace {

constexpr int32_t kMaxElements = 16384;
constexpr int32_t kMaxDrawnChannels = 48;
constexpr int32_t kMaxChannels = 80;  // room for more than PatchConv's 64-channel chunk
int8_t input[kMaxElements], weight[kMaxElements];
int8_t expected[kMaxElements], actual[kMaxElements];
int32_t bias[kMaxChannels], multipliers[kMaxChannels], shifts[kMaxChannels];
// The operator's scratch tensor: the Helium im2col's rows of small patches
// (ConvScratchBytes), up to a tile of 32 rows of 64 bytes.
constexpr int32_t kScratchBytes = 32 * 64;
uint8_t scratch[kScratchBytes + 16];

// Draws one convolution (depthwise or not) whose tensors fit the buffers.
// With `extremes`, now and then the glue's extreme input offsets (+-255: a
// uint8 zero point on an int8 tensor) and biases near the int32 limits (the
// sums wrap, as the reference's do).
// With `three_by_three`, 3x3 kernels only and at least 8 channels, with
// right shifts only (the Helium depthwise's straight-line path: MobileNet's
// form); with `right_shifts`, any kernel with right shifts only (the
// convolutions' assembly paths, which blocks with a left shift skip).
bool DrawCase(Draw& d, bool depthwise, ConvParams* p, bool extremes = false,
              bool three_by_three = false, bool right_shifts = false) {
  // Widths past 32 cross the kernels' pixel tiles within a row.
  const int32_t n = d.In(1, 2), cin = d.In(1, 40), h = d.In(1, 9), w = d.In(1, 70);
  p->kernel_h = d.In(1, 3), p->kernel_w = d.In(1, 3);
  p->stride_h = d.In(1, 2), p->stride_w = d.In(1, 2);
  p->dilation_h = d.In(1, 2), p->dilation_w = d.In(1, 2);
  p->pad_h = d.In(0, p->kernel_h - 1), p->pad_w = d.In(0, p->kernel_w - 1);
  if (three_by_three) {
    p->kernel_h = p->kernel_w = 3;
    p->pad_h = d.In(0, 2), p->pad_w = d.In(0, 2);
  } else if (d.In(0, 2) == 0) {  // MobileNet's pointwise form half the time
    p->kernel_h = p->kernel_w = p->stride_h = p->stride_w = 1;
    p->pad_h = p->pad_w = 0;
  }
  const int32_t cout = depthwise ? cin : d.In(1, kMaxDrawnChannels);
  const int32_t oh = OutSize(h, p->kernel_h, p->stride_h, p->pad_h, p->dilation_h);
  const int32_t ow = OutSize(w, p->kernel_w, p->stride_w, p->pad_w, p->dilation_w);
  const int32_t weights =
      depthwise ? p->kernel_h * p->kernel_w * cout : cout * p->kernel_h * p->kernel_w * cin;
  if (oh < 1 || ow < 1 || n * h * w * cin > kMaxElements || n * oh * ow * cout > kMaxElements ||
      weights > kMaxElements) {
    return false;
  }
  p->in = Nhwc(n, cin, h, w);
  p->out = Nhwc(n, cout, oh, ow);
  for (int32_t i = 0; i < n * h * w * cin; ++i) input[i] = static_cast<int8_t>(d.Next());
  for (int32_t i = 0; i < weights; ++i) weight[i] = static_cast<int8_t>(d.Next());
  for (int32_t c = 0; c < cout; ++c) {
    bias[c] = d.In(-100000, 100000);
    if (extremes && d.In(0, 19) == 0) bias[c] = INT32_MAX - d.In(0, 100000);
    multipliers[c] = d.Multiplier();
    shifts[c] = three_by_three || right_shifts ? d.In(-31, 0) : d.Shift();
  }
  if (three_by_three && cin < 8) return false;
  p->input_offset = d.In(-128, 127);
  if (extremes && d.In(0, 9) == 0) p->input_offset = d.In(0, 1) ? 255 : -255;
  p->output_offset = d.In(-128, 127);
  p->activation_min = d.In(0, 1) ? -128 : d.In(-128, 0);
  p->activation_max = d.In(0, 1) ? 127 : d.In(p->activation_min, 127);
  p->input = input;
  p->weight = weight;
  p->bias = d.In(0, 4) == 0 ? nullptr : bias;
  p->multipliers = multipliers;
  p->shifts = shifts;
  // From one patch row to a whole tile, as the shapes fall (the draws stay
  // as they were): ExecuTorch's passes give one row or more.
  const int64_t row = int64_t{p->kernel_h} * p->kernel_w * cin;
  const int64_t rows = 1 + (n * h * w + cin) % 40;
  p->scratch = scratch;
  p->scratch_bytes = row * rows < kScratchBytes ? row * rows : kScratchBytes;
  return true;
}

using Variant = bool (*)(const ConvParams&);

// Runs `cases` drawn convolutions through the plain C path and `variant`
// (which must take them exactly when `expected_taken`, but for dilation_w 2
// when `dilated_declined`); returns how many it took. `extremes`: DrawCase's.
int32_t Compare(bool depthwise, int32_t cases, Variant variant, bool expected_taken,
                bool dilated_declined = false, bool extremes = false, bool three_by_three = false,
                bool right_shifts = false) {
  Draw d(0x2545F491u);
  int32_t taken = 0;
  for (int32_t done = 0; done < cases;) {
    ConvParams p;
    if (!DrawCase(d, depthwise, &p, extremes, three_by_three, right_shifts)) continue;
    ++done;
    const int32_t size = p.out.n * p.out.h * p.out.w * p.out.c;
    std::memset(expected, 0x55, sizeof(expected));
    std::memset(actual, 0x55, sizeof(actual));
    p.output = expected;
    if (depthwise) {
      DepthwiseConvReference(p);
    } else {
      ConvReference(p);
    }
    p.output = actual;
    const bool taken_here = variant(p);
    EXPECT_EQ(taken_here, expected_taken && !(dilated_declined && p.dilation_w != 1))
        << "case " << done << ": a variant takes the call only with its extension";
    if (!taken_here) continue;
    ++taken;
    int32_t differ = 0, first = -1;
    for (int32_t i = 0; i < kMaxElements; ++i) {
      if (expected[i] != actual[i]) {
        ++differ;
        if (first < 0) first = i;
      }
    }
    EXPECT_EQ(differ, 0) << "case " << done << " (" << p.in.c << "->" << p.out.c << ", kernel "
                         << p.kernel_h << "x" << p.kernel_w << ", stride " << p.stride_h << ", pad "
                         << p.pad_h << ", dilation " << p.dilation_h << "): first differing byte "
                         << first << " of " << size;
  }
  return taken;
}

TEST(ConvHelium, MatchesPlainC) {
  const int32_t taken = Compare(false, 150, ConvHelium, kHelium);
  EXPECT_EQ(taken, kHelium ? 150 : 0);
}

TEST(DepthwiseConvHelium, MatchesPlainC) {
  const int32_t taken = Compare(true, 150, DepthwiseConvHelium, kHelium);
  EXPECT_EQ(taken, kHelium ? 150 : 0);
}

TEST(ConvHelium, RightShiftsMatchPlainC) {
  const int32_t taken = Compare(false, 200, ConvHelium, kHelium, false, /*extremes=*/true,
                                /*three_by_three=*/false, /*right_shifts=*/true);
  EXPECT_EQ(taken, kHelium ? 200 : 0);
}

TEST(ConvDsp, RightShiftsMatchPlainC) {
  const int32_t taken = Compare(false, 200, ConvDsp, kDsp, /*dilated_declined=*/true,
                                /*extremes=*/true, /*three_by_three=*/false,
                                /*right_shifts=*/true);
  if (kDsp) {
    EXPECT_GT(taken, 80);
  } else {
    EXPECT_EQ(taken, 0);
  }
}

TEST(DepthwiseConvHelium, ThreeByThreeRightShiftsMatchPlainC) {
  const int32_t taken = Compare(true, 120, DepthwiseConvHelium, kHelium, false, /*extremes=*/true,
                                /*three_by_three=*/true);
  EXPECT_EQ(taken, kHelium ? 120 : 0);
}

TEST(DepthwiseConvDsp, ThreeByThreeRightShiftsMatchPlainC) {
  const int32_t taken = Compare(true, 120, DepthwiseConvDsp, kDsp, false, /*extremes=*/true,
                                /*three_by_three=*/true);
  EXPECT_EQ(taken, kDsp ? 120 : 0);
}

// The DSP variants take every drawn case but dilation_w 2 (conv).
TEST(ConvDsp, MatchesPlainC) {
  const int32_t taken = Compare(false, 150, ConvDsp, kDsp, /*dilated_declined=*/true,
                                /*extremes=*/true);
  if (kDsp) {
    EXPECT_GT(taken, 60);
  } else {
    EXPECT_EQ(taken, 0);
  }
}

TEST(DepthwiseConvDsp, MatchesPlainC) {
  const int32_t taken = Compare(true, 150, DepthwiseConvDsp, kDsp, false, /*extremes=*/true);
  EXPECT_EQ(taken, kDsp ? 150 : 0);
}

TEST(ConvDsp, TakesInt32MinMultiplier) {
  // SMMULR's doubled product would overflow: RequantizeFast falls back to
  // the 64-bit arithmetic, and the bytes still match.
  Draw d(0x9E3779B9u);
  ConvParams p;
  while (!DrawCase(d, true, &p, true)) {
  }
  multipliers[0] = INT32_MIN;
  p.output = expected;
  DepthwiseConvReference(p);
  p.output = actual;
  EXPECT_EQ(DepthwiseConvDsp(p), kDsp);
  if (kDsp) {
    const int32_t size = p.out.n * p.out.h * p.out.w * p.out.c;
    EXPECT_EQ(std::memcmp(expected, actual, static_cast<size_t>(size)), 0);
  }
}

// A small patch (3x3x3, MobileNet's first layer) on Helium needs one im2col
// row of scratch; with exactly one row the kernel writes nothing past it and
// matches the plain C bytes, for 5 output channels and for 70 (two chunks
// of channel sums). Elsewhere nothing needs scratch.
TEST(ConvHelium, SmallPatchUsesOnlyTheScratchItIsGiven) {
  constexpr uint8_t kGuard = 0xA5;
  constexpr int32_t kPatch = 27;
  constexpr int32_t kChannelCounts[] = {5, 70};
  for (const int32_t cout : kChannelCounts) {
    ConvParams p;
    p.kernel_h = p.kernel_w = 3;
    p.stride_h = p.stride_w = 2;
    p.pad_h = p.pad_w = 1;
    p.in = Nhwc(1, 3, 9, 9);
    p.out = Nhwc(1, cout, 5, 5);
    Draw d(0x1234567u);
    for (int32_t i = 0; i < 9 * 9 * 3; ++i) input[i] = static_cast<int8_t>(d.Next());
    for (int32_t i = 0; i < cout * kPatch; ++i) weight[i] = static_cast<int8_t>(d.Next());
    for (int32_t c = 0; c < cout; ++c) {
      bias[c] = d.In(-100000, 100000);
      multipliers[c] = d.Multiplier();
      shifts[c] = d.Shift();
    }
    p.input_offset = 7;
    p.input = input;
    p.weight = weight;
    p.bias = bias;
    p.multipliers = multipliers;
    p.shifts = shifts;
    EXPECT_EQ(ConvScratchBytes(p), kHelium ? kPatch : 0);
    std::memset(scratch, kGuard, sizeof(scratch));
    p.scratch = scratch;
    p.scratch_bytes = kPatch;
    std::memset(expected, 0x55, sizeof(expected));
    std::memset(actual, 0x55, sizeof(actual));
    p.output = expected;
    ConvReference(p);
    p.output = actual;
    EXPECT_EQ(ConvHelium(p), kHelium);
    if (kHelium) {
      EXPECT_EQ(std::memcmp(expected, actual, sizeof(actual)), 0) << cout << " channels";
    }
    int32_t past = 0;
    for (int32_t i = kPatch; i < kScratchBytes; ++i) past += scratch[i] != kGuard ? 1 : 0;
    EXPECT_EQ(past, 0) << "bytes written past the scratch given";
    p.kernel_h = p.kernel_w = 1;  // a 1x1 kernel: one contiguous run, no im2col
    p.pad_h = p.pad_w = 0;
    EXPECT_EQ(ConvScratchBytes(p), 0);
  }
}

TEST(ConvHelium, DeclinesInt32MinMultiplier) {
  // VQRDMULH saturates INT32_MIN * INT32_MIN: such calls go to plain C.
  Draw d(0x2545F491u);
  ConvParams p;
  while (!DrawCase(d, false, &p)) {
  }
  multipliers[0] = INT32_MIN;
  p.output = actual;
  EXPECT_FALSE(ConvHelium(p));
  EXPECT_FALSE(DepthwiseConvHelium(p));
}

}  // namespace
}  // namespace ethosu_sdk::kernels::cortex_m
