/*
 * Ethos-U SDK: an open Corstone-320 machine (Cortex-M85 in an SSE-320
 * subsystem, with the SDK's Ethos-U85 device), as far as a bare-metal
 * firmware built for Arm's Corstone-320 FVP needs it to boot and run.
 *
 * Written for the Ethos-U SDK; QEMU's own boards were read for the API only.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Addresses and interrupt numbers: Trusted Firmware-M's description of the
 * MPS4 Corstone-320 platform (platform/ext/target/arm/mps4/corstone320,
 * partition/platform_base_address.h and device/include/platform_irq.h),
 * which follows Arm's Corstone-320 FVP. Sizes of the memories: the SDK's
 * corstone320 board (cc/platform/corstone320/memory.ld), which follows
 * ExecuTorch's Corstone-320 linker script. What is and is not modelled is
 * listed in qemu/README.md.
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/error-report.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/arm/boot.h"
#include "hw/arm/armv7m.h"
#include "hw/boards.h"
#include "hw/loader.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/char/cmsdk-apb-uart.h"
#include "hw/timer/cmsdk-apb-timer.h"
#include "hw/timer/sse-counter.h"
#include "hw/timer/sse-timer.h"
#include "exec/address-spaces.h"
#include "system/system.h"
#include "target/arm/cpu.h"
#include "target/arm/idau.h"
#include "qom/object.h"

/* Memories: secure alias (S), non-secure alias (NS), size. */
#define C320_ITCM_S         0x10000000  /* ITCM_BASE_S */
#define C320_ITCM_NS        0x00000000  /* ITCM_BASE_NS */
#define C320_ITCM_SIZE      (32 * KiB)  /* memory.ld ITCM */
#define C320_BROM_S         0x11000000  /* BOOT_ROM_BASE_S (secure only) */
#define C320_BROM_SIZE      (128 * KiB) /* memory.ld BROM */
#define C320_BRAM_S         0x12000000  /* SRAM_BASE_S (code SRAM) */
#define C320_BRAM_NS        0x01000000  /* SRAM_BASE_NS (code SRAM) */
#define C320_BRAM_SIZE      (2 * MiB)   /* memory.ld BRAM */
#define C320_DTCM_S         0x30000000  /* DTCM0_BASE_S */
#define C320_DTCM_NS        0x20000000  /* DTCM0_BASE_NS */
#define C320_DTCM_SIZE      (32 * KiB)  /* DTCM0..3, 8 KiB apart; memory.ld */
#define C320_SRAM_S         0x31000000  /* ISRAM0_BASE_S */
#define C320_SRAM_NS        0x21000000  /* ISRAM0_BASE_NS */
#define C320_SRAM_SIZE      (4 * MiB)   /* ISRAM0 + ISRAM1; memory.ld SRAM */
#define C320_DDR_S          0x70000000  /* DDR4 block 1, secure */
#define C320_DDR_NS         0x60000000  /* DDR4_BLK0_BASE_NS */
#define C320_DDR_SIZE       (256 * MiB) /* memory.ld DDR + DDR_HEAP */

/* Peripherals. */
#define C320_NPU_S          0x50004000  /* NPU0_APB_BASE_S */
#define C320_NPU_NS         0x40004000  /* NPU0_APB_BASE_NS */
#define C320_NPU_IRQ        16          /* NPU0_IRQn */
#define C320_UART0_S        0x59303000  /* UART0_BASE_S */
#define C320_UART0_NS       0x49303000  /* UART0_BASE_NS */
#define C320_UART0_TX_IRQ   34          /* UARTTX0_IRQn */
#define C320_UART0_RX_IRQ   49          /* UARTRX0_IRQn */
#define C320_UART0_IRQ      43          /* UART0_Combined_IRQn */
#define C320_SLOWTIMER_S    0x5802F000  /* SLOWCLK_TIMER_CMSDK_BASE_S */
#define C320_SLOWTIMER_NS   0x4802F000  /* SLOWCLK_TIMER_CMSDK_BASE_NS */
#define C320_SLOWTIMER_IRQ  2           /* SLOWCLK_TIMER_IRQn */
/* SYSTIMER0..3_ARMV8_M_BASE_S / _NS, 4 KiB apart */
#define C320_SYSTIMER_S     0x58000000
#define C320_SYSTIMER_STRIDE 0x1000
#define C320_SYSTIMER_NS    0x48000000
#define C320_SYSCNTR_CTRL_S 0x58100000  /* SYSCNTR_CNTRL_BASE_S */
#define C320_SYSCNTR_READ_S 0x58101000  /* SYSCNTR_READ_BASE_S */
#define C320_SYSCNTR_READ_NS 0x48101000 /* SYSCNTR_READ_BASE_NS */
#define C320_NUM_SYSTIMERS  4
/* TIMER0_IRQn, TIMER1_IRQn, TIMER2_IRQn, TIMER3_AON_IRQn */
static const int c320_systimer_irq[C320_NUM_SYSTIMERS] = { 3, 4, 5, 27 };

