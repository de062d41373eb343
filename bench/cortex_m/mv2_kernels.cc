// Per-kernel profile of MobileNetV2 (torchvision's, width 1.0, 224x224, the
// graph //examples:mv2_m55 runs) on the cortex_m:: int8 kernels: every
// convolution, depthwise convolution, residual add and the classifier at the
// model's shapes, each called through its SIMD variant (Helium on the
// Cortex-M55, qemu_an547; DSP on the Cortex-M33, qemu_an505: the column is
// labelled "mve" or "dsp") and its plain C one on the same board, timed by
// the board's counter. Under QEMU's `-icount shift=0` the counter follows
// executed instructions (both boards: one tick per 50), so the figures are
// instructions, never cycles.
//
// The data are drawn (the counts hardly depend on them: no data-dependent
// branches on these paths save the rare overflow fallback, which realistic
// right shifts never take); what the profile leaves out of the example's
// total (average pool, input quantize, output dequantize, copies, runtime)
// is the difference, which bench/RESULTS.md gives.
#include <cstdint>
#include <cstdio>

#include "cc/kernels/cortex_m/add_helium.h"
#include "cc/kernels/cortex_m/conv_params.h"
#include "cc/kernels/cortex_m/dsp.h"
#include "cc/kernels/cortex_m/linear.h"
#include "cc/platform/platform.h"

