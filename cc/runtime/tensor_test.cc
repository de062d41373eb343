// Tensor's dim order helpers: the default order, layouts that differ only
// in where size-1 dimensions go, the sizes in memory order, the messages'
// text.
#include "cc/runtime/tensor.h"

#include "cc/testing/unit_test.h"

namespace {

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

TEST(Tensor, Default) {
  const Tensor t = Make(1, 3, 4, 5, false);
  EXPECT_TRUE(t.HasDefaultDimOrder() && t.HasDefaultLayout()) << "identity is the default";
  const Tensor scalar;
  EXPECT_TRUE(scalar.HasDefaultDimOrder() && scalar.HasDefaultLayout()) << "rank 0 is the default";
  EXPECT_TRUE(t.InMemoryOrder().SameShape(t)) << "default: memory order is the shape";
}

TEST(Tensor, ChannelsLast) {
  const Tensor t = Make(2, 3, 4, 5, true);
  EXPECT_TRUE(!t.HasDefaultDimOrder() && !t.HasDefaultLayout())
      << "channels-last is not the default";
  const Tensor m = t.InMemoryOrder();
  EXPECT_TRUE(m.rank == 4 && m.sizes[0] == 2 && m.sizes[1] == 4 && m.sizes[2] == 5 &&
              m.sizes[3] == 3)
      << "memory order N,H,W,C";
  EXPECT_TRUE(m.HasDefaultDimOrder()) << "memory order has the default dim order";
  EXPECT_TRUE(t.SameShapeAndLayout(Make(2, 3, 4, 5, true))) << "same shape, same dim order";
  EXPECT_TRUE(!t.SameShapeAndLayout(Make(2, 3, 4, 5, false))) << "same shape, other dim order";
  EXPECT_TRUE(!t.SameShapeAndLayout(Make(2, 3, 5, 4, true))) << "other shape, same dim order";
}

TEST(Tensor, SizeOneDimensions) {
  // [1,8,1,1] channels-last lies in memory as [1,8,1,1] does: C only.
  const Tensor pooled = Make(1, 8, 1, 1, true);
  EXPECT_TRUE(!pooled.HasDefaultDimOrder()) << "dim order is not the identity";
  EXPECT_TRUE(pooled.HasDefaultLayout()) << "but the data lies as in the default";
  EXPECT_TRUE(pooled.SameShapeAndLayout(Make(1, 8, 1, 1, false))) << "same layout as the default";
  // [1,1,4,5] channels-last: C of size 1 moves, H and W keep their order.
  EXPECT_TRUE(Make(1, 1, 4, 5, true).HasDefaultLayout()) << "single channel";
  EXPECT_TRUE(!Make(1, 3, 1, 5, true).HasDefaultLayout()) << "W before C is not the default";
}

TEST(Tensor, Text) {
  char text[64];
  const Tensor t = Make(1, 3, 224, 224, true);
  FormatSizes(t, text, sizeof(text));
  EXPECT_STREQ(text, "(1,3,224,224)");
  FormatDimOrder(t, text, sizeof(text));
  EXPECT_STREQ(text, "(0,2,3,1)");
  FormatSizes(t.InMemoryOrder(), text, sizeof(text));
  EXPECT_STREQ(text, "(1,224,224,3)");
  FormatSizes(Tensor(), text, sizeof(text));
  EXPECT_STREQ(text, "()");
  FormatSizes(t, text, 6);
  EXPECT_STREQ(text, "(1,3,");
}

}  // namespace
