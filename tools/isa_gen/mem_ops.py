"""Rewrite ds.json, buffer.json, flat.json, mimg.json and vintrp.json from the earlier per-mnemonic
schema (``instructions``: per-processor sub-rows) into the ``ops`` schema that
isa/table.py loads, without a new llvm sweep: each generator's ``ops_fields``
turns the recorded sub-rows into typed rows, as its ``main`` does after a sweep.

Run from the repository root:  python tools/isa_gen/mem_ops.py
A table already in the ``ops`` schema gets its rows' memory properties
(mem_sweep.memory_properties) brought up to date.
"""

import json
import os

import buffer
import ds
import flat
import mem_sweep as sw
import mimg
import vintrp

GENERATORS = {"ds": ds, "buffer": buffer, "flat": flat, "mimg": mimg, "vintrp": vintrp}
#: Document keys the sub-rows carry with them (the rest is copied as it is).
_REPLACED = ("generated_by", "format", "sweep_targets", "instructions")


def convert(family):
    filename = f"{family}.json"
    with open(os.path.join(sw.DATA_DIR, filename)) as source:
        document = json.load(source)
    if "instructions" not in document:
        document["ops"] = sw.with_memory_properties(document["ops"])
        generated_by = document.pop("generated_by").split(" (")[0]
        sw.write_json(os.path.join(sw.DATA_DIR, filename), generated_by, document)
        return False
    extra = {key: value for key, value in document.items() if key not in _REPLACED}
    sw.write_ops_table(filename, f"tools/isa_gen/{family}.py", family, sw.tables_of(document),
                       GENERATORS[family].ops_fields, extra)
    return True


def main():
    for family in GENERATORS:
        print(f"{family}.json: {'converted' if convert(family) else 'memory properties updated'}")


if __name__ == "__main__":
    main()
