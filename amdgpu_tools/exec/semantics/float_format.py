"""The IEEE 754 binary16/32/64 layouts, for semantics that read a float's
bits (NaN kinds and payloads, classes, exponents): each field's place said
once, every mask derived from it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class FloatFormat:
    """One float type's layout: its NumPy type, the unsigned type of its
    bits and its mantissa's width; the masks and constants below follow."""

    float_type: type
    bits_type: type
    mantissa_bits: int

    @property
    def width(self) -> int:
        return 8 * np.dtype(self.bits_type).itemsize

    @property
    def sign(self):
        """The sign bit."""
        return self.bits_type(1 << (self.width - 1))

    @property
    def magnitude(self):
        """Every bit but the sign."""
        return self.bits_type((1 << (self.width - 1)) - 1)

    @property
    def exponent_field(self):
        """The exponent's bits; they are the bits of +Inf too."""
        return self.bits_type(int(self.magnitude) ^ ((1 << self.mantissa_bits) - 1))

    @property
    def quiet(self):
        """The quiet bit of a NaN: the mantissa's top."""
        return self.bits_type(1 << (self.mantissa_bits - 1))

    @property
    def smallest_normal(self):
        """The bits of the smallest positive normal number (exponent field 1)."""
        return self.bits_type(1 << self.mantissa_bits)

    @property
    def bias(self) -> int:
        return (1 << (self.width - 2 - self.mantissa_bits)) - 1


#: float type name (as the table rows type operands) -> its layout
FORMATS = {"f16": FloatFormat(np.float16, np.uint16, 10),
           "f32": FloatFormat(np.float32, np.uint32, 23),
           "f64": FloatFormat(np.float64, np.uint64, 52)}
