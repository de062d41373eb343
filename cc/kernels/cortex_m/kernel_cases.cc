#include "cc/kernels/cortex_m/kernel_cases.h"

#include <cstdio>
#include <cstring>

#include "cc/kernels/registry.h"
#include "cc/runtime/operator_registry.h"

namespace ethosu_sdk::kernels::cortex_m {
namespace {

using runtime::ScalarType;
using runtime::Tensor;
using runtime::Value;

// Capacities of one case (the generator's largest cases fit with room).
constexpr size_t kMaxValues = 32;           // a kernel's arguments, plus the returned alias
constexpr size_t kArenaBytes = 288 * 1024;  // tensor data and int lists: more than the whole file
constexpr size_t kMaxOperators = 64;
// A case's expectation (gen_cases.py): its output, an error, or an error only
// where the CPU has Helium (whose convolution needs scratch the others do not).
constexpr uint8_t kExpectError = 1;
constexpr uint8_t kExpectErrorOnHelium = 2;
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
constexpr bool kHelium = true;
#else
constexpr bool kHelium = false;
#endif
// Tensor data and lists start on 16-byte boundaries: Helium's word loads
// (VLDRW) and int64 lists need aligned data, which the file does not give.
constexpr size_t kAlignment = 16;

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool ok() const { return ok_; }
  template <typename T>
  T Get() {
    T v{};
    const uint8_t* p = Bytes(sizeof(T));
    if (p != nullptr) std::memcpy(&v, p, sizeof(T));
    return v;
  }
  const uint8_t* Bytes(size_t n) {
    if (pos_ + n > size_) {
      ok_ = false;
      return nullptr;
    }
    const uint8_t* p = data_ + pos_;
    pos_ += n;
    return p;
  }
  // A length-prefixed string, not NUL-terminated: print with %.*s.
  struct Text {
    const char* data;
    int size;
  };
  Text Str() {
    const uint16_t n = Get<uint16_t>();
    const uint8_t* p = Bytes(n);
    return {p == nullptr ? "" : reinterpret_cast<const char*>(p), p == nullptr ? 0 : n};
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  bool ok_ = true;
};

// What one case owns, reset between cases. The out tensor is placed last,
// ending at the arena's end, so a write past it leaves the array (the
// sanitizers see it on the host).
struct Case {
  Value values[kMaxValues];
  Tensor tensors[kMaxValues];
  size_t count = 0;
  size_t used = 0;  // arena bytes from the front
  Tensor* out = nullptr;
  const uint8_t* out_bytes = nullptr;  // the pending out tensor's expected bytes
  const uint8_t* expected = nullptr;
  size_t expected_size = 0;
};

alignas(kAlignment) uint8_t arena[kArenaBytes];

uint8_t* Allocate(Case& c, size_t n) {
  const size_t start = (c.used + kAlignment - 1) / kAlignment * kAlignment;
  if (start + n > kArenaBytes) return nullptr;
  c.used = start + n;
  return arena + start;
}

bool ReadValue(Reader& r, Case& c) {
  if (c.count + 1 >= kMaxValues) return false;  // one left for the returned alias
  Value& value = c.values[c.count];
  Tensor& t = c.tensors[c.count];
  ++c.count;
  value = Value();
  switch (r.Get<uint8_t>()) {
    case 0:
      value.tag = Value::Tag::kNone;
      break;
    case 1:
      value.tag = Value::Tag::kInt;
      value.i = r.Get<int64_t>();
      break;
    case 2:
      value.tag = Value::Tag::kDouble;
      value.d = r.Get<double>();
      break;
    case 3:
      value.tag = Value::Tag::kBool;
      value.b = r.Get<uint8_t>() != 0;
      break;
    case 5: {
      const uint32_t n = r.Get<uint32_t>();
      if (n > kArenaBytes / sizeof(int64_t)) return false;
      auto* list = reinterpret_cast<int64_t*>(Allocate(c, n * sizeof(int64_t)));
      if (list == nullptr && n > 0) return false;
      for (uint32_t i = 0; i < n; ++i) list[i] = r.Get<int64_t>();
      value.tag = Value::Tag::kIntList;
      value.int_list = Span<const int64_t>(list, n);
      break;
    }
    case 4: {
      // Only tensors the runtime's loader would accept (cc/runtime/method.cc:
      // a known dtype, sizes >= 0 within the arena, the dim order a
      // permutation), so the kernel argument fuzzer feeds kernels what a
      // program can.
      t = Tensor();
      t.dtype = static_cast<ScalarType>(r.Get<uint8_t>());
      t.rank = r.Get<uint8_t>();
      if (t.rank > runtime::kMaxRank || t.ElementSize() == 0) return false;
      t.numel = 1;
      for (int32_t d = 0; d < t.rank; ++d) {
        t.sizes[d] = r.Get<int32_t>();
        if (t.sizes[d] < 0) return false;
        if (t.sizes[d] != 0 && t.numel > kArenaBytes / static_cast<size_t>(t.sizes[d]))
          return false;
        t.numel *= static_cast<size_t>(t.sizes[d]);
      }
      uint32_t seen = 0;
      for (int32_t d = 0; d < t.rank; ++d) {
        t.dim_order[d] = r.Get<uint8_t>();
        if (t.dim_order[d] >= t.rank || (seen & (1u << t.dim_order[d])) != 0) return false;
        seen |= 1u << t.dim_order[d];
      }
      const bool is_out = r.Get<uint8_t>() != 0;
      const uint32_t nbytes = r.Get<uint32_t>();
      const uint8_t* bytes = r.Bytes(nbytes);
      if (bytes == nullptr || nbytes != t.numel * t.ElementSize()) return false;
      t.nbytes = nbytes;
      if (is_out) {
        // Placed once every input is read (ReadCase): at the arena's end.
        c.out = &t;
        c.out_bytes = bytes;
      } else {
        uint8_t* data = Allocate(c, nbytes);
        if (data == nullptr && nbytes > 0) return false;
        if (nbytes > 0) std::memcpy(data, bytes, nbytes);
        t.data = nbytes > 0 ? data : nullptr;
      }
      value.tag = Value::Tag::kTensor;
      value.tensor = &t;
      break;
    }
    default:
      return false;
  }
  return r.ok();
}

// The out tensor's buffer: the arena's last bytes, filled with a pattern no
// case expects everywhere.
bool PlaceOut(Case& c) {
  if (c.out == nullptr) return false;
  const size_t nbytes = c.out->nbytes;
  if (nbytes > kArenaBytes || kArenaBytes - nbytes < c.used) return false;
  uint8_t* data = arena + (kArenaBytes - nbytes);
  std::memset(data, 0x5A, nbytes);
  c.out->data = nbytes > 0 ? data : nullptr;
  c.expected = c.out_bytes;
  c.expected_size = nbytes;
  return true;
}

struct Tally {
  Reader::Text op;
  int passed = 0, failed = 0;
  size_t tie_steps = 0;  // elements one step off the reference at an exact tie
};

Tally* Find(Tally* tallies, size_t* count, Reader::Text op) {
  for (size_t i = 0; i < *count; ++i) {
    if (tallies[i].op.size == op.size && std::memcmp(tallies[i].op.data, op.data, op.size) == 0)
      return &tallies[i];
  }
  if (*count == kMaxOperators) return nullptr;
  tallies[*count].op = op;
  return &tallies[(*count)++];
}

Case one_case;  // static: a few KB of tensors and values

}  // namespace

int RunKernelCases(const uint8_t* file, size_t size) {
  Reader r(file, size);
  const uint8_t* magic = r.Bytes(4);
  if (magic == nullptr || std::memcmp(magic, "CMKC", 4) != 0 || r.Get<uint32_t>() != 1) {
    std::printf("not a version-1 case file\n");
    return 1;
  }
  const uint32_t count = r.Get<uint32_t>();
  static Tally tallies[kMaxOperators];
  size_t operators = 0;
  int failures = 0;
  for (uint32_t n = 0; n < count; ++n) {
    const Reader::Text op = r.Str();
    const Reader::Text label = r.Str();
    const uint8_t expect = r.Get<uint8_t>();
    const bool expect_error = expect == kExpectError || (expect == kExpectErrorOnHelium && kHelium);
    const uint32_t nvalues = r.Get<uint32_t>();
    Case& c = one_case;
    c.count = 0;
    c.used = 0;
    c.out = nullptr;
    for (uint32_t v = 0; v < nvalues; ++v) {
      if (!ReadValue(r, c)) {
        std::printf("case %lu (%.*s): damaged case file or over this runner's capacity\n",
                    static_cast<unsigned long>(n), label.size, label.data);
        return 1;
      }
    }
    if (!PlaceOut(c)) {
      std::printf("case %lu (%.*s): no out tensor, or over the arena\n",
                  static_cast<unsigned long>(n), label.size, label.data);
      return 1;
    }
    const uint8_t* ties = nullptr;
    if (r.Get<uint8_t>() != 0) {
      const uint32_t mask_size = r.Get<uint32_t>();
      ties = r.Bytes(mask_size);
      if (ties == nullptr || mask_size != c.expected_size) {
        std::printf("case %lu (%.*s): damaged tie mask\n", static_cast<unsigned long>(n),
                    label.size, label.data);
        return 1;
      }
    }
    // The returned value: an alias of the out tensor, as in a KernelCall.
    c.values[c.count] = c.values[c.count - 1];
    Value* args[kMaxValues];
    for (size_t v = 0; v <= c.count; ++v) args[v] = &c.values[v];
    const char* dot = static_cast<const char*>(std::memchr(op.data, '.', op.size));
    const size_t name_size = dot == nullptr ? op.size : static_cast<size_t>(dot - op.data);
    const char* overload = dot == nullptr ? op.data + op.size : dot + 1;
    const runtime::KernelEntry* kernel =
        Registry().Find(op.data, name_size, overload, op.size - (overload - op.data));
    Tally* t = Find(tallies, &operators, op);
    if (t == nullptr) {
      std::printf("more than %lu operators\n", static_cast<unsigned long>(kMaxOperators));
      return 1;
    }
    bool pass;
    if (kernel == nullptr) {
      std::printf("FAIL %.*s: no kernel registered\n", op.size, op.data);
      pass = false;
    } else {
      const Status status = kernel->fn(Span<Value* const>(args, c.count + 1));
      if (expect_error) {
        pass = !status.ok();
        if (!pass) {
          std::printf("FAIL %.*s: accepted, expected an error\n", label.size, label.data);
        } else {
          std::printf("ok   %.*s: %s\n", label.size, label.data, status.message());
        }
      } else if (!status.ok()) {
        pass = false;
        std::printf("FAIL %.*s: %s\n", label.size, label.data, status.message());
      } else {
        const auto* got = static_cast<const uint8_t*>(c.out->data);
        size_t differ = 0, first = 0, tie_steps = 0;
        for (size_t i = 0; i < c.expected_size; ++i) {
          if (got[i] == c.expected[i]) continue;
          const int step = static_cast<int8_t>(got[i]) - static_cast<int8_t>(c.expected[i]);
          if (ties != nullptr && ties[i] != 0 && (step == 1 || step == -1)) {
            ++tie_steps;  // a tie the reference broke by float rounding
            continue;
          }
          if (differ++ == 0) first = i;
        }
        pass = differ == 0;
        t->tie_steps += tie_steps;
        if (!pass) {
          std::printf("FAIL %.*s: %lu of %lu bytes differ, first at %lu: got %d, want %d\n",
                      label.size, label.data, static_cast<unsigned long>(differ),
                      static_cast<unsigned long>(c.expected_size),
                      static_cast<unsigned long>(first), static_cast<int8_t>(got[first]),
                      static_cast<int8_t>(c.expected[first]));
        }
      }
    }
    ++(pass ? t->passed : t->failed);
    failures += pass ? 0 : 1;
  }
  for (size_t i = 0; i < operators; ++i) {
    const Tally& t = tallies[i];
    std::printf("%-48.*s %4d passed, %d failed", t.op.size, t.op.data, t.passed, t.failed);
    if (t.tie_steps > 0) {
      std::printf(" (%lu elements one step off at exact ties)",
                  static_cast<unsigned long>(t.tie_steps));
    }
    std::printf("\n");
  }
  std::printf("%lu cases, %d failed: %s\n", static_cast<unsigned long>(count), failures,
              failures == 0 ? "PASS" : "FAIL");
  return failures == 0 && r.ok() ? 0 : 1;
}

}  // namespace ethosu_sdk::kernels::cortex_m
