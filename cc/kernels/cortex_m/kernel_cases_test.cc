// The cortex_m:: kernel cases on the host (kernel_cases.h): the case file
// read from disk.
//
//   kernel_cases_test <cases.bin>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#include "cc/kernels/cortex_m/kernel_cases.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::printf("usage: kernel_cases_test <cases.bin>\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::printf("cannot read %s\n", argv[1]);
    return 2;
  }
  const std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  return ethosu_sdk::kernels::cortex_m::RunKernelCases(file.data(), file.size());
}
