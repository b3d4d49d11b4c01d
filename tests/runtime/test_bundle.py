"""Clang offload bundles (runtime.bundle): reading, choosing the device's
entry, compressed bundles, and loading and running them unchanged.

The recorded bundles come from clang-19 (data/bundle/record.py); the entry
IDs expected below are what ``clang-offload-bundler --list`` prints for them,
and a test compares the extracted bytes with ``clang-offload-bundler
-unbundle`` when it is installed.
"""

import struct
import subprocess
import zlib

import numpy as np
import pytest

from amdgpu_tools import Device
from amdgpu_tools.cli.run import main as amdgpu_run
from amdgpu_tools.elf import constants as C
from amdgpu_tools.elf.reader import read_elf
from amdgpu_tools.errors import LoadError, TargetError
from amdgpu_tools.runtime.bundle import (
    BUNDLE_MAGIC, BundleEntry, TargetId, bundle_hash, decompress_bundle, is_offload_bundle,
    read_bundle, select_entry, unbundle)
from .conftest import data_path, read_data
from reftools import find_tool

MULTI = "bundle/scale-multi.hsaco"
ZSTD = "bundle/scale-zstd.hsaco"
PAYLOAD = "bundle/scale-zstd.payload"

#: the IDs clang-offload-bundler-19 --list prints for scale-multi.hsaco, in file order
MULTI_IDS = ["host-x86_64-unknown-linux--", "hipv4-amdgcn-amd-amdhsa--gfx803",
             "hipv4-amdgcn-amd-amdhsa--gfx900:xnack+", "hipv4-amdgcn-amd-amdhsa--gfx900:xnack-"]

#: EF_AMDGPU_MACH and the v4+ XNACK setting the ELF header of each entry must carry
ENTRY_FLAGS = {
    MULTI_IDS[1]: (0x2A, C.EF_AMDGPU_FEATURE_XNACK_UNSUPPORTED_V4),
    MULTI_IDS[2]: (0x2C, C.EF_AMDGPU_FEATURE_XNACK_ON_V4),
    MULTI_IDS[3]: (0x2C, C.EF_AMDGPU_FEATURE_XNACK_OFF_V4),
}


def entry_flags(code_object: bytes):
    flags = read_elf(code_object, "entry").flags
    return flags & C.EF_AMDGPU_MACH, flags & C.EF_AMDGPU_FEATURE_XNACK_V4


# ------------------------------------------------------------------ reading
def test_entries_and_ids_as_the_bundler_lists_them():
    entries = read_bundle(read_data(MULTI))
    assert [e.bundle_id for e in entries] == MULTI_IDS
    assert [e.is_device_code for e in entries] == [False, True, True, True]
    assert entries[0].data == b""
    for entry in entries:
        if entry.is_device_code:
            assert entry_flags(entry.data) == ENTRY_FLAGS[entry.bundle_id]


def offload_bundler():
    """clang-19's bundler (clang-tools-19), else ROCm 5.2's (clang-tools-15, with hipcc)."""
    for name in ("clang-offload-bundler-19", "clang-offload-bundler-15"):
        if find_tool(name):
            return find_tool(name)
    pytest.skip("clang-offload-bundler is not installed (clang-tools-19 or hipcc)")


def test_entry_bytes_match_clang_offload_bundler(tmp_path):
    bundler = offload_bundler()
    entries = {e.bundle_id: e.data for e in read_bundle(read_data(MULTI))}
    listed = subprocess.run([bundler, "--list", "-type=o", f"-input={data_path(MULTI)}"],
                            check=True, capture_output=True, text=True).stdout.split()
    assert sorted(listed) == sorted(MULTI_IDS)
    for bundle_id in ENTRY_FLAGS:
        out = tmp_path / "entry.o"
        subprocess.run([bundler, "-unbundle", "-type=o", f"-input={data_path(MULTI)}",
                        f"-targets={bundle_id}", f"-output={out}"], check=True)
        assert out.read_bytes() == entries[bundle_id], bundle_id


def test_target_ids_parse_both_triple_forms():
    new = BundleEntry("hipv4-amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-", b"x")
    old = BundleEntry("hip-amdgcn-amd-amdhsa-gfx803", b"x")
    assert new.kind == "hipv4" and old.kind == "hip"
    assert new.target_id == TargetId("gfx906", (("sramecc", True), ("xnack", False)))
    assert str(new.target_id) == "gfx906:sramecc+:xnack-"
    assert old.target_id == TargetId("gfx803")
    assert BundleEntry("host-x86_64-unknown-linux--", b"").target_id is None


def test_bad_feature_setting_is_refused():
    with pytest.raises(TargetError, match="feature 'xnack' must end in"):
        TargetId.parse("gfx900:xnack")


