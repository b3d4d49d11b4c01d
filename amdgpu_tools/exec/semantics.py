"""Imports every module that registers semantics (the executor's and the
executor-memory helper's), so ``registry.SEMANTICS`` is complete."""

import importlib
import pkgutil
from pathlib import Path

from . import (sem_compare, sem_control, sem_lane, sem_packed, sem_scalar,  # noqa: F401
               sem_vector_float, sem_vector_int)

for _module in pkgutil.iter_modules([str(Path(__file__).parent)]):
    if _module.name.startswith("memory_ops") or _module.name == "memory":
        importlib.import_module(f"{__package__}.{_module.name}")