/* Highest external interrupt is ARM_VSI7_IRQn (231); the NVIC takes 256. */
#define C320_NUM_IRQ        256

/*
 * Clocks: the FVP's nominal 32 MHz core clock (cc/platform/corstone320's
 * TimerTicksPerSecond) and the 32.768 kHz slow clock of the SLOWCLK timer.
 */
#define C320_MAINCLK_HZ     32000000
#define C320_SLOWCLK_HZ     32768

/*
 * Cortex-M85 identification: implementer 0x41 (Arm), part number 0xD23
 * (Cortex-M85, as Linux's proc-v7m.S matches it), revision fields r0p0.
 */
#define CORTEX_M85_MIDR     0x410fd230

/* DWT (Armv8-M ARM, the DWT programmers' model): CTRL and CYCCNT. */
#define C320_DWT_BASE       0xe0001000
#define C320_DWT_CTRL       0x000
#define C320_DWT_CYCCNT     0x004
#define C320_DWT_CTRL_CYCCNTENA 1u
#define C320_DWT_WINDOW     0x8         /* CTRL and CYCCNT only */

/*
 * IDAU exemption: the PPB (0xE0000000-0xE00FFFFF) and its 0xF0000000 twin,
 * as the SSE-300's IDAU in QEMU (armsse.c) treats them.
 */
#define C320_EXEMPT_MASK    0xeff00000
#define C320_EXEMPT_MATCH   0xe0000000

#define TYPE_CORSTONE320_MACHINE MACHINE_TYPE_NAME("corstone-320")
OBJECT_DECLARE_SIMPLE_TYPE(Corstone320MachineState, CORSTONE320_MACHINE)

struct Corstone320MachineState {
    MachineState parent;

    ARMv7MState armv7m;
    MemoryRegion itcm, brom, bram, dtcm, sram, ddr;
    MemoryRegion itcm_ns, bram_ns, dtcm_ns, sram_ns, ddr_ns;
    MemoryRegion npu_ns, uart0_ns, slowtimer_ns, syscntr_read_s;
    MemoryRegion systimer_ns[C320_NUM_SYSTIMERS];
    MemoryRegion dwt;
    CMSDKAPBUART uart0;
    CMSDKAPBTimer slowtimer;
    SSECounter syscntr;
    SSETimer systimer[C320_NUM_SYSTIMERS];
    Clock *mainclk, *slowclk;
    Notifier boot_check;
    /* DWT cycle counter: the main clock on QEMU's virtual clock. */
    uint32_t dwt_ctrl;
    uint32_t dwt_cyccnt;      /* value while stopped, or at dwt_base_ns */
    int64_t dwt_base_ns;
};

/*
 * The Cortex-M85: QEMU's Cortex-M55 (Armv8.1-M, MVE, FPU, DSP, security
 * extension) with the M85's CPUID. Its PACBTI instructions that a compiler
 * emits for -mbranch-protection (PAC, AUT, BTI, PACBTI) are encodings of the
 * T32 hint space, which QEMU executes as NOPs.
 */
static void cortex_m85_init(Object *obj)
{
    ARMCPU *cpu = ARM_CPU(obj);

    cpu->midr = CORTEX_M85_MIDR;
}

static const TypeInfo cortex_m85_type = {
    .name = ARM_CPU_TYPE_NAME("cortex-m85"),
    .parent = ARM_CPU_TYPE_NAME("cortex-m55"),
    .instance_init = cortex_m85_init,
};

/*
 * A minimal DWT so that the same ELF as for the FVP reads a running cycle
 * counter: it counts the nominal 32 MHz main clock on QEMU's virtual clock,
 * so under -icount shift=0 (1 ns per instruction) one count per 31.25
 * executed instructions, and ticks / 32 MHz stays the board time the
 * firmware reports. Never the M85's cycles. Other DWT registers read as zero
 * and ignore writes, as the rest of QEMU's unimplemented PPB does.
 */
