import struct

import pytest

from amdgpu_tools.errors import LoadError
from amdgpu_tools.runtime.printf import (decode_printf_buffer, format_printf,
                                         parse_printf_formats)


def test_parse_formats_keeps_colons_in_the_format():
    formats = parse_printf_formats(["1:2:4:8:a=%d: b=%f\\n", "2:0:plain\\t\\x41\\101"])
    assert formats[1].arg_sizes == (4, 8)
    assert formats[1].format == "a=%d: b=%f\n"
    assert formats[2].arg_sizes == () and formats[2].format == "plain\tAA"


@pytest.mark.parametrize("entry", ["x:1:4:%d", "1:2:4:%d", "1"])
def test_malformed_printf_metadata(entry):
    with pytest.raises(LoadError, match="malformed printf"):
        parse_printf_formats([entry])


@pytest.mark.parametrize("fmt,args,expected", [
    ("%d", [struct.pack("<i", -5)], "-5"),
    ("%u", [struct.pack("<i", -1)], "4294967295"),
    ("%5.2f|", [struct.pack("<f", 3.14159)], " 3.14|"),
    ("%e", [struct.pack("<d", 12345.678)], "1.234568e+04"),
    ("%x %X %o", [struct.pack("<I", 255)] * 3, "ff FF 377"),
    ("%ld", [struct.pack("<q", -(1 << 40))], str(-(1 << 40))),
    ("%c%c", [struct.pack("<i", 72), struct.pack("<i", 105)], "Hi"),
    ("%s!", [b"name\0\0\0\0"], "name!"),
    ("%-4d|", [struct.pack("<i", 7)], "7   |"),
    ("100%%", [], "100%"),
    ("%p", [struct.pack("<Q", 0x1000)], "0x1000"),
    ("%g", [struct.pack("<f", 0.5)], "0.5"),
])
def test_format_printf(fmt, args, expected):
    assert format_printf(fmt, args) == expected


def test_decode_buffer_in_record_order():
    formats = parse_printf_formats(["1:1:4:x=%d\\n", "2:1:4:y=%f\\n"])
    records = (struct.pack("<Ii", 1, 3) + struct.pack("<If", 2, 0.25) + struct.pack("<Ii", 1, 4))
    raw = struct.pack("<II", len(records), 4096) + records + b"\0" * 64
    assert decode_printf_buffer(raw, formats) == "x=3\ny=0.250000\nx=4\n"


def test_decode_stops_at_an_unknown_id():
    raw = struct.pack("<II", 8, 4096) + struct.pack("<Ii", 9, 3)
    assert "unknown id 9" in decode_printf_buffer(raw, {})
