// NPU_OP_ELEMENTWISE modes: numbers, names and which operands they read.
//
// Numbers: Vela 5.1.0's register definitions. Modes 0..9 are in the wheel's
// ethosu/vela/ethos_u55_regs/ethos_u55_regs.py (class elementwise_mode, the
// same numbers on U55/U65 and U85); the U85-only modes are those Vela's
// --verbose-register-command-stream prints for its U85 streams (for
// example "NPU_OP_ELEMENTWISE 19, elementwise_mode = ELEMENTWISE_MODE_CMP_GT"
// for torch.gt, "36 ... ELEMENTWISE_MODE_NOT" for torch.ne, "42 ...
// ELEMENTWISE_MODE_AND_NOT" for torch.sign, "11 ... ELEMENTWISE_MODE_DIV" for
// int32 division). LSR is the one number no stream here shows: 10, its place
// between SHL and DIV in the mode names Vela's library carries.
#pragma once

namespace ethosu_sdk::npu {

enum ElementwiseMode : int {
  kEwMul = 0,
  kEwAdd = 1,
  kEwSub = 2,
  kEwMin = 3,
  kEwMax = 4,
  kEwLRelu = 5,
  kEwAbs = 6,
  kEwClz = 7,
  kEwShr = 8,
  kEwShl = 9,
  // U85 only.
  kEwLsr = 10,
  kEwDiv = 11,
  kEwCmpEq = 16,
  kEwCmpNe = 17,
  kEwCmpGe = 18,
  kEwCmpGt = 19,
  kEwAnd = 33,
  kEwOr = 34,
  kEwXor = 35,
  kEwNot = 36,
  kEwAndNot = 42,
};

// The mode's register name without the ELEMENTWISE_MODE_ prefix, or
// "unknown" for a number no Vela register definition names.
inline const char* ElementwiseModeName(int mode) {
  switch (mode) {
    case kEwMul:
      return "MUL";
    case kEwAdd:
      return "ADD";
    case kEwSub:
      return "SUB";
    case kEwMin:
      return "MIN";
    case kEwMax:
      return "MAX";
    case kEwLRelu:
      return "LRELU";
    case kEwAbs:
      return "ABS";
    case kEwClz:
      return "CLZ";
    case kEwShr:
      return "SHR";
    case kEwShl:
      return "SHL";
    case kEwLsr:
      return "LSR";
    case kEwDiv:
      return "DIV";
    case kEwCmpEq:
      return "CMP_EQ";
    case kEwCmpNe:
      return "CMP_NE";
    case kEwCmpGe:
      return "CMP_GE";
    case kEwCmpGt:
      return "CMP_GT";
    case kEwAnd:
      return "AND";
    case kEwOr:
      return "OR";
    case kEwXor:
      return "XOR";
    case kEwNot:
      return "NOT";
    case kEwAndNot:
      return "AND_NOT";
    default:
      return "unknown";
  }
}

// Modes that read the IFM only; the IFM2 registers are stale then.
inline bool UnaryElementwise(int mode) {
  return mode == kEwAbs || mode == kEwClz || mode == kEwNot;
}

// Comparisons: the operands are pre-scaled like ADD's, the result is a mask.
inline bool ComparisonElementwise(int mode) {
  return mode == kEwCmpEq || mode == kEwCmpNe || mode == kEwCmpGe || mode == kEwCmpGt;
}

// Bit operations on the operands' integer values (no pre-scale).
inline bool BitwiseElementwise(int mode) {
  return mode == kEwAnd || mode == kEwOr || mode == kEwXor || mode == kEwNot || mode == kEwAndNot;
}

inline bool ShiftElementwise(int mode) { return mode == kEwShl || mode == kEwShr; }

}  // namespace ethosu_sdk::npu