static uint32_t c320_dwt_now(Corstone320MachineState *s)
{
    if (!(s->dwt_ctrl & C320_DWT_CTRL_CYCCNTENA)) {
        return s->dwt_cyccnt;
    }
    return s->dwt_cyccnt +
        (uint32_t)muldiv64(qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) -
                           s->dwt_base_ns, C320_MAINCLK_HZ,
                           NANOSECONDS_PER_SECOND);
}

static uint64_t c320_dwt_read(void *opaque, hwaddr offset, unsigned size)
{
    Corstone320MachineState *s = opaque;

    switch (offset) {
    case C320_DWT_CTRL:
        return s->dwt_ctrl;
    case C320_DWT_CYCCNT:
        return c320_dwt_now(s);
    default:
        return 0;
    }
}

static void c320_dwt_write(void *opaque, hwaddr offset, uint64_t value,
                           unsigned size)
{
    Corstone320MachineState *s = opaque;

    switch (offset) {
    case C320_DWT_CTRL:
        s->dwt_cyccnt = c320_dwt_now(s);
        s->dwt_base_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        s->dwt_ctrl = value & C320_DWT_CTRL_CYCCNTENA;
        break;
    case C320_DWT_CYCCNT:
        s->dwt_cyccnt = value;
        s->dwt_base_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        break;
    default:
        break;
    }
}

