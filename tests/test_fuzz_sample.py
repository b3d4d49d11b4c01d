"""A small fixed sample of the fuzzers (``make fuzz`` runs them at full size):
mutated assembly files, code objects and launch specs must be rejected with a
readable error or accepted, never a traceback, hang or crash."""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from tools import fuzz  # noqa: E402


@pytest.mark.parametrize("kind,count", [("asm", 60), ("objects", 40), ("specs", 15)])
def test_fuzz_sample_finds_nothing(kind, count):
    lines = []
    summary = fuzz.fuzz({kind: count}, seed=fuzz.DEFAULT_SEED, jobs=1, timeout=30,
                        echo=lines.append)
    tally = summary[kind]
    assert (tally["traceback"], tally["hang"], tally["crash"]) == (0, 0, 0), lines
    assert tally["ok"] + tally["rejected"] == count
    assert tally["rejected"] > 0                       # the mutations do reach the checks


def test_the_fuzzer_counts_a_traceback(monkeypatch):
    """The counting itself: a case that raises something else than a
    ToolchainError is a traceback, one past the time limit a hang."""
    worker = fuzz.Worker(fuzz.DEFAULT_SEED)
    monkeypatch.setattr(fuzz, "_WORKER", worker)
    monkeypatch.setattr(fuzz.Worker, "run_asm", lambda self, n: [][n])
    assert fuzz.run_chunk("asm", [3], fuzz.DEFAULT_SEED, 5)[0][:2] == (3, "traceback")

    def spin(self, n):
        while True:
            pass
    monkeypatch.setattr(fuzz.Worker, "run_asm", spin)
    assert fuzz.run_chunk("asm", [4], fuzz.DEFAULT_SEED, 0.2)[0][:2] == (4, "hang")


def test_found_by_the_fuzzer_spec_data_that_is_not_numbers(tmp_path, capsys):
    """specs:44 of the full run: an expectation's ``data`` with a non-number was a
    ValueError (an internal error); now it is a one-line spec error."""
    assert fuzz.run_chunk("specs", [44], fuzz.DEFAULT_SEED, 30)[0][:2] == (44, "rejected")
    from amdgpu_tools.cli.run import main
    spec = tmp_path / "s.yaml"
    hello = os.path.join(os.path.dirname(__file__), "runtime", "data", "hello_world_v2.hsaco")
    spec.write_text(f"code_object: {hello}\nbuffers:\n  out: {{zeros: 4}}\nlaunches:\n"
                    "  - kernel: hello_world\n    grid: [64]\n    block: [64]\n"
                    "    args: [{buf: out}]\nexpect:\n  out: {data: [3.1x, 0, 0, 0]}\n")
    assert main(["--spec", str(spec)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expectation 'out': data ['3.1x', 0, 0, 0] is not a " \
        "list of numbers" in err


def test_found_by_the_fuzzer_a_macro_that_calls_itself_twice():
    """asm:3976 of the full run: a macro whose body calls it twice reported 2**20
    depth errors (a hang; llvm-mc-19 takes minutes too); now the runaway
    expansion is dropped after its first depth error."""
    from amdgpu_tools.asm import assemble
    from amdgpu_tools.errors import AsmError
    source = ".macro twice\n twice\n .byte 1\n twice\n.endm\n.data\n twice\n .byte 2\n twice\n"
    with pytest.raises(AsmError) as failure:
        assemble(source)
    messages = [d.format().splitlines()[0] for d in failure.value.diagnostics]
    assert messages == ["<stdin>:7:2: error: macros cannot be nested more than 20 levels deep",
                        "<stdin>:9:2: error: macros cannot be nested more than 20 levels deep"]


def test_found_by_the_fuzzer_objdump_of_a_huge_section_name_offset(tmp_path):
    """objects:7546: a section-name offset past 2**63 made pyelftools raise
    OverflowError in amdgpu-objdump; now the ELF reader's own error is shown."""
    assert fuzz.run_chunk("objects", [7546], fuzz.DEFAULT_SEED, 30)[0][:2] == (7546, "rejected")
    assert fuzz.run_chunk("specs", [385], fuzz.DEFAULT_SEED, 30)[0][:2] == (385, "rejected")
