"""What a semantic function's scalar form is compiled with (see lanewise.py
for when a block may use one): the same source, with ``np`` standing for
a module whose ``asarray`` and ``where`` leave scalars scalars, ``astype``,
``dtype`` (and its ``type``) and ``any`` on scalars, ``np.ndim`` (of arrays
too: the array form imports this module as well), and a Numba pipeline
that lets a helper ``view`` the scalar ``asarray`` gave it."""

from __future__ import annotations

import types

import numpy as np
from numba import types as nbtypes
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.typed_passes import NoPythonSupportedFeatureValidation
from numba.extending import overload, overload_attribute, overload_method
from numba.np.numpy_support import as_dtype

_LANE_NUMPY = None


class LanePipeline(CompilerBase):
    """Numba's nopython pipeline less its check that ``.view`` is called on an
    array or on an ``np.<dtype>(...)`` value. A semantic's helpers view what
    ``asarray`` gave them: an array in the interpreter, a NumPy scalar of
    that dtype in the scalar form, where Numba's scalar ``view`` is the same
    bit cast. (The check's other concerns are the array form's too, which
    passed it.)"""

    def define_pipelines(self):
        manager = DefaultPassBuilder.define_nopython_pipeline(self.state)
        manager.passes = [entry for entry in manager.passes
                          if entry[0] is not NoPythonSupportedFeatureValidation]
        return [manager]


def lane_numpy():
    """A stand-in for the ``numpy`` module in a semantic's scalar form: every
    name is NumPy's, but ``asarray`` of a scalar is the scalar (cast to the
    dtype asked for) and ``where`` of scalars selects one, as they do lane by
    lane on arrays; NumPy's own return 0-d arrays, an allocation per lane."""
    global _LANE_NUMPY
    if _LANE_NUMPY is None:
        module = types.ModuleType("amdgpu_tools_lane_numpy")
        module.__dict__.update({name: getattr(np, name) for name in dir(np)
                                if not name.startswith("__")})
        module.asarray = _lane_asarray
        module.where = _lane_where
        _LANE_NUMPY = module
    return _LANE_NUMPY


def _lane_asarray(value, dtype=None):
    raise NotImplementedError("only compiled code calls it")


@overload(_lane_asarray)
def _choose_asarray(value, dtype=None):
    if isinstance(value, nbtypes.Array):
        if dtype is None or isinstance(dtype, (nbtypes.NoneType, nbtypes.Omitted)):
            return lambda value, dtype=None: value
        return lambda value, dtype=None: value.astype(dtype)
    if dtype is None or isinstance(dtype, (nbtypes.NoneType, nbtypes.Omitted)):
        return lambda value, dtype=None: value
    return lambda value, dtype=None: dtype(value)


def _lane_where(condition, yes, no):
    raise NotImplementedError("only compiled code calls it")


@overload(_lane_where)
def _choose_where(condition, yes, no):
    if isinstance(condition, nbtypes.Array) or isinstance(yes, nbtypes.Array) or \
            isinstance(no, nbtypes.Array):
        return lambda condition, yes, no: np.where(condition, yes, no)
    return lambda condition, yes, no: yes if condition else no


@overload_method(nbtypes.Number, "astype")
def _scalar_astype(value, dtype):
    return lambda value, dtype: dtype(value)


@overload_attribute(nbtypes.Number, "dtype")
def _scalar_dtype(value):
    """A scalar's ``dtype``, as its NumPy scalar type (what ``astype`` takes
    in a scalar form: ``x.astype(a.dtype)``)."""
    kind = as_dtype(value).type
    return lambda value: kind


@overload_attribute(nbtypes.NumberClass, "type")
def _scalar_type_type(kind):
    """``x.dtype.type`` of a scalar: its NumPy scalar type again (``dtype``
    above is already that type), so that a semantic's ``x.dtype.type(1)``,
    a constant of its values' type, means the same in both forms."""
    scalar_type = kind.instance_type
    return lambda kind: scalar_type


@overload_method(nbtypes.Boolean, "astype")
def _bool_astype(value, dtype):
    return lambda value, dtype: dtype(value)


@overload_method(nbtypes.Boolean, "any")
def _bool_any(value):
    """A truth's ``any()``: itself (a semantic's ``np.isnan(x).any()``, whose
    ``x`` is one lane's value in a scalar form)."""
    return lambda value: value


@overload(np.ndim)
def _ndim(value):
    """``np.ndim`` as NumPy's, for arrays and scalars alike (Numba has none),
    a constant of the type: a branch on it costs nothing in compiled code."""
    if isinstance(value, nbtypes.Array):
        dimensions = value.ndim
        return lambda value: dimensions
    if isinstance(value, (nbtypes.Number, nbtypes.Boolean)):
        return lambda value: 0


@overload(np.clip)
def _scalar_clip(value, low, high):
    if isinstance(value, nbtypes.Number) and isinstance(low, nbtypes.Number) and \
            isinstance(high, nbtypes.Number):
        return lambda value, low, high: min(max(value, low), high)
