"""Bounds that keep a hostile or mistyped source from running forever or filling memory."""

MAX_SECTION_BYTES = 1 << 28
MAX_ALIGNMENT = 1 << 16
MAX_REMEMBERED_STATEMENTS = 1 << 16
