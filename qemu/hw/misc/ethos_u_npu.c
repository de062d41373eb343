/*
 * Ethos-U NPU for QEMU: a thin shim around the Ethos-U SDK's device core.
 *
 * Everything the NPU does (registers, reset, protection, PMU, command
 * streams run by the SDK's functional model) lives in the device core,
 * libethosu_npu_device.so, loaded with dlopen through the C interface in
 * device_abi.h (the SDK's sim/device/device_abi.h, copied beside this
 * file when QEMU is built). This file forwards MMIO, guest memory and the
 * interrupt between QEMU and that library.
 *
 * Copyright (c) 2026 The Ethos-U SDK authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "hw/sysbus.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "exec/memory.h"
#include "exec/address-spaces.h"
#include "qemu/rcu.h"
#include <dlfcn.h>

#include "device_abi.h"

#define TYPE_ETHOS_U_NPU "ethos-u-npu"
OBJECT_DECLARE_SIMPLE_TYPE(EthosUNpuState, ETHOS_U_NPU)

/* The placeholder's size: what the board maps when no core is loaded. */
#define ETHOS_U_NPU_DEFAULT_WINDOW 0x1000

struct EthosUNpuState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq;
    /* The NPU's view of the bus (the SSE's, as its DMA controllers see it). */
    MemoryRegion *memory;
    AddressSpace as;

    /* Properties (-global ethos-u-npu.NAME=VALUE). */
    char *library;
    char *product;
    uint32_t macs;
    bool never_complete;

    void *handle;
    const esdk_npu_device_api *api;
    esdk_npu_device *core;
    esdk_npu_host host;
    bool warned_no_library;
};

/* The firmware runs secure, and the MPCs' reset state makes every block
 * secure: the NPU masters the bus as a secure, privileged manager. */
static const MemTxAttrs npu_attrs = { .secure = 1 };

/* ---- Host callbacks given to the core ---------------------------------- */

/* Guest RAM the core may write through a host pointer. */
static bool npu_is_writable_ram(MemoryRegion *mr)
{
    return memory_region_is_ram(mr) && !mr->readonly &&
           !memory_region_is_ram_device(mr);
}

static int npu_map(void *opaque, uint64_t address, esdk_npu_memory *out)
{
    EthosUNpuState *s = opaque;
    hwaddr xlat, len = 1;
    MemoryRegion *mr;
    int ret = 1;

    /* address_space_translate goes through the MPCs (IOMMU regions) that
     * guard SRAM, QSPI and DDR; memory_region_find would stop at them. */
    RCU_READ_LOCK_GUARD();
    mr = address_space_translate(&s->as, address, &xlat, &len, false,
                                 npu_attrs);
    if (memory_region_is_ram(mr) || memory_region_is_romd(mr)) {
        out->host = (uint8_t *)memory_region_get_ram_ptr(mr) + xlat;
        out->size = memory_region_size(mr) - xlat;
        out->writable = npu_is_writable_ram(mr);
        ret = 0;
    }
    return ret;
}

static void npu_set_irq(void *opaque, int level)
{
    EthosUNpuState *s = opaque;

    qemu_set_irq(s->irq, level);
}

static void npu_log(void *opaque, const char *message)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: %s\n", TYPE_ETHOS_U_NPU, message);
}

/*
 * The core wrote guest RAM through a host pointer: tell QEMU, as a DMA
 * would, so translated code in that range is dropped and dirty bitmaps
 * stay right. Unmapping a direct mapping after a write does exactly that
 * bookkeeping (through the MPCs, which a MemoryRegionCache would not).
 */
static void npu_written(void *opaque, uint64_t address, uint64_t size)
{
    EthosUNpuState *s = opaque;

    while (size > 0) {
        hwaddr xlat, len = size;
        bool direct;
        void *host;

        WITH_RCU_READ_LOCK_GUARD() {
            direct = npu_is_writable_ram(address_space_translate(
                &s->as, address, &xlat, &len, true, npu_attrs));
        }
        /* Only direct RAM: anything else would go through a bounce buffer. */
        if (!direct) {
            return;
        }
        len = size;
        host = address_space_map(&s->as, address, &len, true, npu_attrs);
        if (!host || len == 0) {
            return;
        }
        address_space_unmap(&s->as, host, len, true, len);
        address += len;
        size -= MIN(size, (uint64_t)len);
    }
}

/* ---- MMIO --------------------------------------------------------------- */

static void npu_warn_no_library(EthosUNpuState *s)
{
    if (!s->warned_no_library) {
        s->warned_no_library = true;
        warn_report("%s: the guest uses the NPU but no device library was "
                    "given (-global %s.library=/path/to/"
                    "libethosu_npu_device.so); it reads as zero and ignores "
                    "writes", TYPE_ETHOS_U_NPU, TYPE_ETHOS_U_NPU);
    }
}

static uint64_t npu_read(void *opaque, hwaddr offset, unsigned size)
{
    EthosUNpuState *s = opaque;

    if (!s->core) {
        npu_warn_no_library(s);
        return 0;
    }
    return s->api->read(s->core, offset);
}

static void npu_write(void *opaque, hwaddr offset, uint64_t value,
                      unsigned size)
{
    EthosUNpuState *s = opaque;

    if (!s->core) {
        npu_warn_no_library(s);
        return;
    }
    s->api->write(s->core, offset, value);
}