namespace ethosu_sdk::kernels::cortex_m {
namespace {

namespace platform = ethosu_sdk::platform;

// The largest activation: the 112x112 block's expansion to 96 channels.
constexpr int32_t kMaxActivation = 112 * 112 * 96;
// The largest weights: the last 1x1 convolution (1280 x 320) and the
// classifier (1000 x 1280).
constexpr int32_t kMaxWeights = 1280 * 1000;
constexpr int32_t kMaxChannels = 1280;

// In the board's bulk memory, as the example's planned arena is (the data
// memory holds 512 KiB).
#define BULK __attribute__((section(".ddr_bss")))
BULK int8_t activation_a[kMaxActivation];
BULK int8_t activation_b[kMaxActivation];
BULK int8_t output[kMaxActivation];
BULK int8_t weights[kMaxWeights];
int32_t bias[kMaxChannels], multipliers[kMaxChannels], shifts[kMaxChannels];
// The scratch tensor //examples:mv2_m55's program gives its first
// convolution (ExecuTorch's passes for the Cortex-M55 size it for CMSIS-NN's
// im2col): the Helium im2col's rows (the other convolutions need none).
constexpr int32_t kFirstConvScratch = 128;
uint8_t scratch[kFirstConvScratch];

// Per kind of kernel: calls, MACs (elements for add), instructions.
enum Kind { kConv3x3, kPointwise, kDepthwise, kAdd, kLinear, kKinds };
const char* const kKindNames[kKinds] = {"conv 3x3 (3 channels in)", "conv 1x1", "depthwise 3x3",
                                        "add", "linear"};
// Which SIMD variant this CPU runs (each variant declines elsewhere).
#ifdef ESDK_CORTEX_M_DSP
constexpr const char* kSimd = "dsp";
#else
constexpr const char* kSimd = "mve";
#endif

struct Totals {
  uint64_t calls = 0, work = 0, helium = 0, plain = 0;
};
Totals totals[kKinds];

uint64_t Instructions(uint64_t ticks) {
  return ticks * 1'000'000'000ull / platform::TimerTicksPerSecond();
}

// Instructions one call of `f` takes.
template <typename F>
uint64_t Count(F f) {
  const uint64_t start = platform::TimerTicks();
  f();
  return Instructions(platform::TimerTicks() - start);
}

void Fill(int8_t* data, int32_t count, uint32_t seed) {
  uint32_t s = seed;
  for (int32_t i = 0; i < count; ++i) {
    s = s * 1664525u + 1013904223u;  // Numerical Recipes' LCG: any spread will do
    data[i] = static_cast<int8_t>(s >> 24);
  }
}

View4 Nhwc(int32_t c, int32_t h, int32_t w) {
  View4 v;
  v.n = 1, v.c = c, v.h = h, v.w = w;
  v.sc = 1, v.sw = c, v.sh = int64_t{w} * c, v.sn = int64_t{h} * w * c;
  return v;
}

void Report(Kind kind, const char* what, uint64_t work, uint64_t helium, uint64_t plain) {
  Totals& t = totals[kind];
  ++t.calls;
  t.work += work;
  t.helium += helium;
  t.plain += plain;
  std::printf("PROFILE %-22s %-26s work %10lu  %s %11lu  c %11lu\n", kKindNames[kind], what,
              static_cast<unsigned long>(work), kSimd, static_cast<unsigned long>(helium),
              static_cast<unsigned long>(plain));
}

// One convolution (depthwise when `depthwise`), input activation_a.
void Conv(bool depthwise, int32_t cin, int32_t cout, int32_t size, int32_t kernel, int32_t stride) {
  const int32_t pad = kernel / 2;
  const int32_t out_size = (size + 2 * pad - kernel) / stride + 1;
  ConvParams p;
  p.in = Nhwc(cin, size, size);
  p.out = Nhwc(cout, out_size, out_size);
  p.kernel_h = p.kernel_w = kernel;
  p.stride_h = p.stride_w = stride;
  p.pad_h = p.pad_w = pad;
  p.input_offset = 128;  // a post-ReLU6 activation's zero point of -128
  p.output_offset = -128;
  p.activation_min = -128;
  p.activation_max = 127;
  p.input = activation_a;
  p.weight = weights;
  p.bias = bias;
  p.multipliers = multipliers;
  p.shifts = shifts;
  p.output = output;
  p.scratch = scratch;
  p.scratch_bytes = kFirstConvScratch;
  const uint64_t macs =
      static_cast<uint64_t>(out_size) * out_size * cout * kernel * kernel * (depthwise ? 1 : cin);
  const uint64_t helium = Count([&] {
    depthwise ? DepthwiseConvHelium(p) || DepthwiseConvDsp(p) : ConvHelium(p) || ConvDsp(p);
  });
  const uint64_t plain = Count([&] { depthwise ? DepthwiseConvReference(p) : ConvReference(p); });
  char what[48];
  std::snprintf(what, sizeof(what), "%dx%dx%d->%dx%dx%d", static_cast<int>(size),
                static_cast<int>(size), static_cast<int>(cin), static_cast<int>(out_size),
                static_cast<int>(out_size), static_cast<int>(cout));
  Report(depthwise ? kDepthwise : (kernel == 1 ? kPointwise : kConv3x3), what, macs, helium, plain);
}

void Add(int32_t channels, int32_t size) {
  AddParams p;
  p.a_zero_point = -3, p.a_multiplier = 1518500250, p.a_shift = -19;
  p.b_zero_point = 5, p.b_multiplier = 1242956516, p.b_shift = -19;
  p.out_zero_point = 2, p.out_multiplier = 1717986918, p.out_shift = -1;
  const int32_t count = channels * size * size;
  const uint64_t helium = Count([&] {
    AddHelium(activation_a, activation_b, output, static_cast<size_t>(count), p) ||
        AddDsp(activation_a, activation_b, output, static_cast<size_t>(count), p);
  });
  const uint64_t plain = Count([&] {
    for (int32_t i = 0; i < count; ++i) output[i] = AddElement(activation_a[i], activation_b[i], p);
  });
  char what[48];
  std::snprintf(what, sizeof(what), "%dx%dx%d", static_cast<int>(size), static_cast<int>(size),
                static_cast<int>(channels));
  Report(kAdd, what, static_cast<uint64_t>(count), helium, plain);
}

void Linear(int32_t k, int32_t n) {
  LinearParams p;
  p.input = activation_a;
  p.weights = weights;
  p.rows = 1, p.k = k, p.n = n;
  p.kernel_sum = bias;
  p.input_offset = 128, p.filter_offset = 0, p.output_offset = -20;
  p.multiplier = 1431655765, p.shift = -9;
  p.output = output;
  const uint64_t helium = Count([&] { LinearHelium(p) || LinearDsp(p); });
  const uint64_t plain = Count([&] { LinearReference(p); });
  char what[48];
  std::snprintf(what, sizeof(what), "%d->%d", static_cast<int>(k), static_cast<int>(n));
  Report(kLinear, what, static_cast<uint64_t>(k) * n, helium, plain);
}

// torchvision's MobileNetV2 inverted residual settings: expansion t, output
// channels c, repeats n, first stride s.
struct Stage {
  int32_t t, c, n, s;
};
constexpr Stage kStages[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                             {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};

void Run() {
  Fill(activation_a, kMaxActivation, 1);
  Fill(activation_b, kMaxActivation, 2);
  Fill(weights, kMaxWeights, 3);
  for (int32_t c = 0; c < kMaxChannels; ++c) {
    bias[c] = (c * 7919) % 20001 - 10000;
    multipliers[c] = 1073741824 + (c * 104729) % 1073741823;
    shifts[c] = -7 - c % 4;  // right shifts, as the model's scales give
  }
  int32_t size = 224, channels = 3;
  Conv(false, channels, 32, size, 3, 2);
  size = 112, channels = 32;
  for (const Stage& stage : kStages) {
    for (int32_t i = 0; i < stage.n; ++i) {
      const int32_t stride = i == 0 ? stage.s : 1;
      const int32_t hidden = channels * stage.t;
      if (stage.t != 1) Conv(false, channels, hidden, size, 1, 1);
      Conv(true, hidden, hidden, size, 3, stride);
      size = (size + 2 - 3) / stride + 1;
      Conv(false, hidden, stage.c, size, 1, 1);
      if (stride == 1 && channels == stage.c) Add(stage.c, size);
      channels = stage.c;
    }
  }
  Conv(false, channels, 1280, size, 1, 1);
  Linear(1280, 1000);
  uint64_t helium = 0, plain = 0;
  for (int32_t k = 0; k < kKinds; ++k) {
    const Totals& t = totals[k];
    helium += t.helium;
    plain += t.plain;
    // Instructions per MAC (per element for add), in thousandths.
    std::printf(
        "TOTAL %-22s calls %2lu work %10lu  %s %11lu (%lu.%03lu/op)  c %11lu "
        "(%lu.%03lu/op)\n",
        kKindNames[k], static_cast<unsigned long>(t.calls), static_cast<unsigned long>(t.work),
        kSimd, static_cast<unsigned long>(t.helium), static_cast<unsigned long>(t.helium / t.work),
        static_cast<unsigned long>(t.helium * 1000 / t.work % 1000),
        static_cast<unsigned long>(t.plain), static_cast<unsigned long>(t.plain / t.work),
        static_cast<unsigned long>(t.plain * 1000 / t.work % 1000));
  }
  std::printf("TOTAL all kernels: %s %lu c %lu instructions\n", kSimd,
              static_cast<unsigned long>(helium), static_cast<unsigned long>(plain));
}

}  // namespace
}  // namespace ethosu_sdk::kernels::cortex_m

// The board's printf (newlib-nano) has no %llu: the figures print as 32-bit
// unsigned longs, which hold them (the plain C total is under 2^32).
int main() {
  ethosu_sdk::kernels::cortex_m::Run();
  return 0;
}
