"""Live checks against the LLVM tools (skipped when they are absent):
llvm-readelf accepts every output without a warning, and fresh objects
(generated, or compiled from OpenCL now) link exactly as ld.lld links them."""

import importlib.util
import pathlib
import subprocess

import pytest

from amdgpu_tools.link import link
from reftools import require_tool, ROCM_BITCODE

from .elfview import View, assert_matches_lld, data_path
from .test_link_lld import CASES

pytestmark = pytest.mark.llvm
ROOT = pathlib.Path(__file__).resolve().parents[2]


def _bench_module():
    spec = importlib.util.spec_from_file_location("bench_link", ROOT / "bench" / "bench_link.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("merge_notes", [True, False], ids=["merged", "concatenated"])
@pytest.mark.parametrize("reference", sorted(CASES))
def test_readelf_accepts_output_without_warnings(tmp_path, reference, merge_notes):
    readelf = require_tool("llvm-readelf-19")
    out = tmp_path / "out.so"
    out.write_bytes(link([data_path(n) for n in CASES[reference]], merge_notes=merge_notes))
    result = subprocess.run([readelf, "-a", "-W", "--notes", str(out)], capture_output=True,
                            text=True)
    assert result.returncode == 0
    assert "warning" not in result.stderr.lower(), result.stderr
    assert "AMDGPU" in result.stdout or "AMD" in result.stdout


def test_generated_objects_match_lld(tmp_path):
    """60 objects: enough dynamic symbols for many GNU hash buckets and bloom words."""
    mc = require_tool("llvm-mc-19")
    lld = require_tool("ld.lld-19")
    bench = _bench_module()
    paths = bench.generate_objects(60, tmp_path, mc)
    subprocess.run([lld, "-shared", "-o", str(tmp_path / "ref.so"), *paths], check=True)
    reference = View((tmp_path / "ref.so").read_bytes())
    assert len(reference.symbols(".dynsym")) > 150
    assert_matches_lld(View(link(paths, merge_notes=False)), reference)


@pytest.mark.parametrize("version", [4, 5])
def test_fresh_clang_objects_match_lld(tmp_path, version):
    clang = require_tool("clang-19")
    lld = require_tool("ld.lld-19")
    if not pathlib.Path(ROCM_BITCODE).is_dir():
        pytest.skip("rocm-device-libs is not installed")
    objects = []
    for source in ("cl_v5.cl", "cl_v5_func.cl"):
        obj = tmp_path / source.replace(".cl", ".o")
        subprocess.run([clang, "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx900", "-x", "cl",
                        "-cl-std=CL2.0", "-O2", f"--rocm-device-lib-path={ROCM_BITCODE}",
                        f"-mcode-object-version={version}", "-c",
                        data_path(f"src/{source}"), "-o", str(obj)], check=True)
        objects.append(str(obj))
    subprocess.run([lld, "-shared", "-o", str(tmp_path / "ref.so"), *objects], check=True)
    assert_matches_lld(View(link(objects, merge_notes=False)),
                       View((tmp_path / "ref.so").read_bytes()))


@pytest.mark.parametrize("name", ["err_pic.o", "err_readonly.o", "err_undefined.o",
                                  "err_absolute_pc.o"])
def test_pic_error_reads_like_lld(tmp_path, capsys, name):
    lld = require_tool("ld.lld-19")
    from amdgpu_tools.cli.ld import main
    path = data_path(name)
    reference = subprocess.run([lld, "-shared", path, "-o", str(tmp_path / "x.so")],
                               capture_output=True, text=True)
    assert main(["-shared", "-z", "undefs", path, "-o", str(tmp_path / "y.so")]) == 1
    ours = capsys.readouterr().err.splitlines()
    theirs = reference.stderr.splitlines()
    assert ours[0].replace("amdgpu-ld:", "ld.lld-19:", 1) == theirs[0].replace(
        "ld.lld:", "ld.lld-19:", 1)
    assert ours[1:3] == theirs[1:3]  # >>> defined in ..., >>> referenced by ...


def test_undefined_default_symbol_with_z_undefs_matches_lld(tmp_path):
    """Without --no-undefined an undefined symbol is left to the loader, as in ld.lld."""
    mc = require_tool("llvm-mc-19")
    lld = require_tool("ld.lld-19")
    source = tmp_path / "u.s"
    source.write_text('.amdgcn_target "amdgcn-amd-amdhsa--gfx900"\n.data\n.globl p\n'
                      "p: .quad elsewhere\n")
    obj = tmp_path / "u.o"
    subprocess.run([mc, "--triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj",
                    str(source), "-o", str(obj)], check=True)
    subprocess.run([lld, "-shared", str(obj), "-o", str(tmp_path / "ref.so")], check=True)
    assert_matches_lld(View(link([str(obj)], no_undefined=False)),
                       View((tmp_path / "ref.so").read_bytes()))


def test_dwarf_of_linked_debug_objects_verifies(tmp_path):
    dwarfdump = require_tool("/usr/lib/llvm-19/bin/llvm-dwarfdump")
    out = tmp_path / "debug.so"
    out.write_bytes(link([data_path("cl_v5_debug.o"), data_path("cl_v5_func_debug.o")]))
    result = subprocess.run([dwarfdump, "--verify", str(out)], capture_output=True, text=True)
    assert result.returncode == 0 and "No errors." in result.stdout, result.stdout
