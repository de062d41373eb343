#include "sim/npu/operations/activation_setup.h"

#include "sim/npu/commands/u55_registers.h"
#include "sim/npu/configs.h"
#include "sim/npu/stream_error.h"

namespace ethosu_sdk::npu {
namespace {

using namespace u85;

constexpr int kTableEntries = 256;

// U85 activation functions with an 8-bit-indexed table.
enum U85Function : uint32_t {
  kNone = 0,
  kLutU8U8 = 1,
  kLutS8S8 = 4,
  kLutS8S16 = 5,
  kLutS8S32 = 7,
  kLutS16S16 = 8,  // 16-bit index, interpolated (int16 graphs' TABLE)
  kLutS16S32 = 9,  // the same, the 32-bit result unrounded (TOSA's int16 TABLE)
};

// U55: clip to ACTIVATION_MIN/MAX or a forced type range, then TABLE_k.
Status PrepareU55(const RegisterFile& r, const FeatureMap& ofm, ActivationStage* a,
                  int* table_bytes, int* table_offset) {
  // GUESS (undocumented): with clip range OFM_PRECISION the 16-bit
  // ACTIVATION_MIN/MAX do not apply to 32-bit OFMs; Vela sets them to
  // -32768..32767 there while its 32-bit intermediates (U55 softmax's
  // rescale chain) need the full range. Pinned by u55_softmax.
  const uint32_t range = r.Get(u55::kActivationClipRange);
  const uint32_t function = r.Get(kActivationFunction);
  a->clip = range != u55::kClipOfm || ofm.element_bytes != 4;
  if (range == u55::kClipForceUint8 || range == u55::kClipForceInt8 ||
      range == u55::kClipForceInt16) {
    const int64_t lo = range == u55::kClipForceUint8  ? 0
                       : range == u55::kClipForceInt8 ? -128
                                                      : -32768;
    const int64_t hi = range == u55::kClipForceUint8  ? 255
                       : range == u55::kClipForceInt8 ? 127
                                                      : 32767;
    a->clip_min = a->clip_min > lo ? a->clip_min : lo;
    a->clip_max = a->clip_max < hi ? a->clip_max : hi;
  } else if (range != u55::kClipOfm) {
    return StreamError("U55 activation clip range %u not valid", range);
  }
  if (function == kNone) return Status::Ok();
  if (function < u55::kActivationTable0 || function > u55::kActivationTable7) {
    return Status::Error(ErrorCode::kNpuUnsupported, "U55 activation function %u not supported",
                         function);
  }
  // TABLE_k: the table starts at slot k (256 bytes) of the LUT banks
  // (Vela's DMA destination); its entries are as wide as the OFM. A 16-bit
  // OFM takes the interpolating table of 512 32-bit entries, as U85's
  // LUT_S16_S16 (`u55_a16w8_conv_tanh`, `u55_a16w8_linear_sigmoid`).
  *table_offset = int(function - u55::kActivationTable0) * kTableEntries;
  if (ofm.element_bytes == 2) {
    a->interpolate16 = true;
    *table_bytes = ActivationStage::kInterpolatedTableBytes;
    return Status::Ok();
  }
  a->entry_bytes = ofm.element_bytes;
  a->entry_signed = ofm.is_signed;
  a->index_signed = ofm.is_signed || ofm.element_bytes != 1;
  *table_bytes = kTableEntries * a->entry_bytes;
  return Status::Ok();
}

Status PrepareU85(const RegisterFile& r, const FeatureMap& ofm, ActivationStage* a,
                  int* table_bytes, int* table_offset) {
  a->clip = r.Get(kActivationNoClip) == 0;
  const uint32_t function = r.Get(kActivationFunction);
  switch (function) {
    case kNone:
      return Status::Ok();
    case kLutU8U8:
      a->entry_signed = false;
      a->index_signed = false;
      break;
    case kLutS8S8:
      break;
    case kLutS8S16:
      a->entry_bytes = 2;
      break;
    case kLutS8S32:
      a->entry_bytes = 4;
      break;
    case kLutS16S16:
    case kLutS16S32: {
      // One 512-entry interpolated table; S32 keeps the unrounded result.
      const int out_bytes = function == kLutS16S32 ? 4 : 2;
      a->interpolate16 = true;
      a->interpolate16_wide = function == kLutS16S32;
      *table_bytes = ActivationStage::kInterpolatedTableBytes;
      *table_offset = int(r.Get(kActivationTable)) * *table_bytes;
      if (ofm.element_bytes != out_bytes) {
        return StreamError("%d-bit LUT output for an OFM of %d bytes", out_bytes * 8,
                           ofm.element_bytes);
      }
      return Status::Ok();
    }
    default:  // TANH, SIGMOID (Vela emits tables instead) and any other
      return Status::Error(
          ErrorCode::kNpuUnsupported,
          "activation function %u (LUT_TANH/LUT_SIGMOID or another variant) not supported",
          function);
  }
  // The table field counts tables of this size (Vela divides its 256-byte
  // slot index by the table size in slots).
  *table_bytes = kTableEntries * a->entry_bytes;
  *table_offset = int(r.Get(kActivationTable)) * *table_bytes;
  if (ofm.element_bytes != a->entry_bytes) {
    return StreamError("LUT output of %d bytes for an OFM of %d bytes", a->entry_bytes,
                       ofm.element_bytes);
  }
  return Status::Ok();
}

// ACC_FORMAT on U85: input RESET, KEEP or IFM2, output enabled or disabled,
// format 32- or 48-bit. Only a convolution chains accumulators (KEEP,
// output disabled: Vela's decomposition of strides beyond 3); the others
// refuse it by name rather than write an OFM the stream disabled.
Status CheckAccumulator(const RegisterFile& r, Accumulators accumulators) {
  const uint32_t input = r.Get(kAccInput);
  const bool chains = input == kAccKeep || r.Get(kAccOutputDisable) != 0;
  if (chains && accumulators != Accumulators::kFromOperationOrIfm2) {
    return Status::Error(
        ErrorCode::kNpuUnsupported,
        "accumulator chaining (ACC_INPUT_KEEP or ACC_OUTPUT disabled) supported on "
        "convolutions only, not on this operation");
  }
  if (accumulators == Accumulators::kUnchecked) return Status::Ok();
  if (input > kAccFromIfm2) return StreamError("bad accumulator input %u", input);
  if (chains && r.Get(kAccFormatType) != 0) {
    return Status::Error(ErrorCode::kNpuUnsupported,
                         "48-bit accumulator chaining (ACC_INPUT_KEEP or ACC_OUTPUT disabled) not "
                         "supported");
  }
  const bool from_ifm2 = input == kAccFromIfm2;
  if (accumulators == Accumulators::kFromIfm2 && !from_ifm2) {
    return StreamError("pooling mode NONE needs ACC_INPUT_IFM2");
  }
  if (accumulators == Accumulators::kFromOperation && from_ifm2) {
    return StreamError("accumulator input from IFM2 not supported here");
  }
  // Format 1 (48-bit, int16 activations): see scales.cc for its records.
  if (r.Get(kAccFormatType) > 1) {
    return Status::Error(ErrorCode::kNpuUnsupported, "accumulator format %u not supported",
                         r.Get(kAccFormatType));
  }
  return Status::Ok();
}

}  // namespace

Status PrepareOutput(const NpuConfig& config, const RegisterFile& r, const uint8_t* lut,
                     const FeatureMap& ofm, Accumulators accumulators, ActivationStage* a) {
  const bool u55 = config.product != Product::kEthosU85;
  if (u55) {
    // acc_format 1 (40-bit, int16 activations) keeps the 32-bit case's
    // scale record (int40 bias already); only FP16 is rejected.
    if (r.Get(u55::kAccFormatType) > 1) {
      return Status::Error(ErrorCode::kNpuUnsupported, "U55 FP16 accumulators not supported");
    }
  } else {
    ESDK_RETURN_IF_ERROR(CheckAccumulator(r, accumulators));
  }
  *a = ActivationStage();
  a->clip_min = int16_t(r[kActivationMin]);
  a->clip_max = int16_t(r[kActivationMax]);
  int table_bytes = 0, table_offset = 0;
  ESDK_RETURN_IF_ERROR(u55 ? PrepareU55(r, ofm, a, &table_bytes, &table_offset)
                           : PrepareU85(r, ofm, a, &table_bytes, &table_offset));
  if (table_bytes == 0) return Status::Ok();  // no table
  if (table_offset + table_bytes > kLutMemoryBytes) {
    return StreamError("LUT of %d bytes at %d outside LUT memory", table_bytes, table_offset);
  }
  a->lut = lut + table_offset;
  return Status::Ok();
}

// U85: LUT RAM addresses 0..2047. U55: SHRAM addresses; GUESS
// (undocumented): the LUT occupies the last two 1 KiB banks (Vela's
// reserved end banks, its LUT DMA destination) and TABLE_k reads slot k
// there. Pinned by the u55 LUT cases and, on the 16-bank (32/64-MAC) U55s,
// by the softmax of tests/aot:mlp_ethos_u55_{32,64}. On those, Vela 5.1.0
// sends some LUTs (a tanh after a convolution) to address 16384, one past
// the end of the 16 KiB SHRAM (its own log says "Address out of bounds"),
// a stream error here (sim/npu/README.md, "Where Vela departs from TOSA").
Status LutDestination(const NpuConfig& config, uint64_t address, uint64_t length,
                      uint64_t* offset) {
  uint64_t base = 0;
  if (config.product != Product::kEthosU85) {
    constexpr uint64_t kLutBanks = 2;
    const uint64_t banks = uint64_t(U55ShramBanks(config.macs));
    const uint64_t shram_bytes = banks * kShramBankBytes;
    if (address >= shram_bytes || length > shram_bytes - address) {
      return StreamError(
          "LUT DMA to SHRAM bytes %llu..%llu of a %d-MAC Ethos-U55, outside its %llu-byte SHRAM",
          static_cast<unsigned long long>(address),
          static_cast<unsigned long long>(address + length - 1), config.macs,
          static_cast<unsigned long long>(shram_bytes));
    }
    base = (banks - kLutBanks) * kShramBankBytes;
  }
  if (address < base || address - base > uint64_t(kLutMemoryBytes) ||
      length > uint64_t(kLutMemoryBytes) - (address - base)) {
    return StreamError("DMA to internal memory outside LUT memory");
  }
  *offset = address - base;
  return Status::Ok();
}

}  // namespace ethosu_sdk::npu
