// Command-stream decoding: register writes go into the register file,
// each NPU_OP_* command goes to the caller's `run`, each U85 branch to its
// `branch`. Known-opcode checks are
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

// NPU_OP_BRANCH (U85): the parameter's bit 0 is the condition, the payload
// the target's byte offset in the stream (Vela 5.1.0's npu_op_branch_t).
constexpr uint16_t kBranchCondMask = 1;
enum BranchCond : uint16_t {
  kBranchAlways = 0,
  kBranchIfResultFlag = 1,  // BRANCH_COND_RF_TRUE: COND_STATUS.result_flag set
};

// Decodes from word *at until NPU_OP_STOP or a failure; *at is left on that
// command. `run(opcode, param, byte_offset)` executes an operation command;
// `branch(cond, &taken)` decides an NPU_OP_BRANCH (and may refuse it).
template <typename Run, typename Branch>
Status DecodeCommands(bool u55, const uint32_t* words, size_t count, RegisterFile* regs, size_t* at,
                      Run run, Branch branch) {
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
        if (u55)
          return StreamError("NPU_OP_BRANCH at word %u: no Ethos-U55/U65 command", unsigned(i));
        const uint32_t target = words[i + 1];
        if (target % 4 != 0 || target / 4 >= count) {
          return StreamError("NPU_OP_BRANCH at word %u to byte %u, outside the %u-word stream",
                             unsigned(i), unsigned(target), unsigned(count));
        }
        bool taken = false;
        Status status = branch(BranchCond(param & kBranchCondMask), &taken);
        if (!status.ok())
          return Status::Error(status.code(), "word %u: %s", unsigned(i), status.message());
        if (taken) {
          i = target / 4;
          --i;  // the loop's ++i lands on the target (size_t wraps for word 0)
        } else {
          ++i;  // past the payload
        }
        continue;
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
