// The NPU's register state as a command stream leaves it: every cmd0
// parameter and cmd1 parameter/payload pair by opcode. Vela omits writes
// that do not change a register, so the state persists across operations.
// Fields are read through the per-architecture tables (u85_registers.h,
// u55_registers.h), never with bare shifts.
#pragma once

#include <cstdint>

namespace ethosu_sdk::npu {

// A bit field of a cmd0 register's 16-bit parameter.
struct Field {
  uint16_t reg;
  uint8_t shift;
  uint8_t bits;
};

// A bit field of a cmd1 register's 16-bit parameter (the word with the
// opcode; the 32-bit payload follows it).
struct ParamField {
  uint16_t reg;
  uint8_t shift;
  uint8_t bits;
};

// A bit field of a cmd1 register's 32-bit payload.
struct PayloadField {
  uint16_t reg;
  uint8_t shift;
  uint8_t bits;
};

// Opcode numbers: cmd0 registers 0..1023, cmd1 registers 0..511.
constexpr int kCmd0Registers = 1024;
constexpr int kCmd1Registers = 512;

struct RegisterFile {
  uint16_t cmd0[kCmd0Registers];
  uint16_t cmd1_param[kCmd1Registers];
  uint32_t cmd1_payload[kCmd1Registers];

  uint16_t operator[](uint16_t reg) const { return cmd0[reg]; }
  uint32_t Get(Field f) const { return (uint32_t(cmd0[f.reg]) >> f.shift) & ((1u << f.bits) - 1); }
  uint32_t Get(ParamField f) const {
    return (uint32_t(cmd1_param[f.reg]) >> f.shift) & ((1u << f.bits) - 1);
  }
  uint32_t Get(PayloadField f) const {
    return (cmd1_payload[f.reg] >> f.shift) & ((1u << f.bits) - 1);
  }
  uint32_t Payload(uint16_t reg) const { return cmd1_payload[reg]; }
  // A 40-bit address or stride: payload plus the parameter's low 8 bits.
  uint64_t Address(uint16_t reg) const {
    return (uint64_t(cmd1_param[reg] & 0xFF) << 32) | cmd1_payload[reg];
  }
  // A stride: 40 bits, two's complement. Negative strides walk a feature
  // map backwards (how Vela reverses a U55 OFM along H or W).
  int64_t Stride(uint16_t reg) const {
    const uint64_t value = Address(reg);
    return (value & kStrideSignBit) != 0 ? int64_t(value) - int64_t(kStrideSignBit << 1)
                                         : int64_t(value);
  }
  static constexpr uint64_t kStrideSignBit = uint64_t(1) << 39;
};

}  // namespace ethosu_sdk::npu