static const MemoryRegionOps npu_ops = {
    .read = npu_read,
    .write = npu_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* The NPU's registers are 32 bits wide; other sizes fault. */
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
    .impl.min_access_size = 4,
    .impl.max_access_size = 4,
};

/* ---- Lifecycle ---------------------------------------------------------- */

static bool npu_load_core(EthosUNpuState *s, Error **errp)
{
    const esdk_npu_device_api *(*entry)(void);
    esdk_npu_device_config config = {
        .product = s->product ? s->product : "ethos-u55",
        .macs = (int)s->macs,
        .never_complete = s->never_complete,
    };
    char reason[256] = "";
    uint32_t window;

    s->handle = dlopen(s->library, RTLD_NOW | RTLD_LOCAL);
    if (!s->handle) {
        error_setg(errp, "%s: cannot load the device library %s: %s",
                   TYPE_ETHOS_U_NPU, s->library, dlerror());
        return false;
    }
    entry = (const esdk_npu_device_api *(*)(void))
        dlsym(s->handle, "esdk_npu_device_api_v1");
    s->api = entry ? entry() : NULL;
    if (!s->api) {
        error_setg(errp, "%s: %s is not an Ethos-U device library (no "
                   "esdk_npu_device_api_v1)", TYPE_ETHOS_U_NPU, s->library);
        return false;
    }
    if (s->api->abi_version != ESDK_NPU_DEVICE_ABI_VERSION) {
        error_setg(errp, "%s: %s implements device ABI %u, this QEMU needs %u:"
                   " rebuild the SDK's QEMU and device library together",
                   TYPE_ETHOS_U_NPU, s->library, s->api->abi_version,
                   ESDK_NPU_DEVICE_ABI_VERSION);
        return false;
    }

    s->host = (esdk_npu_host) {
        .opaque = s,
        .map = npu_map,
        .set_irq = npu_set_irq,
        .log = npu_log,
        .written = npu_written,
    };
    s->core = s->api->create(&config, &s->host, reason, sizeof(reason));
    if (!s->core) {
        error_setg(errp, "%s: the device library %s refused product=%s "
                   "macs=%u: %s", TYPE_ETHOS_U_NPU, s->library,
                   config.product, s->macs,
                   reason[0] ? reason : "no reason given");
        return false;
    }
    window = s->api->window_bytes(s->core);
    if (window == 0 || window % 0x1000 || window > 0x10000) {
        error_setg(errp, "%s: the device library %s asks for a register "
                   "window of 0x%x bytes (a multiple of 4 KiB up to 64 KiB "
                   "expected)", TYPE_ETHOS_U_NPU, s->library, window);
        return false;
    }
    memory_region_init_io(&s->iomem, OBJECT(s), &npu_ops, s,
                          TYPE_ETHOS_U_NPU, window);
    return true;
}

static void npu_release_core(EthosUNpuState *s)
{
    if (s->core) {
        s->api->destroy(s->core);
        s->core = NULL;
    }
    if (s->handle) {
        dlclose(s->handle);
        s->handle = NULL;
    }
    s->api = NULL;
}

static void npu_realize(DeviceState *dev, Error **errp)
{
    EthosUNpuState *s = ETHOS_U_NPU(dev);

    if (!s->memory) {
        error_setg(errp, "%s: the 'memory' link (the NPU's bus) is not set",
                   TYPE_ETHOS_U_NPU);
        return;
    }
    address_space_init(&s->as, s->memory, "ethos-u-npu-bus");

    if (s->library && s->library[0]) {
        if (!npu_load_core(s, errp)) {
            npu_release_core(s);
            address_space_destroy(&s->as);
            return;
        }
    } else {
        /* No core: behave as the placeholder it replaces. */
        memory_region_init_io(&s->iomem, OBJECT(s), &npu_ops, s,
                              TYPE_ETHOS_U_NPU, ETHOS_U_NPU_DEFAULT_WINDOW);
    }
    sysbus_init_mmio(SYS_BUS_DEVICE(dev), &s->iomem);
    sysbus_init_irq(SYS_BUS_DEVICE(dev), &s->irq);
}

static void npu_unrealize(DeviceState *dev)
{
    EthosUNpuState *s = ETHOS_U_NPU(dev);

    npu_release_core(s);
    address_space_destroy(&s->as);
}

static void npu_reset_hold(Object *obj, ResetType type)
{
    EthosUNpuState *s = ETHOS_U_NPU(obj);

    if (s->core) {
        s->api->reset(s->core);
    }
}

static const Property npu_properties[] = {
    DEFINE_PROP_LINK("memory", EthosUNpuState, memory, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_STRING("library", EthosUNpuState, library),
    /* NULL means "ethos-u55": qdev string properties take no default. */
    DEFINE_PROP_STRING("product", EthosUNpuState, product),
    DEFINE_PROP_UINT32("macs", EthosUNpuState, macs, 128),
    DEFINE_PROP_BOOL("x-never-complete", EthosUNpuState, never_complete,
                     false),
};

static void npu_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = npu_realize;
    dc->unrealize = npu_unrealize;
    dc->desc = "Arm Ethos-U NPU (Ethos-U SDK device core)";
    rc->phases.hold = npu_reset_hold;
    device_class_set_props(dc, npu_properties);
}

static const TypeInfo npu_info = {
    .name = TYPE_ETHOS_U_NPU,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(EthosUNpuState),
    .class_init = npu_class_init,
};

static void npu_register_types(void)
{
    type_register_static(&npu_info);
}

type_init(npu_register_types)
