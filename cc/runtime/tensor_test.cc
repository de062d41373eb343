// Tensor's dim order helpers: the default order, layouts that differ only
// in where size-1 dimensions go, the sizes in memory order, the messages'
// text.
#include "cc/runtime/tensor.h"

#include "cc/core/test_check.h"

namespace {

using ethosu_sdk::core_test::Check;
using ethosu_sdk::core_test::CheckText;
using ethosu_sdk::runtime::FormatDimOrder;
using ethosu_sdk::runtime::FormatSizes;
using ethosu_sdk::runtime::Tensor;

Tensor Make(int32_t n, int32_t c, int32_t h, int32_t w, bool channels_last) {
  Tensor t;
  t.rank = 4;
  t.sizes[0] = n;
  t.sizes[1] = c;
  t.sizes[2] = h;
  t.sizes[3] = w;
  if (channels_last) {
    t.dim_order[1] = 2;
    t.dim_order[2] = 3;
    t.dim_order[3] = 1;
  }
  return t;
}

void TestDefault() {
  const Tensor t = Make(1, 3, 4, 5, false);
  Check(t.HasDefaultDimOrder() && t.HasDefaultLayout(), "identity is the default", __LINE__);
  const Tensor scalar;
  Check(scalar.HasDefaultDimOrder() && scalar.HasDefaultLayout(), "rank 0 is the default", __LINE__);
  Check(t.InMemoryOrder().SameShape(t), "default: memory order is the shape", __LINE__);
}

void TestChannelsLast() {
  const Tensor t = Make(2, 3, 4, 5, true);
  Check(!t.HasDefaultDimOrder() && !t.HasDefaultLayout(), "channels-last is not the default", __LINE__);
  const Tensor m = t.InMemoryOrder();
  Check(m.rank == 4 && m.sizes[0] == 2 && m.sizes[1] == 4 && m.sizes[2] == 5 && m.sizes[3] == 3,
        "memory order N,H,W,C", __LINE__);
  Check(m.HasDefaultDimOrder(), "memory order has the default dim order", __LINE__);
  Check(t.SameShapeAndLayout(Make(2, 3, 4, 5, true)), "same shape, same dim order", __LINE__);
  Check(!t.SameShapeAndLayout(Make(2, 3, 4, 5, false)), "same shape, other dim order", __LINE__);
  Check(!t.SameShapeAndLayout(Make(2, 3, 5, 4, true)), "other shape, same dim order", __LINE__);
}

void TestSizeOneDimensions() {
  // [1,8,1,1] channels-last lies in memory as [1,8,1,1] does: C only.
  const Tensor pooled = Make(1, 8, 1, 1, true);
  Check(!pooled.HasDefaultDimOrder(), "dim order is not the identity", __LINE__);
  Check(pooled.HasDefaultLayout(), "but the data lies as in the default", __LINE__);
  Check(pooled.SameShapeAndLayout(Make(1, 8, 1, 1, false)), "same layout as the default", __LINE__);
  // [1,1,4,5] channels-last: C of size 1 moves, H and W keep their order.
  Check(Make(1, 1, 4, 5, true).HasDefaultLayout(), "single channel", __LINE__);
  Check(!Make(1, 3, 1, 5, true).HasDefaultLayout(), "W before C is not the default", __LINE__);
}

void TestText() {
  char text[64];
  const Tensor t = Make(1, 3, 224, 224, true);
  FormatSizes(t, text, sizeof(text));
  CheckText(text, "(1,3,224,224)", __LINE__);
  FormatDimOrder(t, text, sizeof(text));
  CheckText(text, "(0,2,3,1)", __LINE__);
  FormatSizes(t.InMemoryOrder(), text, sizeof(text));
  CheckText(text, "(1,224,224,3)", __LINE__);
  FormatSizes(Tensor(), text, sizeof(text));
  CheckText(text, "()", __LINE__);
  FormatSizes(t, text, 6);
  CheckText(text, "(1,3,", __LINE__);
}

}  // namespace

int main() {
  TestDefault();
  TestChannelsLast();
  TestSizeOneDimensions();
  TestText();
  return ethosu_sdk::core_test::Finish("tensor_test");
}