# ---------------------------------------------------------------- choosing
@pytest.mark.parametrize("target, chosen", [
    ("gfx803", MULTI_IDS[1]),
    ("fiji", MULTI_IDS[1]),                    # an alias of gfx803
    ("gfx900:xnack+", MULTI_IDS[2]),
    ("gfx900:xnack-", MULTI_IDS[3]),
    ("gfx900", MULTI_IDS[3]),                  # open XNACK: either fits, off preferred
    ("gfx900:sramecc-", MULTI_IDS[3]),         # a feature no entry states is "any" there
])
def test_entry_for_target(target, chosen):
    assert select_entry(read_bundle(read_data(MULTI)), target).bundle_id == chosen


def test_exact_feature_match_beats_any():
    entries = [BundleEntry("hipv4-amdgcn-amd-amdhsa--gfx900:xnack+", b"\x7fELF+"),
               BundleEntry("hipv4-amdgcn-amd-amdhsa--gfx900", b"\x7fELFany")]
    assert select_entry(entries, "gfx900").data == b"\x7fELFany"
    assert select_entry(entries, "gfx900:xnack+").data == b"\x7fELF+"
    assert select_entry(entries, "gfx900:xnack-").data == b"\x7fELFany"


def test_no_fitting_entry_names_the_entries():
    with pytest.raises(LoadError) as failure:
        select_entry(read_bundle(read_data(MULTI)), "gfx906")
    message = str(failure.value)
    assert message.startswith("offload bundle has no code object for gfx906 (entries: ")
    for bundle_id in MULTI_IDS:
        assert bundle_id in message


def test_several_targets_need_a_device_target():
    with pytest.raises(LoadError, match="several targets .*gfx803.*choose one"):
        select_entry(read_bundle(read_data(MULTI)), None)


def test_duplicate_entries_are_ambiguous():
    entries = [BundleEntry("hipv4-amdgcn-amd-amdhsa--gfx803", b"\x7fELFa"),
               BundleEntry("hip-amdgcn-amd-amdhsa-gfx803", b"\x7fELFb")]
    with pytest.raises(LoadError, match="several code objects for gfx803"):
        select_entry(entries, "gfx803")


def test_unknown_processors_are_listed_not_fatal():
    entries = [BundleEntry("hipv4-amdgcn-amd-amdhsa--gfx1030", b"\x7fELF"),
               BundleEntry("hipv4-amdgcn-amd-amdhsa--gfx900", b"\x7fELF9")]
    assert select_entry(entries, "gfx900").data == b"\x7fELF9"
    with pytest.raises(LoadError, match="gfx1030"):
        select_entry(entries, "gfx803")


def test_host_only_bundle_has_no_device_code():
    bundle = make_bundle([("host-x86_64-unknown-linux--", b"")])
    with pytest.raises(LoadError, match="no amdgcn code object .*host-x86_64"):
        unbundle(bundle)


def test_non_elf_entry_is_refused():
    bundle = make_bundle([("hip-amdgcn-amd-amdhsa--gfx900", b"BC\xc0\xde bitcode")])
    with pytest.raises(LoadError, match="not an ELF code object"):
        unbundle(bundle, "gfx900")


def test_plain_code_objects_pass_through():
    elf = read_data("kernels_v5_gfx900.hsaco")
    assert not is_offload_bundle(elf)
    assert unbundle(elf, "gfx803") is elf


# --------------------------------------------------------- malformed files
def make_bundle(entries, align=8):
    """An uncompressed bundle in the documented layout (entries: (id, bytes))."""
    header_size = len(BUNDLE_MAGIC) + 8 + sum(24 + len(i) for i, _ in entries)
    offsets, position = [], header_size
    for _, data in entries:
        position += -position % align
        offsets.append(position)
        position += len(data)
    out = bytearray(BUNDLE_MAGIC + struct.pack("<Q", len(entries)))
    for (bundle_id, data), offset in zip(entries, offsets):
        out += struct.pack("<QQQ", offset, len(data), len(bundle_id)) + bundle_id.encode()
    for (_, data), offset in zip(entries, offsets):
        out += bytes(offset - len(out)) + data
    return bytes(out)


def test_made_bundle_reads_back_like_the_recorded_one():
    entries = read_bundle(read_data(MULTI))
    remade = make_bundle([(e.bundle_id, e.data) for e in entries])
    assert read_bundle(remade) == entries


@pytest.mark.parametrize("cut, what", [(30, "entry count"), (40, "entry 0 header"),
                                       (70, "ID of entry 0")])
def test_truncated_headers(cut, what):
    with pytest.raises(LoadError, match=f"truncated offload bundle: {what}"):
        read_bundle(read_data(MULTI)[:cut])


def test_entry_past_the_end():
    data = read_data(MULTI)
    with pytest.raises(LoadError, match="entry 'hipv4-amdgcn-amd-amdhsa--gfx803'.*"
                                        "ends past the file"):
        read_bundle(data[:5000])


