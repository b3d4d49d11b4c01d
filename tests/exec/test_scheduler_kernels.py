"""Kernels for the scheduler tests, assembled by amdgpu-as (no LLVM needed)
and launched through the public runtime API.

``build(body, ...)`` wraps a kernel body in a code-object-v5 kernel whose
ABI is: s[0:1] the kernarg segment (one 8-byte global pointer per buffer
argument), s2 the work-group id x, v0 the work-item id x. The tests in this
module check that the wrapper itself behaves (so a scheduler test that fails
points at the scheduler, not at the harness).
"""

import numpy as np
import pytest

from amdgpu_tools.asm import assemble

TEMPLATE = """.amdgcn_target "amdgcn-amd-amdhsa--{target}"
.amdhsa_code_object_version 5
.text
.globl {name}
.p2align 8
.type {name},@function
{name}:
{body}
  s_endpgm
.L{name}_end:
  .size {name}, .L{name}_end-{name}
.rodata
.p2align 6
.amdhsa_kernel {name}
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_kernarg_size {kernarg_size}
  .amdhsa_group_segment_fixed_size {lds}
  .amdhsa_next_free_vgpr {vgprs}
  .amdhsa_next_free_sgpr {sgprs}
  {extra}
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.kernels:
  - .name: {name}
    .symbol: {name}.kd
    .kernarg_segment_size: {kernarg_size}
    .kernarg_segment_align: 8
    .group_segment_fixed_size: {lds}
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: {sgprs}
    .vgpr_count: {vgprs}
    .max_flat_workgroup_size: 1024
    .args:
{args}
amdhsa.target: amdgcn-amd-amdhsa--{target}
amdhsa.version: [ 1, 2 ]
...
.end_amdgpu_metadata
"""


def build(device, body, *, buffers=1, lds=0, vgprs=16, sgprs=32, name="k", extra="",
          target="gfx900"):
    """Assemble ``body`` as a kernel taking ``buffers`` global pointers; the kernel."""
    args = "\n".join(f"      - {{ .name: p{i}, .offset: {8 * i}, .size: 8, "
                     ".value_kind: global_buffer, .address_space: global }"
                     for i in range(buffers)) or "      []"
    source = TEMPLATE.format(target=target, name=name, body=body, lds=lds, vgprs=vgprs,
                             sgprs=sgprs, kernarg_size=max(8 * buffers, 8), args=args,
                             extra=extra)
    return device.load(assemble(source, target=target))[name]


def new_device(**options):
    """A gfx900 Device (``options`` go to the Device constructor)."""
    from amdgpu_tools import Device
    return Device("gfx900", **options)


@pytest.fixture
def device():
    return new_device()


def test_build_passes_buffers_group_ids_and_work_item_ids(device):
    # out[gid] = work-group id * 1000 + work-item id
    kernel = build(device, """
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  s_waitcnt lgkmcnt(0)
  s_lshl_b32 s6, s2, 7
  v_add_u32 v1, s6, v0
  s_mul_i32 s7, s2, 1000
  v_add_u32 v2, s7, v0
  v_lshlrev_b32 v1, 2, v1
  global_store_dword v1, v2, s[4:5]
""")
    out = device.zeros(256, np.uint32)
    kernel(out, grid=(256,), block=(128,))
    device.synchronize()
    ids = np.arange(256)
    assert out.numpy().tolist() == ((ids // 128) * 1000 + ids % 128).tolist()
