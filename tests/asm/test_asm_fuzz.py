"""Random and mutated lines never make the assembler crash or hang.

Every outcome must be an object or an ``AsmError`` with diagnostics; the run
is bounded (fixed seeds, a few hundred files, a wall-clock alarm per file).
"""

import pathlib
import random
import signal
import time

import pytest

from amdgpu_tools.asm import assemble_object
from amdgpu_tools.errors import AsmError

ROOT = pathlib.Path(__file__).parents[2]
SEED_SOURCES = sorted((ROOT / "samples").glob("*.s")) + \
    sorted((ROOT / "tests" / "asm" / "golden").glob("*.s")) + \
    sorted((ROOT / "tests" / "asm" / "clang").glob("*.s"))

TOKENS = [
    "s_mov_b32", "v_add_f32", "s_waitcnt", "v_mov_b32_e32", "global_load_dword", "ds_write_b32",
    "s0", "s[0:1]", "v[2:3]", "v1", "vcc", "exec", "m0", "ttmp[4:7]", "off", "glc", "offset:",
    "0x", "-", "+", "*", "/", "(", ")", "[", "]", ":", ",", "|", "&", "~", "!", "@", "\"", "'",
    ".long", ".byte", ".rept", ".endr", ".if", ".endif", ".macro", ".endm", ".set", ".section",
    ".amdhsa_kernel", ".end_amdhsa_kernel", ".p2align", ".fill", "1b", "1f", "1:", "label:",
    "sym@rel32@lo", "vmcnt(0)", "hwreg(HW_REG_MODE, 0, 4)", "1.5", "-2.0e3", "0b101", "\\",
    ";", "//", "/*", "*/", "#", "\t", "abs(", "neg(", "quad_perm:[0,1,2,3]", "99999999999999999999",
]


def _mutate(line: str, rng: random.Random) -> str:
    choice = rng.randrange(6)
    if not line:
        return rng.choice(TOKENS)
    position = rng.randrange(len(line) + 1)
    if choice == 0:
        return line[:position] + rng.choice(TOKENS) + line[position:]
    if choice == 1:
        return line[:position] + line[position + rng.randrange(1, 8):]
    if choice == 2:
        return line[:position] + chr(rng.randrange(32, 127)) + line[position:]
    if choice == 3:
        return line.replace(",", " ", 1)
    if choice == 4:
        return " ".join(rng.choice(TOKENS) for _ in range(rng.randrange(1, 8)))
    return "".join(rng.choice([c, c.upper(), c * 2]) for c in line)


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _assemble_bounded(source: str, seconds: int = 20):
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        assemble_object(source, target="gfx900")
    except AsmError as failure:
        assert failure.diagnostics or str(failure)
        internal = [d for d in failure.diagnostics if "internal error" in d.message]
        assert not internal, internal[0].format()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("seed", range(2))
def test_mutated_sources_never_crash(seed):
    rng = random.Random(seed)
    lines = [line for path in SEED_SOURCES for line in path.read_text().splitlines()]
    start = time.monotonic()
    for _ in range(25):
        chosen = rng.sample(lines, min(len(lines), 40))
        mutated = [_mutate(line, rng) if rng.random() < 0.5 else line for line in chosen]
        _assemble_bounded("\n".join(mutated) + "\n")
        if time.monotonic() - start > 10:
            break


@pytest.mark.parametrize("seed", range(1))
def test_random_token_lines_never_crash(seed):
    rng = random.Random(1000 + seed)
    source = "\n".join(" ".join(rng.choice(TOKENS) for _ in range(rng.randrange(1, 10)))
                       for _ in range(400))
    _assemble_bounded(source)


@pytest.mark.parametrize("source", [
    ".rept 100000000\n.long 1\n.endr\n",
    ".data\n.fill 0x7fffffff, 8, 0\n",
    ".data\n.p2align 31\n",
    ".data\n.long " + "(" * 5000 + "1" + ")" * 5000 + "\n",
    ".set a, b\n.set b, a\n.data\n.long a\n",
    ".macro m\nm\n.endm\nm\n",
    ".data\n.long " + "1+" * 20000 + "1\n",
], ids=["huge-rept", "huge-fill", "huge-align", "deep-parens", "cyclic-set", "recursive-macro",
        "long-expression"])
def test_hostile_inputs_are_bounded(source):
    _assemble_bounded(source)


def test_random_directive_lines_never_crash():
    from amdgpu_tools.asm import amdgpu_directives, directives
    from amdgpu_tools.asm.assembler import BLOCKS
    names = sorted(directives.HANDLERS) + sorted(amdgpu_directives.HANDLERS) + sorted(BLOCKS) + \
        [".if", ".else", ".endif", ".endr", ".endm"]
    args = ["", "1", "x", "x, 1", '"s"', "@function", "x, @object", "-1", "1, 2, 3",
            "0x7fffffff", "x y", ",", "(", "sym@rel32@lo", ".", "1b", '"a", @progbits',
            "99999999999999999999999", "2, 1", "k", "k, 4096"]
    rng = random.Random(5)
    for _ in range(150):
        lines = [f"{rng.choice(names)} {rng.choice(args)}" for _ in range(rng.randrange(1, 6))]
        for version in (None, 2):
            try:
                assemble_object("\n".join(lines) + "\n", target="gfx900",
                                code_object_version=version)
            except AsmError as failure:
                assert not [d for d in failure.diagnostics if "internal error" in d.message]
