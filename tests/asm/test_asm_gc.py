"""Assembly pauses the cyclic garbage collector and always gives it back as it was."""

import gc

import pytest

from amdgpu_tools.asm import assemble
from amdgpu_tools.errors import AsmError


def test_collector_state_is_restored_after_success_and_error():
    assert gc.isenabled()
    assert assemble("s_nop 0\n")[:4] == b"\x7fELF"
    assert gc.isenabled()
    with pytest.raises(AsmError):
        assemble("s_bogus_op v0\n")
    assert gc.isenabled()
    gc.disable()
    try:
        assemble("s_nop 0\n")
        assert not gc.isenabled()  # a caller's choice to keep it off is kept
    finally:
        gc.enable()