# -------------------------------------------------------- compressed (CCOB)
def ccob(payload, version, method=0, hash_value=None, compressed=None, file_size=None):
    """A compressed bundle with the header of ``version`` (1-3) around zlib data."""
    body = zlib.compress(payload) if compressed is None else compressed
    hash_value = bundle_hash(payload) if hash_value is None else hash_value
    fields = {1: ("<IQ", [len(payload), hash_value]),
              2: ("<IIQ", [None, len(payload), hash_value]),
              3: ("<QQQ", [None, len(payload), hash_value])}[version]
    header_size = 8 + struct.calcsize(fields[0])
    values = [header_size + len(body) if v is None and file_size is None else
              (file_size if v is None else v) for v in fields[1]]
    return b"CCOB" + struct.pack("<HH", version, method) + struct.pack(fields[0], *values) + body


def test_zstd_header_hash_is_truncated_md5_of_the_payload():
    """The recorded clang header (v2) states the payload's size and hash, as bundle_hash
    computes it; the payload is the ordinary gfx900 bundle."""
    compressed, payload = read_data(ZSTD), read_data(PAYLOAD)
    magic, version, method, file_size, size, hash_value = struct.unpack_from("<4sHHIIQ",
                                                                             compressed)
    assert (magic, version, method, file_size) == (b"CCOB", 2, 1, len(compressed))
    assert (size, hash_value) == (len(payload), bundle_hash(payload))
    assert [e.bundle_id for e in read_bundle(payload)] == [
        "host-x86_64-unknown-linux--", "hipv4-amdgcn-amd-amdhsa--gfx900"]


def test_zstd_bundle_as_clang_wrote_it():
    assert is_offload_bundle(read_data(ZSTD))
    assert decompress_bundle(read_data(ZSTD)) == read_data(PAYLOAD)
    run_scale(Device(), read_data(ZSTD))


def test_corrupt_zstd_bundle():
    data = bytearray(read_data(ZSTD))
    data[24:28] = b"\0\0\0\0"                  # the zstd frame magic
    with pytest.raises(LoadError, match="bad zstd data .*bad frame magic"):
        read_bundle(bytes(data))


@pytest.mark.parametrize("version", [1, 2, 3])
def test_zlib_bundles_of_each_header_version(version):
    payload = read_data(PAYLOAD)
    assert decompress_bundle(ccob(payload, version)) == payload
    assert read_bundle(ccob(payload, version)) == read_bundle(payload)


@pytest.mark.parametrize("damage, message", [
    (dict(hash_value=12345), "hash of the decompressed bytes differs"),
    (dict(compressed=b"not zlib"), "bad zlib data"),
    (dict(method=7), "unknown compression method 7"),
    (dict(file_size=1 << 20), "states 1048576 bytes"),
])
def test_damaged_compressed_bundles(damage, message):
    with pytest.raises(LoadError, match=message):
        read_bundle(ccob(read_data(PAYLOAD), 2, **damage))


def test_compressed_size_mismatch_and_unknown_version():
    payload = read_data(PAYLOAD)
    good = ccob(payload, 1)
    wrong_size = good[:8] + struct.pack("<I", len(payload) + 1) + good[12:]
    with pytest.raises(LoadError, match="the header states"):
        read_bundle(wrong_size)
    with pytest.raises(LoadError, match="version 9 is not supported"):
        read_bundle(b"CCOB" + struct.pack("<HH", 9, 0) + bytes(32))
    with pytest.raises(LoadError, match="truncated compressed offload bundle header"):
        read_bundle(good[:12])


# -------------------------------------------------------- loading and running
def run_scale(device, data, n=100):
    program = device.load(data)
    x = device.array(np.arange(n, dtype=np.float32))
    program["scale"](x, np.float32(2.5), np.int32(n), grid=(128,), block=(64,))
    device.synchronize()
    np.testing.assert_array_equal(x.numpy(), np.arange(n, dtype=np.float32) * np.float32(2.5))
    return program


@pytest.mark.parametrize("target, mach", [("gfx803", 0x2A), ("gfx900", 0x2C)])
def test_device_loads_its_entry_and_runs_it(target, mach):
    program = run_scale(Device(target), read_data(MULTI))
    assert program.loaded.code.elf.mach == mach


def test_device_without_target_takes_the_only_entry():
    device = Device()
    run_scale(device, ccob(read_data(PAYLOAD), 3))
    assert device.target.name == "gfx900"


def test_device_without_target_refuses_a_multi_target_bundle():
    with pytest.raises(LoadError, match="several targets"):
        Device().load(data_path(MULTI))


def test_amdgpu_run_takes_the_mcpu_target_id(capsys, tmp_path):
    argv = [data_path(MULTI), "--grid", "4", "--arg", "buf:float32[4]", "--arg", "f32:2",
            "--arg", "i32:4"]
    assert amdgpu_run(argv + ["--mcpu", "gfx900:xnack+"]) == 0
    assert amdgpu_run([data_path(MULTI), "--info", "--mcpu", "gfx803"]) == 0
    assert "kernel scale" in capsys.readouterr().out
    assert amdgpu_run(argv) == 1
    assert "amdgpu-run: error: offload bundle has code objects for several targets" in \
        capsys.readouterr().err
