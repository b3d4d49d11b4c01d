"""amdgpu-objdump on clang offload bundles (what hipcc --genco / clang -x hip write).

llvm-objdump-19 refuses a bundle ("not recognized as a valid object file"), so
the reference is its listing of each entry unbundled by clang-offload-bundler-19,
recorded in tests/cli/data by tools/isa_gen/gen_bundle.py (two targets, plain
and zstd-compressed, and a host object carrying a bundle in .hip_fatbin). Each entry must list exactly as llvm-objdump lists the
entry's code object, under a ``PATH(BUNDLE ID):`` header (llvm-objdump's
archive-member style).
"""

import os
import re
import struct
import subprocess

import pytest

from amdgpu_tools.cli.objdump import code_objects, main
from reftools import require_tool
from test_objdump import instructions, labels

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
PLAIN = os.path.join(DATA, "kernels.hipfb")
COMPRESSED = os.path.join(DATA, "kernels_compressed.hipfb")
HEADER = re.compile(r"^(.*)\((.+)\):\tfile format elf64-amdgpu$", re.M)
GFX803 = "hipv4-amdgcn-amd-amdhsa--gfx803"
GFX900 = "hipv4-amdgcn-amd-amdhsa--gfx900:xnack-"


def listed(capsys, *argv):
    """``{bundle id: listing}`` of one amdgpu-objdump run (in output order)."""
    assert main(list(argv)) == 0
    out = capsys.readouterr().out
    heads = list(HEADER.finditer(out))
    return {m.group(2): out[m.end():(heads[i + 1].start() if i + 1 < len(heads) else None)]
            for i, m in enumerate(heads)}


def recorded(bundle_id):
    with open(f"{PLAIN}.{bundle_id}.objdump.txt") as handle:
        return handle.read()


def amdgcn_ids(list_file):
    with open(list_file) as handle:
        return {line.strip() for line in handle if "amdgcn" in line}


def test_every_amdgcn_entry_is_listed_under_its_bundle_id(capsys):
    found = listed(capsys, "-d", PLAIN)
    assert set(found) == amdgcn_ids(PLAIN + ".list.txt") == {GFX803, GFX900}
    assert list(found) == [GFX803, GFX900]  # bundle order


@pytest.mark.parametrize("bundle_id", [GFX803, GFX900])
def test_entry_disassembly_matches_llvm_objdump(capsys, bundle_id):
    mine = listed(capsys, "-d", PLAIN)[bundle_id]
    reference = recorded(bundle_id)
    assert instructions(mine) == instructions(reference)
    assert labels(mine) == labels(reference)
    assert len(instructions(mine)) > 40  # both kernels, the loop's branch included
    assert any("<prefix_sum+0x" in words for _, words in instructions(mine).values())


def test_compressed_bundle_lists_the_same_entries(capsys):
    assert amdgcn_ids(COMPRESSED + ".list.txt") == amdgcn_ids(PLAIN + ".list.txt")
    assert listed(capsys, "-d", COMPRESSED) == listed(capsys, "-d", PLAIN)


@pytest.mark.parametrize("mcpu, bundle_id", [("gfx900", GFX900), ("gfx900:xnack-", GFX900),
                                             ("gfx803", GFX803), ("fiji", GFX803)])
def test_mcpu_picks_the_entry_that_processor_loads(capsys, mcpu, bundle_id):
    found = listed(capsys, "-d", "--mcpu", mcpu, COMPRESSED)
    assert list(found) == [bundle_id]
    assert instructions(found[bundle_id]) == instructions(recorded(bundle_id))


def test_other_listings_apply_to_each_entry(capsys):
    found = listed(capsys, "--notes", "-t", PLAIN)
    for bundle_id, text in found.items():
        cpu = bundle_id.rsplit("--", 1)[1]
        assert f"amdhsa.target: amdgcn-amd-amdhsa--{cpu}" in text
        assert "prefix_sum.kd" in text and "SYMBOL TABLE:" in text


def bundle_bytes(entries):
    """An uncompressed offload bundle of ``[(bundle id, bytes)]`` (clang's layout)."""
    header = b"__CLANG_OFFLOAD_BUNDLE__" + struct.pack("<Q", len(entries))
    size = len(header) + sum(24 + len(i) for i, _ in entries)
    table, body = b"", b""
    for bundle_id, data in entries:
        table += struct.pack("<QQQ", size + len(body), len(data), len(bundle_id)) + \
            bundle_id.encode()
        body += data
    return header + table + body


