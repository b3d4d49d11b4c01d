"""`make run` as a test: amdgpu-as, amdgpu-ld, then amdgpu-run on the hello-world sample."""

import os

import pytest

SAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "hello_world.s")


def test_make_run_pipeline(tmp_path, capsys):
    try:
        from amdgpu_tools.cli.asm import main as as_main
        from amdgpu_tools.cli.ld import main as ld_main
    except ImportError:
        pytest.skip("amdgpu-as / amdgpu-ld are not available")
    from amdgpu_tools.cli.run import main as run_main
    obj, hsaco = str(tmp_path / "hello.o"), str(tmp_path / "hello.hsaco")
    assert as_main(["--mcpu=gfx803", SAMPLE, "-o", obj]) == 0
    assert ld_main(["-shared", obj, "-o", hsaco]) == 0
    capsys.readouterr()
    assert run_main([hsaco, "--kernel", "hello_world", "--grid", "64", "--block", "64",
                     "--arg", "buf:float32[4]"]) == 0
    assert capsys.readouterr().out == "arg 0: [3.14159 0.      0.      0.     ]\n"
