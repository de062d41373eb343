#include "cc/drivers/ethosu/identity.h"

#include "cc/ethosu/mmio.h"

namespace ethosu_sdk::drivers::ethosu {
namespace {

namespace mmio = ::ethosu_sdk::ethosu::mmio;

uint32_t Field(uint32_t word, uint32_t shift, uint32_t bits) {
  return (word >> shift) & ((1u << bits) - 1u);
}

// U85: log2 of the weight decoders (one per core); U55/U65 report none.
uint32_t WeightDecoders(const Identity& identity) {
  return identity.product == Product::kEthosU85
             ? Field(identity.config, mmio::config::kU85NumWdShift, 2)
             : 0;
}

uint32_t ArchRevision(const Identity& identity) {
  return (uint32_t(identity.arch_minor) << 4) | uint32_t(identity.arch_patch);
}

}  // namespace

Identity Identity::FromRegisters(uint32_t id, uint32_t config) {
  Identity identity;
  identity.id = id;
  identity.config = config;
  identity.arch_major = int(Field(id, mmio::id::kArchMajorShift, 4));
  identity.arch_minor = int(Field(id, mmio::id::kArchMinorShift, 8));
  identity.arch_patch = int(Field(id, mmio::id::kArchPatchShift, 4));
  identity.macs = 1 << Field(config, mmio::config::kMacsPerCcShift, 4);
  identity.cmd_stream_version = int(Field(config, mmio::config::kCmdStreamVersionShift, 4));
  switch (Field(config, mmio::config::kProductShift, 4)) {
    case mmio::config::kProductU55:
      identity.product = Product::kEthosU55;
      break;
    case mmio::config::kProductU65:
      identity.product = Product::kEthosU65;
      break;
    case mmio::config::kProductU85:
      identity.product = Product::kEthosU85;
      break;
    default:
      identity.product = Product::kUnknown;
      break;
  }
  return identity;
}

void AppendDescription(const Identity& identity, TextBuilder& text) {
  switch (identity.product) {
    case Product::kEthosU55:
      text.Str("Ethos-U55-");
      break;
    case Product::kEthosU65:
      text.Str("Ethos-U65-");
      break;
    case Product::kEthosU85:
      text.Str("Ethos-U85-");
      break;
    case Product::kUnknown:
      text.Str("an unknown Ethos-U with ");
      break;
  }
  text.UInt(uint64_t(identity.macs)).Str(" (arch ").UInt(uint64_t(identity.arch_major)).Char('.');
  text.UInt(uint64_t(identity.arch_minor)).Char('.').UInt(uint64_t(identity.arch_patch));
  text.Str(", CONFIG 0x").Hex(identity.config, 8).Char(')');
}

Status CheckCompatible(const Identity& compiled, const Identity& hardware) {
  const bool same_config = compiled.product == hardware.product &&
                           compiled.product != Product::kUnknown &&
                           compiled.macs == hardware.macs &&
                           compiled.cmd_stream_version == hardware.cmd_stream_version &&
                           WeightDecoders(compiled) == WeightDecoders(hardware);
  // A later minor or patch revision of the same architecture runs older
  // streams; a different major revision is a different register layout.
  const bool arch_ok = compiled.arch_major == hardware.arch_major &&
                       ArchRevision(hardware) >= ArchRevision(compiled);
  if (same_config && arch_ok) return Status::Ok();
  char compiled_text[96], hardware_text[96];
  TextBuilder compiled_builder(compiled_text, sizeof(compiled_text));
  TextBuilder hardware_builder(hardware_text, sizeof(hardware_text));
  AppendDescription(compiled, compiled_builder);
  AppendDescription(hardware, hardware_builder);
  return Status::Error(ErrorCode::kNpuUnsupported,
                       "NPU mismatch: the model was compiled for %s, this NPU is %s", compiled_text,
                       hardware_text);
}

}  // namespace ethosu_sdk::drivers::ethosu
