// Prints the size and CRC-32 of an embedded file, which the host checks
// against zlib's CRC of the same file: proves the bytes, their section and
// the start/end symbols survive the link.
#include "cc/platform/platform.h"
#include "cc/support/crc32.h"
#include "cc/support/text_builder.h"
#include "tests/firmware/schema_blob.h"

int main() {
  char line[96];
  ethosu_sdk::TextBuilder text(line, sizeof(line));
  const uintptr_t address = reinterpret_cast<uintptr_t>(schema_blob);
  text.Str("blob size=")
      .UInt(schema_blob_size())
      .Str(" crc32=")
      .Hex(ethosu_sdk::Crc32(schema_blob, schema_blob_size()), 8);
  text.Str(" address=0x").Hex(address, 8).Char('\n');
  ethosu_sdk::platform::ConsoleWrite(text.c_str(), text.size());
  return 0;
}