static const MemoryRegionOps c320_dwt_ops = {
    .read = c320_dwt_read,
    .write = c320_dwt_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

/*
 * The SSE-320's IDAU, as the SSE-300's: bit 28 of the address selects the
 * secure alias; the PPB is exempt. No non-secure-callable regions.
 */
static void c320_idau_check(IDAUInterface *ii, uint32_t address,
                            int *iregion, bool *exempt, bool *ns, bool *nsc)
{
    int region = extract32(address, 28, 4);

    *ns = !(region & 1);
    *nsc = false;
    *exempt = (address & C320_EXEMPT_MASK) == C320_EXEMPT_MATCH;
    *iregion = region;
}

static void c320_ram(Corstone320MachineState *s, MemoryRegion *mr,
                     const char *name, hwaddr secure, uint64_t size,
                     MemoryRegion *ns_alias, hwaddr non_secure)
{
    /* No owner: the machine is no device (migration names RAM by its owner). */
    memory_region_init_ram(mr, NULL, name, size, &error_fatal);
    memory_region_add_subregion(get_system_memory(), secure, mr);
    if (ns_alias) {
        g_autofree char *alias = g_strdup_printf("%s-ns", name);

        memory_region_init_alias(ns_alias, OBJECT(s), alias, mr, 0, size);
        memory_region_add_subregion(get_system_memory(), non_secure, ns_alias);
    }
}

/* A device's register window at its secure address and non-secure alias. */
static void c320_map(Corstone320MachineState *s, SysBusDevice *dev, int n,
                     hwaddr secure, MemoryRegion *ns_alias, hwaddr non_secure,
                     const char *name)
{
    MemoryRegion *mr = sysbus_mmio_get_region(dev, n);

    memory_region_add_subregion(get_system_memory(), secure, mr);
    memory_region_init_alias(ns_alias, OBJECT(s), name, mr, 0,
                             memory_region_size(mr));
    memory_region_add_subregion(get_system_memory(), non_secure, ns_alias);
}

static qemu_irq c320_irq(Corstone320MachineState *s, int n)
{
    return qdev_get_gpio_in(DEVICE(&s->armv7m), n);
}

/*
 * After the image is loaded: a firmware built for another board (an
 * mps3-an547 image has its vectors at 0) leaves the boot ROM empty, and the
 * core would lock up at reset. Say so and stop instead.
 */
static void c320_check_boot(Notifier *notifier, void *data)
{
    const uint32_t *vectors = rom_ptr_for_as(&address_space_memory,
                                             C320_BROM_S, 8);

    if (!vectors || vectors[1] == 0) {
        error_report("corstone320: the firmware has no vector table in the "
                     "boot ROM at 0x%08x (the SSE-320 boots from there): it "
                     "was not built for Corstone-320; build it for the "
                     "corstone320 board", C320_BROM_S);
        exit(1);
    }
}

static void c320_init(MachineState *machine)
{
    Corstone320MachineState *s = CORSTONE320_MACHINE(machine);
    DeviceState *cpu;
    SysBusDevice *npu;
    int i;

    if (!machine->kernel_filename) {
        error_report("corstone320: give the firmware ELF with -kernel");
        exit(1);
    }

    s->mainclk = clock_new(OBJECT(machine), "MAINCLK");
    clock_set_hz(s->mainclk, C320_MAINCLK_HZ);
    s->slowclk = clock_new(OBJECT(machine), "SLOWCLK");
    clock_set_hz(s->slowclk, C320_SLOWCLK_HZ);

    c320_ram(s, &s->itcm, "corstone320.itcm", C320_ITCM_S, C320_ITCM_SIZE,
             &s->itcm_ns, C320_ITCM_NS);
    memory_region_init_rom(&s->brom, NULL, "corstone320.brom",
                           C320_BROM_SIZE, &error_fatal);
    memory_region_add_subregion(get_system_memory(), C320_BROM_S, &s->brom);
    c320_ram(s, &s->bram, "corstone320.bram", C320_BRAM_S, C320_BRAM_SIZE,
             &s->bram_ns, C320_BRAM_NS);
    c320_ram(s, &s->dtcm, "corstone320.dtcm", C320_DTCM_S, C320_DTCM_SIZE,
             &s->dtcm_ns, C320_DTCM_NS);
    c320_ram(s, &s->sram, "corstone320.sram", C320_SRAM_S, C320_SRAM_SIZE,
             &s->sram_ns, C320_SRAM_NS);
    c320_ram(s, &s->ddr, "corstone320.ddr", C320_DDR_S, C320_DDR_SIZE,
             &s->ddr_ns, C320_DDR_NS);

    object_initialize_child(OBJECT(s), "armv7m", &s->armv7m, TYPE_ARMV7M);
    cpu = DEVICE(&s->armv7m);
    qdev_prop_set_uint32(cpu, "num-irq", C320_NUM_IRQ);
    qdev_prop_set_string(cpu, "cpu-type", machine->cpu_type);
    /* Reset runs secure from the boot ROM, as on the SSE-320. */
    qdev_prop_set_uint32(cpu, "init-svtor", C320_BROM_S);
    qdev_connect_clock_in(cpu, "cpuclk", s->mainclk);
    qdev_connect_clock_in(cpu, "refclk", s->mainclk);
    object_property_set_link(OBJECT(cpu), "idau", OBJECT(s), &error_abort);
    object_property_set_link(OBJECT(cpu), "memory",
                             OBJECT(get_system_memory()), &error_abort);
    sysbus_realize(SYS_BUS_DEVICE(cpu), &error_fatal);

    /* Above the PPB's read-as-zero default (priority -1). */
    memory_region_init_io(&s->dwt, OBJECT(s), &c320_dwt_ops, s, "dwt",
                          C320_DWT_WINDOW);
    memory_region_add_subregion_overlap(&s->armv7m.container, C320_DWT_BASE,
                                        &s->dwt, 0);

    /* The Ethos-U85 (the device is configured by -global; see the README). */
    npu = SYS_BUS_DEVICE(qdev_new("ethos-u-npu"));
    object_property_set_link(OBJECT(npu), "memory",
                             OBJECT(get_system_memory()), &error_fatal);
    sysbus_realize_and_unref(npu, &error_fatal);
    c320_map(s, npu, 0, C320_NPU_S, &s->npu_ns, C320_NPU_NS, "npu-ns");
    sysbus_connect_irq(npu, 0, c320_irq(s, C320_NPU_IRQ));

    object_initialize_child(OBJECT(s), "uart0", &s->uart0,
                            TYPE_CMSDK_APB_UART);
    qdev_prop_set_chr(DEVICE(&s->uart0), "chardev", serial_hd(0));
    qdev_prop_set_uint32(DEVICE(&s->uart0), "pclk-frq", C320_MAINCLK_HZ);
    sysbus_realize(SYS_BUS_DEVICE(&s->uart0), &error_fatal);
    c320_map(s, SYS_BUS_DEVICE(&s->uart0), 0, C320_UART0_S, &s->uart0_ns,
             C320_UART0_NS, "uart0-ns");
    /* Outputs: TX, RX, TX overrun, RX overrun, combined. */
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->uart0), 0,
                       c320_irq(s, C320_UART0_TX_IRQ));
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->uart0), 1,
                       c320_irq(s, C320_UART0_RX_IRQ));
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->uart0), 4,
                       c320_irq(s, C320_UART0_IRQ));

    object_initialize_child(OBJECT(s), "slowclk-timer", &s->slowtimer,
                            TYPE_CMSDK_APB_TIMER);
    qdev_connect_clock_in(DEVICE(&s->slowtimer), "pclk", s->slowclk);
    sysbus_realize(SYS_BUS_DEVICE(&s->slowtimer), &error_fatal);
    c320_map(s, SYS_BUS_DEVICE(&s->slowtimer), 0, C320_SLOWTIMER_S,
             &s->slowtimer_ns, C320_SLOWTIMER_NS, "slowclk-timer-ns");
    sysbus_connect_irq(SYS_BUS_DEVICE(&s->slowtimer), 0,
                       c320_irq(s, C320_SLOWTIMER_IRQ));

    /* System counter: control frame secure only, read frame both. */
    object_initialize_child(OBJECT(s), "syscounter", &s->syscntr,
                            TYPE_SSE_COUNTER);
    qdev_connect_clock_in(DEVICE(&s->syscntr), "CLK", s->mainclk);
    sysbus_realize(SYS_BUS_DEVICE(&s->syscntr), &error_fatal);
    memory_region_add_subregion(get_system_memory(), C320_SYSCNTR_CTRL_S,
        sysbus_mmio_get_region(SYS_BUS_DEVICE(&s->syscntr), 0));
    c320_map(s, SYS_BUS_DEVICE(&s->syscntr), 1, C320_SYSCNTR_READ_NS,
             &s->syscntr_read_s, C320_SYSCNTR_READ_S, "syscounter-read-s");

    for (i = 0; i < C320_NUM_SYSTIMERS; i++) {
        g_autofree char *name = g_strdup_printf("systimer%d", i);
        g_autofree char *alias = g_strdup_printf("systimer%d-ns", i);

        object_initialize_child(OBJECT(s), name, &s->systimer[i],
                                TYPE_SSE_TIMER);
        object_property_set_link(OBJECT(&s->systimer[i]), "counter",
                                 OBJECT(&s->syscntr), &error_abort);
        sysbus_realize(SYS_BUS_DEVICE(&s->systimer[i]), &error_fatal);
        c320_map(s, SYS_BUS_DEVICE(&s->systimer[i]), 0,
                 C320_SYSTIMER_S + i * C320_SYSTIMER_STRIDE, &s->systimer_ns[i],
                 C320_SYSTIMER_NS + i * C320_SYSTIMER_STRIDE, alias);
        sysbus_connect_irq(SYS_BUS_DEVICE(&s->systimer[i]), 0,
                           c320_irq(s, c320_systimer_irq[i]));
    }

    armv7m_load_kernel(s->armv7m.cpu, machine->kernel_filename, C320_BROM_S,
                       C320_BROM_SIZE);
    s->boot_check.notify = c320_check_boot;
    qemu_add_machine_init_done_notifier(&s->boot_check);
}

