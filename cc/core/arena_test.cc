#include "cc/core/arena.h"

#include <cstddef>
#include <cstdint>

#include "cc/core/test_check.h"

namespace {

using ethosu_sdk::Arena;

alignas(64) uint8_t memory[256];

bool AlignedTo(const void* p, size_t align) { return reinterpret_cast<uintptr_t>(p) % align == 0; }

void AlignsEachRequest() {
  Arena arena(memory, sizeof(memory));
  void* byte = arena.Allocate(1, 1);
  CORE_CHECK(byte == memory && arena.used() == 1);
  void* line = arena.Allocate(4, 16);
  CORE_CHECK(line == memory + 16 && AlignedTo(line, 16));
  CORE_CHECK(arena.used() == 20);  // the padding counts as used
  void* word = arena.Allocate(8, 8);
  CORE_CHECK(word == memory + 24 && arena.used() == 32);
}

void AlignsFromAnUnalignedBase() {
  Arena arena(memory + 3, sizeof(memory) - 3);
  void* p = arena.Allocate(8, 8);
  CORE_CHECK(p == memory + 8 && arena.used() == 13);
}

void RefusesWhatDoesNotFit() {
  Arena arena(memory, 64);
  CORE_CHECK(arena.Allocate(48, 1) != nullptr);
  CORE_CHECK(arena.Allocate(17, 1) == nullptr);
  CORE_CHECK(arena.used() == 48);  // a refusal takes nothing
  // Fits in size, not once aligned: 48 -> 64 leaves no room.
  CORE_CHECK(arena.Allocate(8, 64) == nullptr && arena.used() == 48);
  CORE_CHECK(arena.Allocate(16, 16) == memory + 48 && arena.used() == 64);
  CORE_CHECK(arena.Allocate(1, 1) == nullptr);
  CORE_CHECK(arena.Allocate(0, 1) != nullptr);  // empty requests always fit
  CORE_CHECK(Arena().Allocate(1, 1) == nullptr);
}

struct Seven {
  int value = 7;
};

void NewConstructs() {
  Arena arena(memory, sizeof(memory));
  for (uint8_t& b : memory) b = 0xAA;
  Seven* sevens = arena.New<Seven>(3);
  CORE_CHECK(sevens != nullptr && AlignedTo(sevens, alignof(Seven)));
  CORE_CHECK(sevens[0].value == 7 && sevens[2].value == 7);
  CORE_CHECK(arena.New<uint64_t>(SIZE_MAX / 4) == nullptr);  // count * size overflows
  CORE_CHECK(arena.New<uint64_t>(64) == nullptr);            // too big for what is left
}

}  // namespace

int main() {
  AlignsEachRequest();
  AlignsFromAnUnalignedBase();
  RefusesWhatDoesNotFit();
  NewConstructs();
  return ethosu_sdk::core_test::Finish("arena_test");
}
