"""amdgpu-run over a fake executor (the runtime's wiring, not instruction semantics)."""

import os
import struct

import numpy as np
import pytest
import yaml

import amdgpu_tools.exec as exec_package
from amdgpu_tools.cli.run import main
from amdgpu_tools.exec.launch import DispatchResult

DATA = os.path.join(os.path.dirname(__file__), "..", "runtime", "data")


def data(name):
    return os.path.join(DATA, name)


def fake_run_dispatch(request):
    """hello_world stores 3.14159 to arg 0; vadd adds; anything else does nothing."""
    memory, kernarg = request.memory, request.kernarg_address
    if request.kernel_name == "hello_world":
        memory.write(memory.read_u64(kernarg), struct.pack("<f", 3.14159))
    elif request.kernel_name == "vadd":
        a, b, c = (memory.read_u64(kernarg + 8 * k) for k in range(3))
        n = struct.unpack("<i", memory.read(kernarg + 24, 4))[0]
        x = np.frombuffer(memory.read(a, 4 * n), np.float32)
        y = np.frombuffer(memory.read(b, 4 * n), np.float32)
        memory.write(c, x + y)
    return DispatchResult(waves=1, profile={0x1000: 3, 0x1004: 3})


@pytest.fixture(autouse=True)
def fake_executor(monkeypatch):
    monkeypatch.setattr(exec_package, "run_dispatch", fake_run_dispatch, raising=False)


def test_hello_world_prints_its_buffer(capsys):
    status = main([data("hello_world_v2.hsaco"), "--kernel", "hello_world", "--grid", "64",
                   "--block", "64", "--arg", "buf:float32[4]"])
    out = capsys.readouterr().out
    assert status == 0
    assert out.startswith("arg 0: [3.14159 0.      0.      0.     ]")


def test_single_kernel_needs_no_kernel_option(capsys):
    assert main([data("hello_world_v2.hsaco"), "--grid", "64", "--arg", "buf:float32[4]"]) == 0
    assert "3.14159" in capsys.readouterr().out


def test_save_and_npy_inputs(tmp_path, capsys):
    a = np.arange(1000, dtype=np.float32)
    np.save(tmp_path / "a.npy", a)
    out_path = tmp_path / "c.npy"
    status = main([data("kernels_v4_gfx900.hsaco"), "--kernel", "vadd", "--grid", "1024",
                   "--block", "64", "--arg", f"buf:{tmp_path / 'a.npy'}",
                   "--arg", f"buf:{tmp_path / 'a.npy'}", "--arg", "buf:float32[1000]",
                   "--arg", "i32:1000", "--save", f"2={out_path}"])
    assert status == 0
    np.testing.assert_array_equal(np.load(out_path), 2 * a)
    out = capsys.readouterr().out
    assert f"arg 2: saved float32[1000] to {out_path}" in out
    assert "arg 0:" not in out                          # large buffers are not printed


def test_profile_lists_pcs(capsys):
    assert main([data("hello_world_v2.hsaco"), "--grid", "64", "--arg", "buf:float32[4]",
                 "--profile"]) == 0
    out = capsys.readouterr().out
    assert "0x1000: 3" in out and "0x1004: 3" in out


def test_info_lists_agent_regions_and_kernels(capsys):
    assert main(["--info", data("kernels_v2_gfx803.hsaco")]) == 0
    out = capsys.readouterr().out
    assert "Name:" in out and "gfx803" in out
    assert "KERNARG" in out and "GROUP" in out
    assert "kernel vadd" in out and "arg 3: offset 24, size 4, by_value int" in out


def _spec(tmp_path, expected):
    a = np.linspace(0, 1, 1000, dtype=np.float32)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "out.npy", expected(a))
    spec = {
        "name": "vadd-1000",
        "code_object": os.path.relpath(data("kernels_v4_gfx900.hsaco"), tmp_path),
        "buffers": {"a": {"file": "a.npy"}, "out": {"zeros": 1000, "dtype": "float32"}},
        "launches": [{"kernel": "vadd", "grid": [1024, 1, 1], "block": [64, 1, 1],
                      "args": [{"buf": "a"}, {"buf": "a"}, {"buf": "out"}, {"i32": 1000}]}],
        "expect": {"out": {"file": "out.npy", "rtol": 0.0, "atol": 0.0}},
    }
    path = tmp_path / "launch.yaml"
    path.write_text(yaml.safe_dump(spec))
    return str(path)


def test_spec_pass(tmp_path, capsys):
    assert main(["--spec", _spec(tmp_path, lambda a: a + a)]) == 0
    out = capsys.readouterr().out
    assert "PASS out (1000 x float32)" in out and "PASS vadd-1000: 1/1" in out


def test_spec_fail(tmp_path, capsys):
    assert main(["--spec", _spec(tmp_path, lambda a: a + a + np.float32(1))]) == 1
    out = capsys.readouterr().out
    assert "FAIL out: 1000 of 1000 elements differ" in out


