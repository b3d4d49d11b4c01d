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

The atomics' helpers ``memory.as_signed`` and ``memory.as_float`` view
values as the signed or float type of a width they are told: a choice of
type at run time, which Numba cannot type. Their compiled stand-ins
(``view_as_width``) let the values' own type, which that width chose,
choose the view: the same bits, reinterpreted alike.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import vectorize
from numba.core import types
from numba.extending import intrinsic, overload

from ..semantics import fused, memory

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


@intrinsic
def _same_bits(typingctx, value, kind):
    """``value``'s bits as the scalar type ``kind`` (a NumPy scalar type as
    wide as ``value``): one LLVM bit cast."""
    target = getattr(kind, "instance_type", None)
    if not isinstance(value, (types.Integer, types.Float)) or \
            not isinstance(target, (types.Integer, types.Float)) or \
            target.bitwidth != value.bitwidth:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(target))
    return target(value, kind), codegen


def view_as_width(family):
    """The compiled stand-in of a helper ``(values, width) -> values viewed
    as the type of ``family`` (bits -> NumPy type) that ``width`` names``:
    arrays and one lane's scalars alike take the type of ``family`` as wide
    as the values' own."""
    def stand_in(values, width):
        raise NotImplementedError("only compiled code calls it")

    @overload(stand_in)
    def _choose(values, width):
        element = values.dtype if isinstance(values, types.Array) else values
        kind = family.get(getattr(element, "bitwidth", None))
        if kind is None:
            return None
        if isinstance(values, types.Array):
            return lambda values, width: values.view(kind)
        return lambda values, width: _same_bits(values, kind)
    return stand_in


#: helper called by semantics -> what their compiled copies call instead
NATIVE_FORMS = {
    fused.fma64: fused_multiply_add,
    memory.as_signed: view_as_width({32: np.int32, 64: np.int64}),
    memory.as_float: view_as_width({32: np.float32, 64: np.float64}),
}
