"""The executor's semantics, one module per instruction family.

Importing this package registers every semantic in ``core.registry.SEMANTICS``:

- ``salu``        scalar ALU (SOP1/SOP2/SOPK/SOPC) on NumPy rows; ``salu_int``
                  its one-wave fast variants on Python ints
- ``valu_int``    vector ALU, integer; ``valu_float`` vector ALU, floating point
                  (``rounding``/``fused``: MODE round modes, fused multiply-add;
                  ``float_format``: the f16/f32/f64 bit layouts)
- ``vcmp``        vector compares (VOPC and their VOP3 forms)
- ``control``     program control (SOPP, branches, s_getpc/s_setpc, hwreg, M0 indexing)
- ``lane``        cross-lane ops (v_readlane, v_writelane, v_movrel*, ...)
- ``packed``      VOP3P packed 16-bit math and the mixed-precision v_mad_mix/v_fma_mix
- ``smem``        scalar memory (SMRD/SMEM)
- ``vmem``        vector memory: buffer, tbuffer, flat, global, scratch
                  (``buffer_formats``: typed buffer data formats)
- ``ds``          LDS (DS encoding without gds)
- ``gds``         the global data share, GWS and ds_ordered_count
- ``memory``      what the memory families share: byte pieces, loads/stores, atomics
"""

from . import (control, ds, gds, lane, packed, salu, salu_int, smem, valu_float,  # noqa: F401
               valu_int, vcmp, vmem)
