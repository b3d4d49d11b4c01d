"""Launch descriptions shared by ``amdgpu-run``: ``--arg`` strings and
``--spec`` YAML files (format in CONTRACTS.md), both turned into calls on the
high-level API.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field

import numpy as np
import yaml

from ..errors import ToolchainError
from .api import Buffer, Device, LocalMemory


class SpecError(ToolchainError):
    """A malformed ``--arg`` or launch spec."""


#: scalar argument tags and their NumPy types
SCALAR_TYPES = {
    "i8": np.int8, "u8": np.uint8, "i16": np.int16, "u16": np.uint16,
    "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u64": np.uint64,
    "f16": np.float16, "f32": np.float32, "f64": np.float64,
}
_SHAPED = re.compile(r"^(?P<dtype>[A-Za-z_][A-Za-z0-9_]*)\[(?P<shape>[0-9, ]+)\]$")


def scalar(tag: str, text, where: str):
    """A NumPy scalar of type ``tag`` from text or a YAML number."""
    dtype = np.dtype(SCALAR_TYPES[tag])
    try:
        if dtype.kind == "f":
            value = float(text)
        else:
            value = int(text, 0) if isinstance(text, str) else int(text)
    except (TypeError, ValueError):
        raise SpecError(f"{where}: '{text}' is not a valid {tag} value") from None
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if not info.min <= value <= info.max:
            raise SpecError(f"{where}: {value} does not fit in {tag}")
    elif math.isfinite(value) and abs(value) > float(np.finfo(dtype).max):
        raise SpecError(f"{where}: {value} does not fit in {tag}")
    return dtype.type(value)


def _dtype(name: str, where: str) -> np.dtype:
    try:
        return np.dtype(name)
    except TypeError:
        raise SpecError(f"{where}: unknown NumPy dtype '{name}'") from None


def _sizes(value, where: str, what: str) -> tuple:
    """A shape or byte count from a spec (an int or a list of ints): malformed
    YAML values are a SpecError naming the place, never a bare ValueError."""
    items = value if isinstance(value, list) else [value]
    if not items or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in items):
        raise SpecError(f"{where}: {what} {value!r} is not a non-negative integer"
                        f"{' or a list of them' if what == 'shape' else ''}")
    return tuple(items)


def _load_npy(path: str, where: str) -> np.ndarray:
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError) as failure:
        raise SpecError(f"{where}: cannot read '{path}': {failure}") from None


def parse_arg(device: Device, text: str, where: str = "--arg"):
    """One ``--arg`` string: ``i32:7``, ``buf:FILE.npy``, ``buf:float32[1024]``, ``local:4096``."""
    tag, sep, value = text.partition(":")
    where = f"{where} '{text}'"
    if not sep:
        raise SpecError(f"{where}: expected TYPE:VALUE (i32:7, f32:1.5, buf:FILE.npy, "
                        "buf:float32[1024], local:4096)")
    if tag in SCALAR_TYPES:
        return scalar(tag, value, where)
    if tag == "local":
        try:
            return LocalMemory(int(value, 0))
        except ValueError:
            raise SpecError(f"{where}: '{value}' is not a byte count") from None
    if tag == "buf":
        shaped = _SHAPED.match(value.strip())
        if shaped and not value.endswith(".npy"):
            shape = tuple(int(s) for s in shaped["shape"].split(",") if s.strip())
            return device.zeros(shape, _dtype(shaped["dtype"], where))
        return device.array(_load_npy(value, where))
    raise SpecError(f"{where}: unknown argument type '{tag}' (known: "
                    f"{', '.join(SCALAR_TYPES)}, buf, local)")


def parse_dims(text, where: str) -> tuple:
    """``64`` / ``64,2`` / ``[64, 2, 1]`` -> a tuple of ints."""
    if isinstance(text, (list, tuple)):
        items = list(text)
    elif isinstance(text, int):
        items = [text]
    else:
        items = [t for t in str(text).replace("x", ",").split(",") if t.strip()]
    try:
        dims = tuple(int(str(i).strip(), 0) if isinstance(i, str) else int(i) for i in items)
    except (TypeError, ValueError):
        raise SpecError(f"{where}: '{text}' is not a list of 1-3 sizes") from None
    if not 1 <= len(dims) <= 3:
        raise SpecError(f"{where}: '{text}' must have 1 to 3 sizes")
    return dims


# ------------------------------------------------------------------- spec
@dataclass
class Comparison:
    name: str
    ok: bool
    message: str


@dataclass
class SpecResult:
    name: str
    comparisons: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.comparisons)


def load_spec(path: str) -> dict:
    """The spec's YAML, with the keys every spec needs checked before any launch."""
    try:
        with open(path, encoding="utf-8") as handle:
            spec = yaml.safe_load(handle)
    except OSError as failure:
        raise SpecError(f"cannot read spec '{path}': {failure.strerror}") from None
    except yaml.YAMLError as failure:
        raise SpecError(f"spec '{path}' is not valid YAML: {failure}") from None
    if not isinstance(spec, dict):
        raise SpecError(f"spec '{path}' is not a mapping")
    for key in ("code_object", "launches"):
        if key not in spec:
            raise SpecError(f"spec '{path}' has no '{key}'")
    for key in ("buffers", "expect"):
        if not isinstance(spec.get(key) or {}, dict):
            raise SpecError(f"spec '{path}': '{key}' must be a mapping of buffer names")
    return spec


