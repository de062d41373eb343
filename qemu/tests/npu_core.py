"""The Ethos-U device core (//sim/device:libethosu_npu_device.so) loaded
in-process through its C interface (device_abi.h): what the QEMU device's
registers must read as, since the QEMU side only forwards."""

import ctypes

ID, STATUS, RESET, PROT, CONFIG = 0x00, 0x04, 0x0C, 0x24, 0x28
STATE, IRQ_RAISED, BUS_STATUS, CMD_END_REACHED = 1 << 0, 1 << 1, 1 << 2, 1 << 5
PRIVILEGED = 1 << 0


class Memory(ctypes.Structure):
    _fields_ = [("host", ctypes.c_void_p), ("size", ctypes.c_uint64), ("writable", ctypes.c_int)]


MAP = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_uint64, ctypes.POINTER(Memory))
SET_IRQ = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int)


class Host(ctypes.Structure):
    _fields_ = [
        ("opaque", ctypes.c_void_p),
        ("map", MAP),
        ("set_irq", SET_IRQ),
        ("log", ctypes.c_void_p),
        ("written", ctypes.c_void_p),
    ]


class Config(ctypes.Structure):
    _fields_ = [("product", ctypes.c_char_p), ("macs", ctypes.c_int), ("never_complete", ctypes.c_int)]


class Api(ctypes.Structure):
    _fields_ = [
        ("abi_version", ctypes.c_uint32),
        (
            "create",
            ctypes.CFUNCTYPE(
                ctypes.c_void_p, ctypes.POINTER(Config), ctypes.POINTER(Host), ctypes.c_char_p, ctypes.c_size_t
            ),
        ),
        ("destroy", ctypes.CFUNCTYPE(None, ctypes.c_void_p)),
        ("window_bytes", ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p)),
        ("reset", ctypes.CFUNCTYPE(None, ctypes.c_void_p)),
        ("read", ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32)),
        ("write", ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32)),
    ]


def core_registers(library: str, product: str, macs: int) -> dict[str, int]:
    """ID, CONFIG and PROT (after the probe's soft reset) as the core answers them."""
    lib = ctypes.CDLL(library)
    lib.esdk_npu_device_api_v1.restype = ctypes.POINTER(Api)
    api = lib.esdk_npu_device_api_v1().contents
    host = Host(None, MAP(lambda *_: 1), SET_IRQ(lambda *_: None), None, None)
    config = Config(product.encode(), macs, 0)
    error = ctypes.create_string_buffer(256)
    device = api.create(ctypes.byref(config), ctypes.byref(host), error, len(error))
    assert device, error.value.decode()
    try:
        api.reset(device)
        window = api.window_bytes(device)
        values = {"id": api.read(device, ID), "config": api.read(device, CONFIG), "window": window}
        # Beyond the window the board's placeholder answers 0.
        for offset in (0x180, 0x1180):
            values[f"reg_{offset:04x}"] = api.read(device, offset) if offset < window else 0
        api.write(device, RESET, PRIVILEGED)
        values["prot"] = api.read(device, PROT)
        return values
    finally:
        api.destroy(device)