@pytest.mark.parametrize("entries, argv, message", [
    ([("host-x86_64-unknown-linux--", b"")], [], "has no amdgcn code object"),
    ([("hipv4-amdgcn-amd-amdhsa--gfx900", b"BC\xc0\xde" + bytes(12))], [],
     "(hipv4-amdgcn-amd-amdhsa--gfx900): bundle entry is not an ELF code object"),
    ([("hipv4-amdgcn-amd-amdhsa--gfx900", b"\x7fELF")], ["--mcpu", "gfx906"],
     "has no code object for gfx906 (entries: hipv4-amdgcn-amd-amdhsa--gfx900)"),
    ([("hipv4-amdgcn-amd-amdhsa--gfx900", b"\x7fELF" + bytes(8))], [], "gfx900): "),
])
def test_bad_bundles_are_one_line_errors(tmp_path, capsys, entries, argv, message):
    path = tmp_path / "bad.hipfb"
    path.write_bytes(bundle_bytes(entries))
    assert main(["-d", *argv, str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"amdgpu-objdump: error: {path}") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_truncated_bundle_is_an_error(tmp_path, capsys):
    path = tmp_path / "cut.hipfb"
    path.write_bytes(open(PLAIN, "rb").read()[:200])
    assert main(["-d", str(path)]) == 1
    assert "truncated offload bundle" in capsys.readouterr().err


def test_host_object_lists_the_bundle_in_its_hip_fatbin(capsys):
    """clang -x hip -c writes an x86-64 object; its .hip_fatbin holds the bundle."""
    host = os.path.join(DATA, "kernels_host.o")
    assert open(host, "rb").read()[18] == 62  # EM_X86_64: llvm-objdump lists it as x86
    found = listed(capsys, "-d", host)
    assert list(found) == [GFX900]
    assert instructions(found[GFX900]) == instructions(recorded(GFX900))


def test_host_object_without_offload_code_is_still_rejected(tmp_path, capsys):
    path = tmp_path / "host.o"
    data = bytearray(open(os.path.join(DATA, "kernels_host.o"), "rb").read())
    start = data.index(b".hip_fatbin")
    data[start:start + 11] = b".hip_nobin_"  # the section is still there, renamed
    path.write_bytes(bytes(data))
    assert main(["-d", str(path)]) == 1
    assert "not an AMDGPU object: e_machine is 62" in capsys.readouterr().err


def test_plain_code_objects_are_unchanged():
    elf_path = os.path.join(os.path.dirname(DATA), "..", "elf", "data", "vadd_gfx900_v5.hsaco")
    [(name, elf)] = code_objects(elf_path)
    assert name == elf_path and elf.sections


@pytest.mark.llvm
def test_fresh_hip_bundle_matches_llvm_objdump(tmp_path, capsys, clang19, llvm_objdump19):
    """A bundle compiled now: each entry, unbundled by clang-offload-bundler-19 and
    listed by llvm-objdump-19, reads the same as our listing of the bundle."""
    bundler = require_tool("clang-offload-bundler-19")
    if not os.path.isfile("/usr/include/hip/hip_runtime.h"):
        pytest.skip("the HIP headers (libamdhip64-dev) are needed")
    bundle = tmp_path / "k.hipfb"
    subprocess.run([clang19, "-x", "hip", "--cuda-device-only", "-O1", "--rocm-path=/usr",
                    "--rocm-device-lib-path=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
                    "--offload-arch=gfx906", "--offload-arch=gfx803",
                    os.path.join(DATA, "bundle_kernels.hip"), "-o", str(bundle)],
                   check=True, capture_output=True, env=dict(os.environ, HIP_PLATFORM="amd"))
    found = listed(capsys, "-d", str(bundle))
    assert set(found) == {"hipv4-amdgcn-amd-amdhsa--gfx906", GFX803}
    for bundle_id, mine in found.items():
        entry = tmp_path / "entry.o"
        subprocess.run([bundler, "--unbundle", "--type=o", f"--input={bundle}",
                        f"--targets={bundle_id}", f"--output={entry}"], check=True)
        reference = subprocess.run([llvm_objdump19, "-d", str(entry)], check=True,
                                   capture_output=True, text=True).stdout
        assert instructions(mine) == instructions(reference)
        assert labels(mine) == labels(reference)
