// Command-stream decoding: register writes go into the register file,
// each NPU_OP_* command goes to the caller's `run`. Known-opcode checks are
// per architecture; the stream must end with NPU_OP_STOP.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/npu/commands/register_file.h"
#include "sim/npu/commands/u55_registers.h"
#include "sim/npu/stream_error.h"

namespace ethosu_sdk::npu {

// Operation commands (NPU_OP_*) have opcodes below this; register writes above.
constexpr uint16_t kFirstRegisterOpcode = 256;

// Decodes from word *at until NPU_OP_STOP or a failure; *at is left on that
// command. `run(opcode, param, byte_offset)` executes an operation command.
template <typename Run>
Status DecodeCommands(bool u55, const uint32_t* words, size_t count, RegisterFile* regs, size_t* at,
                      Run run) {
  using namespace u85;
  for (size_t& i = *at; i < count; ++i) {
    const uint32_t word = words[i];
    const uint16_t opcode = word & kOpcodeMask;
    const uint32_t control = (word >> kControlShift) & kControlMask;
    const uint16_t param = uint16_t(word >> kParamShift);
    if (control == kCmd0Control) {
      if (!(IsKnownCmd0(opcode) || (u55 && u55::IsU55OnlyCmd0(opcode)))) {
        return StreamError("unknown command 0x%03x at word %u", opcode, unsigned(i));
      }
      if (opcode == kOpStop) return Status::Ok();
      if (opcode < kFirstRegisterOpcode) {
        Status status = run(opcode, param, uint32_t(4 * i));
        if (!status.ok())
          return Status::Error(status.code(), "word %u: %s", unsigned(i), status.message())
              .WithCommandOffset(status.command_offset());
      } else {
        regs->cmd0[opcode] = param;
      }
    } else if (control == kCmd1Control) {
      if (i + 1 >= count) return StreamError("command stream ends inside a command");
      if (!IsKnownCmd1(opcode)) {
        return StreamError("unknown command 0x%03x (with payload) at word %u", opcode, unsigned(i));
      }
      if (opcode == kOpBranch) {
        return Status::Error(ErrorCode::kNpuUnsupported, "NPU_OP_BRANCH not supported");
      }
      regs->cmd1_param[opcode] = param;
      regs->cmd1_payload[opcode] = words[++i];
    } else {
      return StreamError("bad control field %u at word %u", control, unsigned(i));
    }
  }
  return StreamError("command stream has no NPU_OP_STOP");
}

}  // namespace ethosu_sdk::npu
