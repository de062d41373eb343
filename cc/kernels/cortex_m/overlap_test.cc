// Outputs overlapping their inputs, as the memory planner places them
// (python/ethosu_sdk/aot/memory_plan.py), against the plain C arithmetic on
// separate buffers, on every path (plain C, and Helium on QEMU's Cortex-M55
// or DSP on its Cortex-M33): a depthwise output starting
// DepthwiseOverlapLead pixels (or more) before its input, over drawn shapes,
// strides, paddings and dilations; quantized_add writing over either operand.
#include <cstdint>
#include <cstring>

#include "cc/kernels/cortex_m/add_helium.h"
#include "cc/kernels/cortex_m/conv_params.h"
#include "cc/kernels/cortex_m/test_draw.h"
#include "cc/testing/unit_test.h"

namespace ethosu_sdk::kernels::cortex_m {
namespace {

constexpr int32_t kMaxElements = 8192;
constexpr int32_t kMaxChannels = 40;
int8_t input[kMaxElements], weight[9 * kMaxChannels], expected[kMaxElements];
int8_t shared[3 * kMaxElements];  // output and input, overlapping
int32_t bias[kMaxChannels], multipliers[kMaxChannels], shifts[kMaxChannels];

// A depthwise convolution with channels innermost; 3x3 with at least eight
// channels half of the time (the Helium and DSP straight-line paths).
bool DrawDepthwise(Draw& d, ConvParams* p) {
  const bool three = d.In(0, 1) == 0;
  const int32_t n = d.In(1, 2), c = three ? d.In(8, kMaxChannels) : d.In(1, kMaxChannels);
  const int32_t h = d.In(1, 16), w = d.In(1, 40);
  p->kernel_h = three ? 3 : d.In(1, 3), p->kernel_w = three ? 3 : d.In(1, 3);
  p->stride_h = d.In(1, 2), p->stride_w = d.In(1, 2);
  p->dilation_h = d.In(1, 2), p->dilation_w = d.In(1, 2);
  p->pad_h = d.In(0, p->kernel_h - 1), p->pad_w = d.In(0, p->kernel_w - 1);
  const int32_t oh = OutSize(h, p->kernel_h, p->stride_h, p->pad_h, p->dilation_h);
  const int32_t ow = OutSize(w, p->kernel_w, p->stride_w, p->pad_w, p->dilation_w);
  if (oh < 1 || ow < 1 || n * h * w * c > kMaxElements || n * oh * ow * c > kMaxElements)
    return false;
  p->in = Nhwc(n, c, h, w);
  p->out = Nhwc(n, c, oh, ow);
  for (int32_t i = 0; i < n * h * w * c; ++i) input[i] = static_cast<int8_t>(d.Next());
  for (int32_t i = 0; i < p->kernel_h * p->kernel_w * c; ++i)
    weight[i] = static_cast<int8_t>(d.Next());
  const bool right_shifts = d.In(0, 1) == 0;  // the assembly paths take right shifts only
  for (int32_t i = 0; i < c; ++i) {
    bias[i] = d.In(-100000, 100000);
    multipliers[i] = d.Multiplier();
    shifts[i] = right_shifts ? d.In(-31, 0) : d.Shift();
  }
  p->input_offset = d.In(-128, 127);
  p->output_offset = d.In(-128, 127);
  p->input = input;
  p->weight = weight;
  p->bias = bias;
  p->multipliers = multipliers;
  p->shifts = shifts;
  return true;
}

int32_t Elements(const View4& v) { return v.n * v.h * v.w * v.c; }

// Runs `path` with the output `lead` pixels before the input in `shared`;
// returns the number of output bytes that differ from `expected`.
template <typename Path>
int32_t RunOverlapped(ConvParams p, int64_t lead, Path path) {
  std::memset(shared, 0x55, sizeof(shared));
  int8_t* in = shared + lead * p.in.c;
  std::memcpy(in, input, static_cast<size_t>(Elements(p.in)));
  p.input = in;
  p.output = shared;
  if (!path(p)) return -1;  // the path declined the call
  int32_t differ = 0;
  for (int32_t i = 0; i < Elements(p.out); ++i) differ += shared[i] != expected[i] ? 1 : 0;
  return differ;
}

bool Reference(const ConvParams& p) {
  DepthwiseConvReference(p);
  return true;
}

TEST(DepthwiseOverlap, EveryPathMatchesSeparateBuffers) {
  Draw d(0x6C8E9CF5u);
  int32_t overlapping = 0, fast_taken = 0;
  constexpr int32_t kCases = 120;
  for (int32_t done = 0; done < kCases;) {
    ConvParams p;
    if (!DrawDepthwise(d, &p)) continue;
    ++done;
    p.output = expected;
    DepthwiseConvReference(p);
    // The least lead, or a few pixels more (the planner may place it further).
    const int64_t lead = DepthwiseOverlapLead(p) + (d.In(0, 3) == 0 ? d.In(1, 3) : 0);
    ASSERT_LE(lead * p.in.c + Elements(p.in), int64_t{sizeof(shared)});
    if (lead * p.in.c < Elements(p.out)) ++overlapping;
    EXPECT_EQ(RunOverlapped(p, lead, Reference), 0) << "plain C, case " << done;
    const int32_t helium = RunOverlapped(p, lead, DepthwiseConvHelium);
    const int32_t dsp = RunOverlapped(p, lead, DepthwiseConvDsp);
    EXPECT_TRUE(helium <= 0 && dsp <= 0)
        << "case " << done << " (" << p.in.c << " channels, kernel " << p.kernel_h << "x"
        << p.kernel_w << ", stride " << p.stride_h << "x" << p.stride_w << ", pad " << p.pad_h
        << "x" << p.pad_w << ", dilation " << p.dilation_h << "x" << p.dilation_w << "): Helium "
        << helium << ", DSP " << dsp << " bytes differ";
    fast_taken += (helium == 0 ? 1 : 0) + (dsp == 0 ? 1 : 0);
  }
  EXPECT_GT(overlapping, kCases / 2) << "most cases must really overlap";
  EXPECT_EQ(fast_taken, kHelium || kDsp ? kCases : 0);
}

// The lead is the least that is safe: a pixel less lets the plain C path
// (pixel by pixel) overwrite input it still reads, in some drawn case.
TEST(DepthwiseOverlap, OnePixelLessCorrupts) {
  Draw d(0x3C6EF372u);
  int32_t corrupted = 0;
  for (int32_t done = 0; done < 60;) {
    ConvParams p;
    if (!DrawDepthwise(d, &p) || DepthwiseOverlapLead(p) == 0) continue;
    ++done;
    p.output = expected;
    DepthwiseConvReference(p);
    corrupted += RunOverlapped(p, DepthwiseOverlapLead(p) - 1, Reference) > 0 ? 1 : 0;
  }
  EXPECT_GT(corrupted, 10);
}

// The documented leads: MobileNet's stride-2 3x3 runs in place, its stride-1
// 3x3 needs one row and one pixel.
TEST(DepthwiseOverlap, MobileNetLeads) {
  ConvParams p;
  p.kernel_h = p.kernel_w = 3;
  p.pad_h = p.pad_w = 1;
  p.stride_h = p.stride_w = 2;
  p.in = Nhwc(1, 96, 112, 112);
  p.out = Nhwc(1, 96, 56, 56);
  EXPECT_EQ(DepthwiseOverlapLead(p), 0);
  p.stride_h = p.stride_w = 1;
  p.in = Nhwc(1, 32, 112, 112);
  p.out = Nhwc(1, 32, 112, 112);
  EXPECT_EQ(DepthwiseOverlapLead(p), 113);
}

bool AddPlainC(const int8_t* a, const int8_t* b, int8_t* out, size_t count, const AddParams& p) {
  for (size_t i = 0; i < count; ++i) out[i] = AddElement(a[i], b[i], p);
  return true;
}

using AddPath = bool (*)(const int8_t*, const int8_t*, int8_t*, size_t, const AddParams&);

// out over a (or b): the bytes of separate buffers, on every path.
TEST(AddInPlace, EveryPathMatchesSeparateBuffers) {
  Draw d(0xA54FF53Au);
  int8_t* const a = input;
  int8_t* const b = weight;
  constexpr AddPath kPaths[] = {AddPlainC, AddHelium, AddDsp};
  int32_t taken = 0;
  for (int32_t done = 0; done < 40; ++done) {
    const size_t count = static_cast<size_t>(d.In(1, 9 * kMaxChannels));
    AddParams p;
    p.a_zero_point = d.In(-128, 127), p.b_zero_point = d.In(-128, 127);
    p.out_zero_point = d.In(-128, 127);
    p.a_multiplier = d.Multiplier(), p.b_multiplier = d.Multiplier();
    p.out_multiplier = d.Multiplier();
    p.a_shift = d.In(-12, 0), p.b_shift = d.In(-12, 0), p.out_shift = d.In(-31, 0);
    for (size_t i = 0; i < count; ++i) {
      a[i] = static_cast<int8_t>(d.Next());
      b[i] = static_cast<int8_t>(d.Next());
      expected[i] = AddElement(a[i], b[i], p);
    }
    for (const AddPath path : kPaths) {
      for (int32_t over_b = 0; over_b < 2; ++over_b) {
        std::memcpy(shared, a, count);
        std::memcpy(shared + count, b, count);
        int8_t* const out = shared + (over_b ? count : 0);
        if (!path(shared, shared + count, out, count, p)) continue;
        ++taken;
        EXPECT_EQ(std::memcmp(out, expected, count), 0)
            << "case " << done << ", " << count << " elements, over operand " << over_b;
      }
    }
  }
  EXPECT_EQ(taken, 40 * 2 * (kHelium || kDsp ? 2 : 1));
}

}  // namespace
}  // namespace ethosu_sdk::kernels::cortex_m
