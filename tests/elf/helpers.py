"""Paths and loaders of the golden data recorded by data/regenerate.py."""

import json
import os

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
SRC = os.path.join(DATA, "src")

#: every recorded code object (ET_REL objects and ld.lld-19 links)
OBJECTS = sorted(name for name in os.listdir(DATA) if name.endswith((".o", ".hsaco")))


def data_path(name):
    return os.path.join(DATA, name)


def read_bytes(name):
    with open(data_path(name), "rb") as handle:
        return handle.read()


def readelf_json(name):
    """llvm-readelf-19 --elf-output-style=JSON of a recorded object."""
    with open(data_path(name + ".readelf.json")) as handle:
        return json.load(handle)[0]


def source_block(name, start, end):
    """The text between two directive lines of a source under data/src."""
    with open(os.path.join(SRC, name)) as handle:
        text = handle.read()
    return text.split(start + "\n", 1)[1].split(end, 1)[0]
