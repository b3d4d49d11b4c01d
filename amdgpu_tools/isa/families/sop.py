"""Scalar ALU families: SOP1, SOP2, SOPK, SOPC, SOPP (every generation)."""

from .formats_core import SCALAR_FORMATS
from .table_family import TableFamily

FAMILY = TableFamily("sop", SCALAR_FORMATS, (), "sop.json")
FORMATS = FAMILY.FORMATS
