"""Numba-compiled copies of the registered semantic functions.

A semantic function (``exec/semantics``) is plain NumPy code and stays the
one description of its instruction. Numba compiles the same code object;
the only change is the namespace it is compiled in: every plain Python
function it calls (``u32``, ``bitfield_extract`` ...) is replaced by such a
compiled copy too, so helpers need no decorator and NumPy-only callers are
untouched; a helper that implements an IEEE operation NumPy lacks
(``fused.fma64``) by the host's own (primitives.py).
"""

from __future__ import annotations

import types

from numba import njit

from .. import semantics  # noqa: F401  (registers every semantic)
from . import scalar_numpy  # noqa: F401  (np.ndim, which both forms' semantics may call)
from .primitives import NATIVE_FORMS
from ..core.registry import semantic_named

_COPIES = {}


def compiled_copy(fn, label, lanes=False):
    """``fn`` compiled by Numba, with its global Python helpers compiled the
    same way. ``label`` (the op it was first compiled for) goes into the
    copy's qualified name: Numba names machine code by module, qualified
    name and a per-process counter, so two different lambdas of one module
    (every ``_unary(...)`` registration has one) could get the same symbol in
    two processes, and code compiled in one (the background compiler) and
    loaded in another would call the wrong one.

    ``lanes``: the scalar form, called on one lane's values, whose ``np`` is
    ``scalar_numpy.lane_numpy()`` (lanewise.py says when blocks may use it)."""
    copy = _COPIES.get((fn, lanes))
    if copy is not None:
        return copy
    namespace = dict(fn.__globals__)
    options = {}
    if lanes:
        from .scalar_numpy import LanePipeline, lane_numpy
        namespace["np"] = lane_numpy()
        options["pipeline_class"] = LanePipeline
    for name in _global_names(fn.__code__):
        value = namespace.get(name)
        if isinstance(value, types.FunctionType) and value is not fn:
            namespace[name] = _compiled_helper(value, label, lanes)
    closure = fn.__closure__
    if closure:
        closure = tuple(types.CellType(_compiled_helper(cell.cell_contents, label, lanes))
                        if isinstance(cell.cell_contents, types.FunctionType) else cell
                        for cell in closure)
    twin = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__, closure)
    form = "lane@" if lanes else ""
    twin.__qualname__ = f"{fn.__qualname__}@{form}{label}:{fn.__code__.co_firstlineno}"
    copy = _COPIES[(fn, lanes)] = njit(twin, error_model="numpy", **options)
    return copy


def _compiled_helper(helper, label, lanes):
    """What a compiled copy calls for the Python function ``helper``: its
    native form (primitives.py), else its own compiled copy."""
    native = NATIVE_FORMS.get(helper)
    return native if native is not None else compiled_copy(helper, label, lanes)


def _global_names(code):
    """The global names ``code`` and the code objects nested in it read."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _global_names(constant)
    return names


def semantic(op, lanes=False):
    """The compiled copy of ``op``'s registered semantic function (of a
    builder: the ``combine`` function its registration states); ``lanes``:
    its scalar form."""
    registered = semantic_named(op)
    if registered.kind == "builder":
        facts = registered.flags
        return compiled_copy(facts["combine"] if "combine" in facts else facts["taken"], op,
                             lanes)
    return compiled_copy(registered.fn, op, lanes)


def part(kind, *facts, lanes=False):
    """The compiled copy of one of the interpreter's per-instruction helpers,
    made by its factory from ``facts``: ``sdwa_select`` (lanes.sdwa_selector:
    sel, sext), ``sdwa_place`` (lanes.sdwa_placer: sel, unused),
    ``saturate`` (formats.integer_saturation: the kind), ``float_result``
    (formats.float_result_modifier: type, omod, clamp, DX10_CLAMP) or
    ``atomic`` (memory.ATOMIC_OPS: the op's name)."""
    from ..core import formats, lanes as lane_ops
    from ..semantics.memory import ATOMIC_OPS
    make = {"sdwa_select": lane_ops.sdwa_selector, "sdwa_place": lane_ops.sdwa_placer,
            "saturate": formats.integer_saturation,
            "float_result": formats.float_result_modifier, "atomic": ATOMIC_OPS.get}[kind]
    label = "_".join([kind] + [str(fact) for fact in facts])
    return compiled_copy(make(*facts), label, lanes)
