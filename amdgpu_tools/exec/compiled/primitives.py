"""IEEE 754 operations NumPy lacks, in compiled code as the host's own.

A semantic calls ``fused.fma64`` for fusedMultiplyAdd on float64: NumPy has
no fma, so that function builds one from error-free transformations and
rationals, with a ``with np.errstate`` and Python ``Fraction`` objects that
Numba cannot compile. It is an implementation of the primitive, not part of
any instruction's description, just as NumPy's ``np.sqrt`` is one of the
square root whose compiled form is LLVM's. So compiled copies of the
semantics call LLVM's ``llvm.fma.f64`` in its place (``NATIVE_FORMS``,
read by ``jitcopy.compiled_copy``): one correctly rounded operation, the x86
FMA instruction where the CPU has one and the C library's ``fma`` where it
does not. Both are the same correctly rounded function of their operands,
which the lanewise probe and the check mode hold the compiled form to.
"""

from __future__ import annotations

from llvmlite import ir
from numba import vectorize
from numba.core import types
from numba.extending import intrinsic

from ..semantics import fused

_DOUBLE = ir.DoubleType()


@intrinsic
def _llvm_fma(typingctx, a, b, c):
    """a * b + c rounded once: LLVM's fma intrinsic on three float64s."""
    if not all(isinstance(x, types.Float) and x.bitwidth == 64 for x in (a, b, c)):
        return None

    def codegen(context, builder, signature, args):
        fma = builder.module.declare_intrinsic(
            "llvm.fma", [_DOUBLE], ir.FunctionType(_DOUBLE, [_DOUBLE] * 3))
        return builder.call(fma, args)
    return types.float64(types.float64, types.float64, types.float64), codegen


@vectorize(["float64(float64, float64, float64)"], cache=True)
def fused_multiply_add(a, b, c):
    """``fused.fma64`` as compiled code calls it: a ufunc, so that whole
    arrays (broadcast as NumPy broadcasts) and one lane's scalars alike
    take it."""
    return _llvm_fma(a, b, c)


#: helper called by semantics -> what their compiled copies call instead
NATIVE_FORMS = {fused.fma64: fused_multiply_add}