static void c320_class_init(ObjectClass *oc, void *data)
{
    MachineClass *mc = MACHINE_CLASS(oc);
    IDAUInterfaceClass *iic = IDAU_INTERFACE_CLASS(oc);
    static const char * const valid_cpu_types[] = {
        ARM_CPU_TYPE_NAME("cortex-m85"),
        NULL
    };
    /* The Corstone-320's NPU unless -global says otherwise. */
    static GlobalProperty npu_defaults[] = {
        { "ethos-u-npu", "product", "ethos-u85" },
        { "ethos-u-npu", "macs", "256" },
    };

    mc->desc = "Corstone-320 (Cortex-M85, SSE-320) with the Ethos-U SDK's "
               "Ethos-U85 device";
    mc->init = c320_init;
    mc->max_cpus = 1;
    mc->default_cpus = 1;
    mc->default_cpu_type = ARM_CPU_TYPE_NAME("cortex-m85");
    mc->valid_cpu_types = valid_cpu_types;
    mc->default_ram_size = 0;
    compat_props_add(mc->compat_props, npu_defaults,
                     G_N_ELEMENTS(npu_defaults));
    iic->check = c320_idau_check;
}

static const TypeInfo c320_machine_type = {
    .name = TYPE_CORSTONE320_MACHINE,
    .parent = TYPE_MACHINE,
    .instance_size = sizeof(Corstone320MachineState),
    .class_init = c320_class_init,
    .interfaces = (InterfaceInfo[]) {
        { TYPE_IDAU_INTERFACE },
        { }
    },
};

static void c320_register_types(void)
{
    type_register_static(&cortex_m85_type);
    type_register_static(&c320_machine_type);
}

type_init(c320_register_types)
