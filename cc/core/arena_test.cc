#include "cc/core/arena.h"

#include <cstddef>
#include <cstdint>

#include "cc/testing/unit_test.h"

namespace {

using ethosu_sdk::Arena;

alignas(64) uint8_t memory[256];

bool AlignedTo(const void* p, size_t align) { return reinterpret_cast<uintptr_t>(p) % align == 0; }

TEST(Arena, AlignsEachRequest) {
  Arena arena(memory, sizeof(memory));
  void* byte = arena.Allocate(1, 1);
  EXPECT_TRUE(byte == memory && arena.used() == 1);
  void* line = arena.Allocate(4, 16);
  EXPECT_TRUE(line == memory + 16 && AlignedTo(line, 16));
  EXPECT_TRUE(arena.used() == 20);  // the padding counts as used
  void* word = arena.Allocate(8, 8);
  EXPECT_TRUE(word == memory + 24 && arena.used() == 32);
}

TEST(Arena, AlignsFromAnUnalignedBase) {
  Arena arena(memory + 3, sizeof(memory) - 3);
  void* p = arena.Allocate(8, 8);
  EXPECT_TRUE(p == memory + 8 && arena.used() == 13);
}

TEST(Arena, RefusesWhatDoesNotFit) {
  Arena arena(memory, 64);
  EXPECT_TRUE(arena.Allocate(48, 1) != nullptr);
  EXPECT_TRUE(arena.Allocate(17, 1) == nullptr);
  EXPECT_TRUE(arena.used() == 48);  // a refusal takes nothing
  // Fits in size, not once aligned: 48 -> 64 leaves no room.
  EXPECT_TRUE(arena.Allocate(8, 64) == nullptr && arena.used() == 48);
  EXPECT_TRUE(arena.Allocate(16, 16) == memory + 48 && arena.used() == 64);
  EXPECT_TRUE(arena.Allocate(1, 1) == nullptr);
  EXPECT_TRUE(arena.Allocate(0, 1) != nullptr);  // empty requests always fit
  EXPECT_TRUE(Arena().Allocate(1, 1) == nullptr);
}

struct Seven {
  int value = 7;
};

TEST(Arena, NewConstructs) {
  Arena arena(memory, sizeof(memory));
  for (uint8_t& b : memory) b = 0xAA;
  Seven* sevens = arena.New<Seven>(3);
  EXPECT_TRUE(sevens != nullptr && AlignedTo(sevens, alignof(Seven)));
  EXPECT_TRUE(sevens[0].value == 7 && sevens[2].value == 7);
  EXPECT_TRUE(arena.New<uint64_t>(SIZE_MAX / 4) == nullptr);  // count * size overflows
  EXPECT_TRUE(arena.New<uint64_t>(64) == nullptr);            // too big for what is left
}

}  // namespace