def _spec_buffer(device, name, entry, base, where):
    if not isinstance(entry, dict):
        raise SpecError(f"{where}: buffer '{name}' must be a mapping")
    dtype = _dtype(entry.get("dtype", "float32"), where)
    if "file" in entry:
        array = _load_npy(_path(base, entry["file"], f"{where}: buffer '{name}'"), where)
        return device.array(array.astype(dtype) if "dtype" in entry else array)
    for key in ("zeros", "empty"):
        if key in entry:
            return device.zeros(_sizes(entry[key], f"{where}: buffer '{name}'", "shape"), dtype)
    if "data" in entry:
        return device.array(_data_array(entry["data"], dtype, f"{where}: buffer '{name}'"))
    raise SpecError(f"{where}: buffer '{name}' needs 'file', 'zeros', 'empty' or 'data'")


def _spec_arg(entry, buffers, where):
    if not isinstance(entry, dict) or len(entry) != 1:
        raise SpecError(f"{where}: each argument is a one-key mapping such as {{i32: 7}}, "
                        f"got {entry!r}")
    (tag, value), = entry.items()
    if tag == "buf":
        if value not in buffers:
            raise SpecError(f"{where}: unknown buffer '{value}' "
                            f"(buffers: {', '.join(buffers) or 'none'})")
        return buffers[value]
    if tag == "local":
        (nbytes,) = _sizes(value, where, "local size")
        return LocalMemory(nbytes)
    if tag in SCALAR_TYPES:
        return scalar(tag, value, where)
    raise SpecError(f"{where}: unknown argument type '{tag}'")


def compare(name, actual: np.ndarray, expected: np.ndarray, rtol: float, atol: float):
    """A buffer against its expected values: floats within rtol/atol (NaN equals
    NaN), integers exactly; the message names the first difference."""
    if actual.size != expected.size:
        return Comparison(name, False, f"FAIL {name}: {actual.size} elements, expected "
                                       f"{expected.size}")
    actual = actual.reshape(-1)
    expected = np.asarray(expected).reshape(-1).astype(actual.dtype, copy=False)
    if actual.dtype.kind == "f":
        close = np.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        close = actual == expected
    bad = np.flatnonzero(~close)
    if not bad.size:
        return Comparison(name, True, f"PASS {name} ({actual.size} x {actual.dtype})")
    first = int(bad[0])
    return Comparison(name, False, f"FAIL {name}: {bad.size} of {actual.size} elements differ; "
                                   f"first at [{first}]: got {actual[first]!r}, expected "
                                   f"{expected[first]!r}")


def run_spec(path: str, device_factory=Device, echo=print) -> SpecResult:
    """Run a launch spec; returns per-buffer comparisons (also echoed)."""
    spec = load_spec(path)
    base = os.path.dirname(os.path.abspath(path))
    where = f"spec '{path}'"
    device = device_factory()
    program = device.load(_path(base, spec["code_object"], f"spec '{path}': code_object"))
    buffers = {name: _spec_buffer(device, name, entry, base, where)
               for name, entry in (spec.get("buffers") or {}).items()}
    _run_launches(program, spec["launches"], buffers, where)
    device.synchronize()
    result = SpecResult(str(spec.get("name", os.path.basename(path))))
    for name, entry in (spec.get("expect") or {}).items():
        comparison = _check_expectation(name, entry or {}, buffers, base, where)
        result.comparisons.append(comparison)
        echo(comparison.message)
    return result


def _run_launches(program, launches, buffers: dict, where: str) -> None:
    """Each launch of the spec, in order, on the device's one queue."""
    if not isinstance(launches, list):
        raise SpecError(f"{where}: 'launches' must be a list")
    for number, launch in enumerate(launches):
        at = f"{where} launch {number}"
        if not isinstance(launch, dict) or "kernel" not in launch:
            raise SpecError(f"{at}: needs 'kernel', 'grid', 'block' and 'args'")
        args = [_spec_arg(a, buffers, at) for a in launch.get("args") or []]
        program[launch["kernel"]](*args, grid=parse_dims(launch.get("grid", 1), at),
                                  block=parse_dims(launch.get("block", 1), at))


def _check_expectation(name: str, entry: dict, buffers: dict, base: str,
                       where: str) -> Comparison:
    """One ``expect`` entry compared with the buffer's contents after the run."""
    if name not in buffers:
        raise SpecError(f"{where}: expected buffer '{name}' is not a buffer")
    if not isinstance(entry, dict):
        raise SpecError(f"{where}: expectation '{name}' must be a mapping")
    if "file" in entry:
        expected = _load_npy(_path(base, entry["file"], f"{where}: expectation '{name}'"), where)
    elif "data" in entry:
        expected = _data_array(entry["data"], None, f"{where}: expectation '{name}'")
    else:
        raise SpecError(f"{where}: expectation '{name}' needs 'file' or 'data'")
    return compare(name, buffers[name].numpy(), expected,
                   _tolerance(entry, "rtol", name, where), _tolerance(entry, "atol", name, where))


def _path(base: str, value, where: str) -> str:
    """A file named by the spec, relative to the spec's directory."""
    if not isinstance(value, str) or not value:
        raise SpecError(f"{where}: {value!r} is not a file name")
    return os.path.join(base, value)


def _data_array(values, dtype, where: str) -> np.ndarray:
    """Inline ``data:`` values as an array of numbers (of ``dtype`` if given)."""
    try:
        array = np.asarray(values, dtype=dtype)
        if array.dtype.kind not in "biuf":
            array = array.astype(np.float64)
        return array
    except (TypeError, ValueError, OverflowError) as failure:
        raise SpecError(f"{where}: data {values!r} is not a list of numbers "
                        f"({failure})") from None


def _tolerance(entry: dict, key: str, name: str, where: str) -> float:
    value = entry.get(key, 0.0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise SpecError(f"{where}: expectation '{name}' {key} {value!r} is not a "
                        "non-negative number")
    return float(value)


__all__ = ["SpecError", "parse_arg", "parse_dims", "run_spec", "load_spec", "compare"]
