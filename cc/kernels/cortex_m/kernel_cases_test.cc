// Runs the cortex_m:: kernel cases (gen_cases.py: arguments and the output
// ExecuTorch's Python reference computes for them) through the registry's
// unboxing wrappers, as a .pte's KernelCall would reach them, and compares
// the output bytes exactly; cases marked as refused must fail with an error.
//
//   kernel_cases_test <cases.bin>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cc/kernels/registry.h"
#include "cc/runtime/operator_registry.h"
#include "cc/testing/unit_test.h"

namespace ethosu_sdk::kernels {
namespace {

using runtime::ScalarType;
using runtime::Tensor;
using runtime::Value;

// What the loader owns for one case: tensors, their bytes, lists, values.
struct Owned {
  std::vector<std::unique_ptr<Tensor>> tensors;
  std::vector<std::unique_ptr<std::vector<uint8_t>>> buffers;
  std::vector<std::unique_ptr<std::vector<int64_t>>> lists;
  std::vector<std::unique_ptr<Value>> values;
  Tensor* out = nullptr;
  std::vector<uint8_t> expected;
};

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool ok() const { return ok_; }
  template <typename T>
  T Get() {
    T v{};
    if (pos_ + sizeof(T) > size_) {
      ok_ = false;
      return v;
    }
    std::memcpy(&v, data_ + pos_, sizeof(T));
    pos_ += sizeof(T);
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
  std::string Str() {
    const uint16_t n = Get<uint16_t>();
    const uint8_t* p = Bytes(n);
    return p == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(p), n);
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  bool ok_ = true;
};

bool ReadValue(Reader& r, Owned& owned) {
  auto value = std::make_unique<Value>();
  const uint8_t tag = r.Get<uint8_t>();
  switch (tag) {
    case 0:
      value->tag = Value::Tag::kNone;
      break;
    case 1:
      value->tag = Value::Tag::kInt;
      value->i = r.Get<int64_t>();
      break;
    case 2:
      value->tag = Value::Tag::kDouble;
      value->d = r.Get<double>();
      break;
    case 3:
      value->tag = Value::Tag::kBool;
      value->b = r.Get<uint8_t>() != 0;
      break;
    case 5: {
      auto list = std::make_unique<std::vector<int64_t>>(r.Get<uint32_t>());
      for (int64_t& v : *list) v = r.Get<int64_t>();
      value->tag = Value::Tag::kIntList;
      value->int_list = Span<const int64_t>(list->data(), list->size());
      owned.lists.push_back(std::move(list));
      break;
    }
    case 4: {
      auto t = std::make_unique<Tensor>();
      t->dtype = static_cast<ScalarType>(r.Get<uint8_t>());
      t->rank = r.Get<uint8_t>();
      if (t->rank > runtime::kMaxRank) return false;
      t->numel = 1;
      for (int32_t d = 0; d < t->rank; ++d) {
        t->sizes[d] = r.Get<int32_t>();
        t->numel *= static_cast<size_t>(t->sizes[d]);
      }
      for (int32_t d = 0; d < t->rank; ++d) t->dim_order[d] = r.Get<uint8_t>();
      const bool is_out = r.Get<uint8_t>() != 0;
      const uint32_t nbytes = r.Get<uint32_t>();
      const uint8_t* bytes = r.Bytes(nbytes);
      if (bytes == nullptr || nbytes != t->numel * t->ElementSize()) return false;
      t->nbytes = nbytes;
      // One spare byte either side would hide nothing: the buffer is exact,
      // so ASan sees any write past the tensor.
      auto buffer = std::make_unique<std::vector<uint8_t>>(bytes, bytes + nbytes);
      if (is_out) {
        owned.expected.assign(bytes, bytes + nbytes);
        std::fill(buffer->begin(), buffer->end(), 0x5A);  // not what any case expects everywhere
        owned.out = t.get();
      }
      t->data = buffer->empty() ? nullptr : buffer->data();
      value->tag = Value::Tag::kTensor;
      value->tensor = t.get();
      owned.buffers.push_back(std::move(buffer));
      owned.tensors.push_back(std::move(t));
      break;
    }
    default:
      return false;
  }
  owned.values.push_back(std::move(value));
  return r.ok();
}

struct Tally {
  int passed = 0;
  int failed = 0;
  size_t tie_steps = 0;  // elements one step off the reference at an exact tie
};

void Run(const std::vector<uint8_t>& file) {
  Reader r(file.data(), file.size());
  const uint8_t* magic = r.Bytes(4);
  ASSERT_TRUE(magic != nullptr && std::memcmp(magic, "CMKC", 4) == 0 && r.Get<uint32_t>() == 1)
      << "not a version-1 case file";
  const uint32_t count = r.Get<uint32_t>();
  std::map<std::string, Tally> tally;
  int failed_cases = 0;
  for (uint32_t c = 0; c < count; ++c) {
    const std::string op = r.Str();
    const std::string label = r.Str();
    const bool expect_error = r.Get<uint8_t>() != 0;
    const uint32_t nvalues = r.Get<uint32_t>();
    Owned owned;
    for (uint32_t v = 0; v < nvalues; ++v) {
      ASSERT_TRUE(ReadValue(r, owned)) << "case " << c << " (" << label << "): damaged case file";
    }
    std::vector<uint8_t> ties;
    if (r.Get<uint8_t>() != 0) {
      const uint32_t n = r.Get<uint32_t>();
      const uint8_t* mask = r.Bytes(n);
      ASSERT_TRUE(mask != nullptr && n == owned.expected.size())
          << "case " << c << " (" << label << "): damaged tie mask";
      ties.assign(mask, mask + n);
    }
    // The returned value: an alias of the out tensor, as in a KernelCall.
    auto returned = std::make_unique<Value>(*owned.values.back());
    owned.values.push_back(std::move(returned));
    std::vector<Value*> args;
    for (auto& v : owned.values) args.push_back(v.get());
    const size_t dot = op.find('.');
    const runtime::KernelEntry* kernel =
        Registry().Find(op.data(), dot, op.data() + dot + 1, op.size() - dot - 1);
    Tally& t = tally[op];
    if (kernel == nullptr) {
      ADD_FAILURE() << op << ": no kernel registered";
      ++t.failed;
      ++failed_cases;
      continue;
    }
    const Status status = kernel->fn(Span<Value* const>(args.data(), args.size()));
    bool pass;
    if (expect_error) {
      pass = !status.ok();
      if (!pass)
        ADD_FAILURE() << label << ": accepted, expected an error";
      else
        std::printf("ok   %s: %s\n", label.c_str(), status.message());
    } else if (!status.ok()) {
      pass = false;
      ADD_FAILURE() << label << ": " << status.message();
    } else {
      const auto* got = static_cast<const uint8_t*>(owned.out->data);
      size_t differ = 0, first = 0, tie_steps = 0;
      for (size_t i = 0; i < owned.expected.size(); ++i) {
        if (got[i] == owned.expected[i]) continue;
        const int step = static_cast<int8_t>(got[i]) - static_cast<int8_t>(owned.expected[i]);
        if (!ties.empty() && ties[i] != 0 && (step == 1 || step == -1)) {
          ++tie_steps;  // a tie the reference broke by float rounding
          continue;
        }
        if (differ++ == 0) first = i;
      }
      pass = differ == 0;
      t.tie_steps += tie_steps;
      if (!pass) {
        ADD_FAILURE() << label << ": " << differ << " of " << owned.expected.size()
                      << " bytes differ, first at " << first << ": got "
                      << static_cast<int8_t>(got[first]) << ", want "
                      << static_cast<int8_t>(owned.expected[first]);
      }
    }
    ++(pass ? t.passed : t.failed);
    failed_cases += pass ? 0 : 1;
  }
  for (const auto& [op, t] : tally) {
    std::printf("%-48s %4d passed, %d failed", op.c_str(), t.passed, t.failed);
    if (t.tie_steps > 0) std::printf(" (%zu elements one step off at exact ties)", t.tie_steps);
    std::printf("\n");
  }
  std::printf("%u cases, %d failed\n", count, failed_cases);
  EXPECT_TRUE(r.ok()) << "the case file ends early";
}

std::vector<uint8_t> cases_file;  // from the command line

}  // namespace

TEST(CortexMKernels, CasesMatchExecuTorchsReference) { Run(cases_file); }

}  // namespace ethosu_sdk::kernels

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: kernel_cases_test <cases.bin>\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  ethosu_sdk::kernels::cases_file.assign(std::istreambuf_iterator<char>(in),
                                         std::istreambuf_iterator<char>());
  return RUN_ALL_TESTS();
}
