// WeightCache: blocks are found only after Commit, under their own key,
// the cache starts over when full, and a block larger than the cache is
// refused (the caller then decodes into its workspace).
#include "sim/npu/weights/weight_cache.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "cc/testing/unit_test.h"

namespace npu = ethosu_sdk::npu;

TEST(WeightCache, FindsCommittedBlocksAndStartsOverWhenFull) {
  std::vector<uint8_t> memory(1 << 20);
  npu::WeightCache cache(memory.data(), memory.size());
  EXPECT_TRUE(cache.Find(1) == nullptr) << "empty cache finds nothing";
  void* a = cache.Reserve(1, 1000);
  EXPECT_TRUE(a != nullptr) << "reserve a block";
  memset(a, 0xAB, 1000);
  EXPECT_TRUE(cache.Find(1) == nullptr) << "uncommitted block is not found";
  cache.Commit();
  EXPECT_TRUE(cache.Find(1) == a) << "committed block is found";
  EXPECT_TRUE(cache.Find(2) == nullptr) << "other keys are not";
  void* b = cache.Reserve(2, 5000);
  cache.Commit();
  EXPECT_TRUE(b != nullptr && cache.Find(2) == b && cache.Find(1) == a)
      << "two blocks live together";
  EXPECT_TRUE(static_cast<uint8_t*>(b) >= static_cast<uint8_t*>(a) + 1000)
      << "blocks do not overlap";
  EXPECT_TRUE(reinterpret_cast<uintptr_t>(b) % 64 == 0) << "blocks are cache-line aligned";
  // A reservation abandoned without Commit is reused, not kept.
  void* abandoned = cache.Reserve(3, 100);
  void* c = cache.Reserve(4, 100);
  cache.Commit();
  EXPECT_TRUE(abandoned == c && cache.Find(3) == nullptr && cache.Find(4) == c)
      << "an abandoned reservation leaves nothing";
  // Filling the cache starts it over.
  void* big = cache.Reserve(5, memory.size() / 2);
  cache.Commit();
  void* bigger = cache.Reserve(6, memory.size() / 2 + 4096);
  cache.Commit();
  EXPECT_TRUE(big != nullptr && bigger != nullptr) << "large blocks fit one at a time";
  EXPECT_TRUE(cache.Find(5) == nullptr && cache.Find(1) == nullptr && cache.Find(6) == bigger)
      << "a full cache starts over";
  EXPECT_TRUE(cache.Reserve(7, memory.size()) == nullptr)
      << "a block larger than the cache is refused";
  npu::WeightCache tiny(memory.data(), 16);
  EXPECT_TRUE(tiny.Reserve(1, 1) == nullptr)
      << "a cache without room for its directory keeps nothing";
  // 1024 entries at most: the 1025th starts over.
  npu::WeightCache many(memory.data(), memory.size());
  for (uint64_t k = 0; k < 1024; ++k) {
    many.Reserve(100 + k, 1);
    many.Commit();
  }
  EXPECT_TRUE(many.Find(100) != nullptr && many.Find(1123) != nullptr) << "1024 entries kept";
  many.Reserve(5000, 1);
  many.Commit();
  EXPECT_TRUE(many.Find(100) == nullptr && many.Find(5000) != nullptr) << "entry 1025 starts over";
}
