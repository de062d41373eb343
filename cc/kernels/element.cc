#include "cc/kernels/element.h"

#include <cmath>
#include <cstring>

namespace ethosu_sdk::kernels {
namespace {

// Category rank of torch.promote_types: bool < integral < floating.
int Category(ScalarType t) { return t == ScalarType::kBool ? 0 : IsFloating(t) ? 2 : 1; }

ScalarType SignedOfBits(int bits) {
  switch (bits) {
    case 8:
      return ScalarType::kChar;
    case 16:
      return ScalarType::kShort;
    case 32:
      return ScalarType::kInt;
    default:
      return ScalarType::kLong;
  }
}

// Double to int64 as a cast on two's complement hardware would wrap it:
// truncated toward zero, taken modulo 2^64; NaN and infinities give 0 (x86
// gives INT64_MIN, Arm saturates: PyTorch leaves it undefined).
int64_t WrapToInt64(double v) {
  if (!std::isfinite(v)) return 0;
  v = std::trunc(v);
  if (v >= -9223372036854775808.0 && v < 9223372036854775808.0) return static_cast<int64_t>(v);
  const double m = std::fmod(v, 18446744073709551616.0);  // exact in double
  const double u = m < 0 ? m + 18446744073709551616.0 : m;
  return static_cast<int64_t>(static_cast<uint64_t>(u));
}

}  // namespace

int IntBits(ScalarType t) {
  switch (t) {
    case ScalarType::kByte:
    case ScalarType::kChar:
      return 8;
    case ScalarType::kShort:
      return 16;
    case ScalarType::kInt:
      return 32;
    default:
      return 64;
  }
}

bool IsFloating(ScalarType t) { return t == ScalarType::kFloat || t == ScalarType::kDouble; }

bool IsIntegral(ScalarType t) {
  return t == ScalarType::kByte || t == ScalarType::kChar || t == ScalarType::kShort ||
         t == ScalarType::kInt || t == ScalarType::kLong;
}

bool IsKnownDtype(ScalarType t) { return IsFloating(t) || IsIntegral(t) || t == ScalarType::kBool; }

ScalarType PromoteTypes(ScalarType a, ScalarType b) {
  if (a == b) return a;
  const int ca = Category(a), cb = Category(b);
  if (ca != cb) return ca > cb ? a : b;
  if (ca == 2) return ScalarType::kDouble;  // float32 with float64
  // Two integer types.
  const bool ua = a == ScalarType::kByte, ub = b == ScalarType::kByte;
  if (ua || ub) {
    const ScalarType other = ua ? b : a;
    const int bits = IntBits(other);
    return SignedOfBits(bits == 8 ? 16 : bits);
  }
  return IntBits(a) >= IntBits(b) ? a : b;
}

ScalarType PromoteWithScalar(ScalarType tensor, bool scalar_is_floating, bool scalar_is_bool) {
  const int scalar_category = scalar_is_floating ? 2 : scalar_is_bool ? 0 : 1;
  if (scalar_category <= Category(tensor)) return tensor;
  return scalar_category == 2 ? ScalarType::kFloat : ScalarType::kLong;
}

double LoadDouble(const Tensor& t, size_t i) {
  switch (t.dtype) {
    case ScalarType::kByte:
      return t.Data<const uint8_t>()[i];
    case ScalarType::kChar:
      return t.Data<const int8_t>()[i];
    case ScalarType::kShort:
      return t.Data<const int16_t>()[i];
    case ScalarType::kInt:
      return t.Data<const int32_t>()[i];
    case ScalarType::kLong:
      return static_cast<double>(t.Data<const int64_t>()[i]);
    case ScalarType::kFloat:
      return t.Data<const float>()[i];
    case ScalarType::kDouble:
      return t.Data<const double>()[i];
    case ScalarType::kBool:
      return t.Data<const uint8_t>()[i] != 0 ? 1.0 : 0.0;
  }
  return 0.0;
}

int64_t LoadInt(const Tensor& t, size_t i) {
  switch (t.dtype) {
    case ScalarType::kByte:
      return t.Data<const uint8_t>()[i];
    case ScalarType::kChar:
      return t.Data<const int8_t>()[i];
    case ScalarType::kShort:
      return t.Data<const int16_t>()[i];
    case ScalarType::kInt:
      return t.Data<const int32_t>()[i];
    case ScalarType::kLong:
      return t.Data<const int64_t>()[i];
    case ScalarType::kFloat:
      return WrapToInt64(t.Data<const float>()[i]);
    case ScalarType::kDouble:
      return WrapToInt64(t.Data<const double>()[i]);
    case ScalarType::kBool:
      return t.Data<const uint8_t>()[i] != 0 ? 1 : 0;
  }
  return 0;
}

void StoreInt(const Tensor& t, size_t i, int64_t v) {
  const uint64_t u = static_cast<uint64_t>(v);
  switch (t.dtype) {
    case ScalarType::kByte:
      t.Data<uint8_t>()[i] = static_cast<uint8_t>(u);
      return;
    case ScalarType::kChar:
      t.Data<int8_t>()[i] = static_cast<int8_t>(u);
      return;
    case ScalarType::kShort:
      t.Data<int16_t>()[i] = static_cast<int16_t>(u);
      return;
    case ScalarType::kInt:
      t.Data<int32_t>()[i] = static_cast<int32_t>(u);
      return;
    case ScalarType::kLong:
      t.Data<int64_t>()[i] = v;
      return;
    case ScalarType::kFloat:
      t.Data<float>()[i] = static_cast<float>(v);
      return;
    case ScalarType::kDouble:
      t.Data<double>()[i] = static_cast<double>(v);
      return;
    case ScalarType::kBool:
      t.Data<uint8_t>()[i] = v != 0 ? 1 : 0;
      return;
  }
}

void StoreDouble(const Tensor& t, size_t i, double v) {
  switch (t.dtype) {
    case ScalarType::kFloat:
      t.Data<float>()[i] = static_cast<float>(v);
      return;
    case ScalarType::kDouble:
      t.Data<double>()[i] = v;
      return;
    case ScalarType::kBool:
      t.Data<uint8_t>()[i] = v != 0.0 ? 1 : 0;
      return;  // NaN is true
    default:
      StoreInt(t, i, WrapToInt64(v));
      return;
  }
}

Status ExpectBroadcastOf(const Tensor* const* operands, int count, const Tensor& out,
                         const char* op) {
  int32_t rank = 0;
  for (int k = 0; k < count; ++k) rank = operands[k]->rank > rank ? operands[k]->rank : rank;
  int32_t sizes[runtime::kMaxRank];
  for (int32_t d = 0; d < rank; ++d) {
    sizes[d] = 1;
    for (int k = 0; k < count; ++k) {
      const Tensor& t = *operands[k];
      const int32_t at = d - (rank - t.rank);
      const int32_t size = at >= 0 ? t.sizes[at] : 1;
      if (size != 1 && sizes[d] != 1 && size != sizes[d])
        return ShapeError("operands do not broadcast", sizes[d], size);
      if (size != 1) sizes[d] = size;
    }
  }
  return ExpectShape(out, sizes, rank, op);
}

Status ExpectBroadcastOf(const Tensor& a, const Tensor& b, const Tensor& out, const char* op) {
  const Tensor* operands[] = {&a, &b};
  return ExpectBroadcastOf(operands, 2, out, op);
}

Tensor ScalarTensor(double value, bool as_int, int64_t* int_storage, double* double_storage) {
  Tensor t;
  t.rank = 0;
  t.numel = 1;
  t.nbytes = 8;
  if (as_int && ScalarIsIntegral(value) && std::fabs(value) < 9.2e18) {
    *int_storage = static_cast<int64_t>(value);
    t.dtype = ScalarType::kLong;
    t.data = int_storage;
  } else {
    *double_storage = value;
    t.dtype = ScalarType::kDouble;
    t.data = double_storage;
  }
  return t;
}

double RoundTo(ScalarType t, double v) {
  return t == ScalarType::kFloat ? static_cast<double>(static_cast<float>(v)) : v;
}

}  // namespace ethosu_sdk::kernels