@pytest.mark.parametrize("argv,message", [
    ([data("kernels_v4_gfx900.hsaco")], "has 7 kernels"),
    ([data("kernels_v4_gfx900.hsaco"), "--kernel", "nope"], "no kernel named 'nope'"),
    ([data("hello_world_v2.hsaco"), "--arg", "q32:1"], "unknown argument type 'q32'"),
    ([data("hello_world_v2.hsaco"), "--arg", "i32:abc"], "'abc' is not a valid i32"),
    ([data("hello_world_v2.hsaco"), "--arg", "u8:300"], "300 does not fit in u8"),
    ([data("hello_world_v2.hsaco"), "--arg", "f32:1e39"], "1e[+]?39 does not fit in f32"),
    ([data("hello_world_v2.hsaco"), "--arg", "i64:0x8000000000000000"], "does not fit in i64"),
    ([data("hello_world_v2.hsaco"), "--arg", "buf:nothing.npy"], "cannot read 'nothing.npy'"),
    ([data("hello_world_v2.hsaco"), "--arg", "buf:float99[4]"], "unknown NumPy dtype"),
    ([data("hello_world_v2.hsaco"), "--arg", "i32:1", "--save", "0=x.npy"], "not a buffer"),
    (["/nonexistent.hsaco"], "cannot read '/nonexistent.hsaco'"),
    ([data("hello_world_v2.hsaco"), "--mcpu", "gfx900", "--arg", "buf:float32[4]"],
     "code object is for gfx803, but the device is gfx900"),
    ([data("kernels_v4_gfx900.hsaco"), "--kernel", "vadd", "--grid", "64",
      "--block", "512", "--arg", "buf:float32[4]", "--arg", "buf:float32[4]",
      "--arg", "buf:float32[4]", "--arg", "i32:4"], "allows at most 256"),
    ([data("kernels_v4_gfx900.hsaco"), "--kernel", "vadd", "--arg", "i32:4"],
     r"takes 4 argument\(s\)"),
    (["--spec", "/nonexistent.yaml"], "cannot read spec"),
])
def test_errors_are_one_line_without_traceback(argv, message, capsys):
    status = main(argv)
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith("amdgpu-run: error: ")
    assert "Traceback" not in err
    import re
    assert re.search(message, err), err


def test_kernel_error_exits_non_zero(capsys, monkeypatch):
    from amdgpu_tools.errors import KernelError

    def trap(request):
        raise KernelError("s_trap 2", wave=0, pc=0x1234, instruction="s_trap 2")

    monkeypatch.setattr(exec_package, "run_dispatch", trap, raising=False)
    assert main([data("hello_world_v2.hsaco"), "--arg", "buf:float32[4]"]) == 1
    err = capsys.readouterr().err
    assert "kernel 'hello_world'" in err and "pc 0x1234" in err


def test_usage_errors(capsys):
    assert main([]) == 2
    assert "missing PROGRAM" in capsys.readouterr().err


SAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "hello_world.s")


def _assembler_works():
    try:
        from amdgpu_tools.asm import assemble
        with open(SAMPLE) as handle:
            assemble(handle.read(), target="gfx803", filename=SAMPLE)
        return True
    except Exception:  # any failure: the assembler is not usable yet
        return False


def test_assembly_program_is_assembled_and_linked_on_the_fly(capsys):
    if not _assembler_works():
        pytest.skip("the assembler cannot assemble the sample yet")
    status = main([SAMPLE, "--mcpu", "gfx803", "--kernel", "hello_world", "--grid", "64",
                   "--block", "64", "--arg", "buf:float32[4]"])
    assert status == 0
    assert capsys.readouterr().out.startswith("arg 0: [3.14159 0.")


def test_relocatable_program_is_linked_on_load(capsys):
    status = main([data("kernels_v5_gfx900.o"), "--info"])
    out = capsys.readouterr().out
    assert status == 0, capsys.readouterr().err
    assert "kernel lookup (symbol lookup.kd, code object v5" in out


@pytest.mark.parametrize("mutate,message", [
    (lambda s: s.pop("launches"), "has no 'launches'"),
    (lambda s: s["launches"][0].pop("kernel"), "launch 0: needs 'kernel'"),
    (lambda s: s["launches"][0]["args"].__setitem__(0, {"buf": "zz"}), "unknown buffer 'zz'"),
    (lambda s: s["launches"][0]["args"].__setitem__(3, {"q9": 1}), "unknown argument type 'q9'"),
    (lambda s: s["launches"][0]["args"].__setitem__(3, 5), "one-key mapping"),
    (lambda s: s["buffers"].__setitem__("a", {"ones": 3}), "needs 'file', 'zeros'"),
    (lambda s: s["expect"].__setitem__("nope", {"data": [1]}), "'nope' is not a buffer"),
    (lambda s: s["expect"].__setitem__("out", {"rtol": 1}), "needs 'file' or 'data'"),
    (lambda s: s["launches"][0].__setitem__("grid", [1, 2, 3, 4]), "must have 1 to 3 sizes"),
    (lambda s: s.__setitem__("code_object", "missing.hsaco"), "cannot read"),
    (lambda s: s["buffers"]["out"].__setitem__("zeros", "abc"), "shape 'abc' is not"),
    (lambda s: s["buffers"]["out"].__setitem__("zeros", [2, "x"]), "shape [2, 'x'] is not"),
    (lambda s: s["launches"][0]["args"].__setitem__(3, {"local": "many"}),
     "local size 'many' is not"),
    (lambda s: s["expect"].__setitem__("out", [1, 2]), "expectation 'out' must be a mapping"),
    (lambda s: s["expect"]["out"].__setitem__("rtol", "tight"), "rtol 'tight' is not"),
    (lambda s: s.__setitem__("expect", ["out"]), "'expect' must be a mapping"),
    (lambda s: s.__setitem__("buffers", "a"), "'buffers' must be a mapping"),
])
def test_malformed_specs(tmp_path, capsys, mutate, message):
    path = _spec(tmp_path, lambda a: a + a)
    spec = yaml.safe_load(open(path))
    mutate(spec)
    with open(path, "w") as handle:
        yaml.safe_dump(spec, handle)
    assert main(["--spec", path]) == 1
    err = capsys.readouterr().err
    assert err.startswith("amdgpu-run: error: ") and message in err, err


def test_spec_that_is_not_yaml(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text("name: [unclosed\n")
    assert main(["--spec", str(path)]) == 1
    assert "is not valid YAML" in capsys.readouterr().err
