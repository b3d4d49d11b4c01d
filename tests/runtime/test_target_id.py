"""Device target ids (``gfx900:xnack-``): what the agent reports and which code
objects it accepts (ROCm's rule: a setting the code object states must be the
device's; "any" fits every device; a device that states nothing takes all)."""

from pathlib import Path

import numpy as np
import pytest

from amdgpu_tools import Device
from amdgpu_tools.asm import assemble
from amdgpu_tools.elf import constants as C
from amdgpu_tools.errors import LoadError, TargetError
from amdgpu_tools.isa.targets import ALL_TARGETS

SAMPLE = (Path(__file__).parents[2] / "samples" / "vector_add.s").read_text()


#: how code object v3 spells a target id in .amdgcn_target ("any" counts as on)
V3_SPELLING = {"gfx900": "gfx900+xnack", "gfx900:xnack-": "gfx900",
               "gfx900:xnack+": "gfx900+xnack"}


def vector_add(target_id: str, version: int = 5) -> bytes:
    """The vector_add sample assembled for ``target_id`` as code object ``version``."""
    spelled = V3_SPELLING[target_id] if version == 3 else target_id
    source = SAMPLE.replace('"amdgcn-amd-amdhsa--gfx900"', f'"amdgcn-amd-amdhsa--{spelled}"')
    source = source.replace(".amdhsa_code_object_version 5",
                            f".amdhsa_code_object_version {version}")
    return assemble(source, target=target_id)


def runs(device: Device, code: bytes) -> bool:
    a = device.array(np.arange(64, dtype=np.float32))
    c = device.zeros(64, np.float32)
    device.load(code)["vector_add"](a, a, c, np.int32(64), grid=(64,), block=(64,))
    device.synchronize()
    return bool(np.array_equal(c.numpy(), 2 * np.arange(64, dtype=np.float32)))


@pytest.mark.parametrize("flags, version, expected", [
    (C.EF_AMDGPU_FEATURE_XNACK_ANY_V4 | C.EF_AMDGPU_FEATURE_SRAMECC_OFF_V4, 4,
     {"xnack": "any", "sramecc": "off"}),
    (C.EF_AMDGPU_FEATURE_XNACK_ON_V4 | C.EF_AMDGPU_FEATURE_SRAMECC_ON_V4, 5,
     {"xnack": "on", "sramecc": "on"}),
    (0x2C, 4, {"xnack": "unsupported", "sramecc": "unsupported"}),
    (0x2C | C.EF_AMDGPU_FEATURE_XNACK_V3, 3, {"xnack": "on", "sramecc": "off"}),
    (0x2C, 3, {"xnack": "off", "sramecc": "off"}),
    (C.EF_AMDGPU_FEATURE_XNACK_V2, 2, {"xnack": "on", "sramecc": "any"}),
])
def test_feature_settings_from_e_flags(flags, version, expected):
    assert C.feature_settings(flags, version) == expected


def test_a_device_without_target_lists_every_emulated_isa():
    info = Device().info()
    names = [line.split()[-1] for line in info.splitlines() if "amdgcn-amd-amdhsa--" in line
             and line.strip().startswith("Name:")]
    assert names == [f"amdgcn-amd-amdhsa--{t.name}" for t in ALL_TARGETS]
    assert "the first code object loaded sets it" in info


def test_the_target_id_is_the_isa_name():
    device = Device("gfx906:sramecc+:xnack-")
    assert device.agent.isa_names == ["amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-"]
    assert Device("fiji").agent.isa_name == "amdgcn-amd-amdhsa--gfx803"


def test_after_the_first_load_the_agent_reports_that_isa():
    device = Device()
    assert runs(device, vector_add("gfx900"))
    assert device.agent.isa_names == ["amdgcn-amd-amdhsa--gfx900"]


@pytest.mark.parametrize("target_id, message", [
    ("fiji:xnack-", "processor gfx803 has no 'xnack' feature"),
    ("gfx900:sramecc+", "processor gfx900 has no 'sramecc' feature"),
    ("gfx900:xnack", "must end in '+' or '-'"),
])
def test_settings_the_processor_lacks_are_errors(target_id, message):
    with pytest.raises((TargetError, LoadError)) as failure:
        Device(target_id)
    assert message in str(failure.value)


@pytest.mark.parametrize("device_id, object_id, version, accepted", [
    ("gfx900", "gfx900:xnack+", 5, True),            # the device states nothing
    ("gfx900:xnack-", "gfx900", 5, True),             # the object says "any"
    ("gfx900:xnack-", "gfx900:xnack-", 5, True),
    ("gfx900:xnack+", "gfx900:xnack+", 4, True),
    ("gfx900:xnack-", "gfx900:xnack+", 5, False),
    ("gfx900:xnack+", "gfx900:xnack-", 4, False),
    ("gfx900:xnack+", "gfx900:xnack-", 3, False),     # v3 without the bit means off
    ("gfx900:xnack-", "gfx900:xnack-", 3, True),
    ("gfx900:xnack-", "gfx900", 3, False),            # v3 writes "any" as on
    ("gfx900:xnack+", "gfx900", 3, True),
    ("gfx906:sramecc+", "gfx906:sramecc-", 5, False),
    ("gfx906:sramecc+:xnack-", "gfx906:sramecc+", 5, True),
])
def test_loads_match_feature_settings(device_id, object_id, version, accepted):
    device = Device(device_id)
    code = vector_add(object_id, version)
    if accepted:
        assert runs(device, code)
    else:
        with pytest.raises(LoadError) as failure:
            device.load(code)
        assert "but the device is " + device_id in str(failure.value)
