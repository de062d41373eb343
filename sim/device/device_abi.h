/* The C interface between the Ethos-U device core (our C++ library,
 * libethosu_npu_device.so: registers, reset, protection, PMU, and command
 * streams executed by the functional model) and an emulator that hosts it
 * (qemu/: a thin QEMU device that forwards MMIO, guest memory and the IRQ).
 *
 * The emulator loads the library with dlopen and calls
 * esdk_npu_device_api_v1() for the table below. Plain C, no C++ types, so the
 * emulator side needs nothing of ours but this header.
 *
 * Threading: every call comes from one emulator thread at a time (QEMU holds
 * its big lock during MMIO). A job runs to completion inside the write()
 * that starts it; the IRQ is raised before that write returns.
 */
#ifndef ETHOSU_SDK_CC_NPU_DEVICE_DEVICE_ABI_H_
#define ETHOSU_SDK_CC_NPU_DEVICE_DEVICE_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ESDK_NPU_DEVICE_ABI_VERSION 1u

typedef struct esdk_npu_device esdk_npu_device;

/* A run of guest memory as the NPU sees it on its bus. */
typedef struct {
  uint8_t* host; /* host pointer to the byte at the looked-up address */
  uint64_t size; /* bytes from there to the end of that memory */
  int writable;  /* 0: read-only (ROM, flash) */
} esdk_npu_memory;

/* What the emulator provides to the device. */
typedef struct {
  void* opaque;
  /* Looks up guest physical `address` in the NPU's view of the bus. Returns
   * 0 and fills `out` when RAM or ROM is there; non-zero when nothing is
   * (the device reports a bus error). The pointer is valid until the
   * register write that started the job returns. */
  int (*map)(void* opaque, uint64_t address, esdk_npu_memory* out);
  /* Drives the NPU's interrupt line (level: 1 raised, 0 cleared). */
  void (*set_irq)(void* opaque, int level);
  /* Optional (may be NULL): one line about a guest error or a fault, for
   * the emulator's log (QEMU: -d guest_errors). */
  void (*log)(void* opaque, const char* message);
  /* Optional (may be NULL): the device wrote [address, address + size), so
   * the emulator can update its dirty tracking. */
  void (*written)(void* opaque, uint64_t address, uint64_t size);
} esdk_npu_host;

/* What the device is: set by the emulator from its properties. */
typedef struct {
  const char* product; /* "ethos-u55", "ethos-u65" or "ethos-u85" */
  int macs;            /* MACs per cycle of the configuration, e.g. 128, 256 */
  int never_complete;  /* fault injection for driver tests: jobs start and
                          never finish (no IRQ, STATUS stays running) */
} esdk_npu_device_config;

typedef struct {
  uint32_t abi_version; /* ESDK_NPU_DEVICE_ABI_VERSION */
  /* NULL on an unknown configuration, with a one-line reason in `error`. */
  esdk_npu_device* (*create)(const esdk_npu_device_config* config, const esdk_npu_host* host,
                             char* error, size_t error_size);
  void (*destroy)(esdk_npu_device* device);
  /* Bytes of register space the device decodes (0x1000 U55/U65, 0x2000 U85). */
  uint32_t (*window_bytes)(const esdk_npu_device* device);
  /* Power-on reset: registers to their reset values, IRQ low. */
  void (*reset)(esdk_npu_device* device);
  /* 32-bit register access at a byte offset inside the window. Unknown
   * offsets read as zero and ignore writes (logged). */
  uint32_t (*read)(esdk_npu_device* device, uint32_t offset);
  void (*write)(esdk_npu_device* device, uint32_t offset, uint32_t value);
} esdk_npu_device_api;

/* The library's one entry point. */
const esdk_npu_device_api* esdk_npu_device_api_v1(void);

#ifdef __cplusplus
}
#endif

#endif /* ETHOSU_SDK_CC_NPU_DEVICE_DEVICE_ABI_H_ */
