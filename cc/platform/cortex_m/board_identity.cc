// BoardName and BoardNpu of a Cortex-M board, from its descriptor
// (platforms/boards/<board>.bzl): the board library (board.bzl) compiles this
// file with ESDK_BOARD_NAME (the name as an identifier: a define cannot carry
// quotes through Bazel), ESDK_NPU_BASE and ESDK_NPU_IRQ set.
#include "cc/platform/platform.h"

#if !defined(ESDK_BOARD_NAME) || !defined(ESDK_NPU_BASE) || !defined(ESDK_NPU_IRQ)
#error "the board library defines ESDK_BOARD_NAME, ESDK_NPU_BASE and ESDK_NPU_IRQ"
#endif

#define ESDK_STRING(name) ESDK_STRING_OF(name)
#define ESDK_STRING_OF(name) #name

namespace ethosu_sdk::platform {

const char* BoardName() { return ESDK_STRING(ESDK_BOARD_NAME); }

// The Ethos-U's register block (secure alias) and IRQ; {0, -1} without one.
NpuLocation BoardNpu() { return {ESDK_NPU_BASE, ESDK_NPU_IRQ}; }

}  // namespace ethosu_sdk::platform
