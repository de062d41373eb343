// Stores to an address the AN547 map leaves unmapped: the bus fault must be
// reported on the console and end the run with the fault status.
#include <cstdint>

int main() {
  *reinterpret_cast<volatile uint32_t*>(0xF0000000u) = 1;
  return 0;  // not reached
}
