"""The release tarball holds what a user installs, each file listed with its
digest: the wheel (with its CLI), the headers, Cortex-M55 and Cortex-M85
static libraries (as the cross toolchain's readelf sees them), firmware
images and the pinned dependency list; every version agrees."""

from __future__ import annotations

import hashlib
import io
import json
import re
import subprocess
import tarfile
import zipfile

import pytest

MODULE = "MODULE.bazel"
VERSION_BZL = "version.bzl"


def sdk_version() -> str:
    with open(VERSION_BZL) as f:
        return re.search(r'SDK_VERSION = "([^"]+)"', f.read())[1]


@pytest.fixture(scope="module")
def release() -> dict[str, bytes]:
    path = f"release/ethosu_sdk-{sdk_version()}.tar.gz"
    with tarfile.open(path) as tar:
        members = tar.getmembers()
        assert all(m.mtime == 0 and m.uid == 0 and m.gid == 0 for m in members)
        return {m.name: tar.extractfile(m).read() for m in members if m.isfile()}


def strip(name: str) -> str:
    return name.split("/", 1)[1]


def test_module_version_is_the_single_source() -> None:
    with open(MODULE) as f:
        assert re.search(r'version = "([^"]+)"', f.read())[1] == sdk_version()


def test_manifest_lists_every_file_with_its_digest(release: dict[str, bytes]) -> None:
    files = {strip(n): data for n, data in release.items()}
    manifest = files.pop("MANIFEST.sha256").decode().splitlines()
    listed = {line.split("  ", 1)[1]: line.split("  ", 1)[0] for line in manifest}
    assert listed.keys() == files.keys()
    for name, data in files.items():
        assert hashlib.sha256(data).hexdigest() == listed[name], name


def test_wheel_carries_the_aot_stack_and_its_cli(release: dict[str, bytes]) -> None:
    wheels = [n for n in release if n.endswith(".whl")]
    assert len(wheels) == 1 and f"ethosu_sdk-{sdk_version()}-py3-none-any.whl" in wheels[0]
    with zipfile.ZipFile(io.BytesIO(release[wheels[0]])) as wheel:
        names = wheel.namelist()
        assert "ethosu_sdk/aot/compile.py" in names
        assert "executorch_program/program_generated.py" in names
        entry_points = wheel.read(f"ethosu_sdk-{sdk_version()}.dist-info/entry_points.txt").decode()
        assert "ethosu-aot-compile = ethosu_sdk.cli.aot_compile:run" in entry_points
        metadata = wheel.read(f"ethosu_sdk-{sdk_version()}.dist-info/METADATA").decode()
        assert "Requires-Dist: executorch[ethos-u]==1.5.1" in metadata


@pytest.mark.parametrize("cpu", ["cortex-m55", "cortex-m85"])
def test_static_libraries_per_cpu(release: dict[str, bytes], cpu: str, tmp_path) -> None:
    libraries = {n: d for n, d in release.items() if f"/lib/{cpu}/" in n}
    names = {n.rsplit("/", 1)[1] for n in libraries}
    # The register-level driver ships; the functional model (libnpu) is host only.
    assert {"libcore.a", "libruntime.a", "libbackend.a", "libethosu.a", "libboard_npu.a"} <= names, names
    assert "libnpu.a" not in names, names
    archive = tmp_path / "libruntime.a"
    archive.write_bytes(next(d for n, d in libraries.items() if n.endswith("/libruntime.a")))
    attributes = subprocess.run(
        ["arm-none-eabi-readelf", "-A", str(archive)], capture_output=True, text=True, check=True
    ).stdout
    assert f'Tag_CPU_name: "{cpu}"' in attributes.replace("Cortex", "cortex")


def test_headers_firmware_and_dependency_list(release: dict[str, bytes]) -> None:
    files = {strip(n) for n in release}
    # cc/core's headers too: the runtime's and the backend's include them.
    assert {
        "include/cc/runtime/program.h",
        "include/schema/program_generated.h",
        "include/cc/backends/ethosu/ethosu_backend.h",
        "include/cc/core/status.h",
        "include/cc/core/span.h",
        "include/cc/core/format.h",
    } <= files
    assert "firmware/corstone320/mv2_u85_firmware.elf" in files
    assert "firmware/corstone320/firmware_corstone320.elf" in files
    sbom = json.loads(next(d for n, d in release.items() if n.endswith("/sbom.json")))
    assert sbom["sdk"]["version"] == sdk_version()
    torch = [p for p in sbom["python"] if p["name"] == "torch"]
    assert torch and torch[0]["version"] == "2.13.0+cpu" and len(torch[0]["sha256"]) == 64
    assert any(p["name"] == "bazel-bootstrap" and p["version"] == "7.7.1+ds-8+b1" for p in sbom["debian"])
