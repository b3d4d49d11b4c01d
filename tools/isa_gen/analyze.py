"""Turn swept llvm-mc texts into table rows: which field prints where, how wide.

The sweep used distinct register numbers per field, so each printed operand is
traced back to its field by number; the operand's kind follows from the field
and the register file it printed in.  Tokens that match no field are fixed
text of the syntax (``vcc`` in ``v_addc_co_u32_e32 v1, vcc, v2, v3, vcc``).
"""

import re

_REG_RE = re.compile(r"^(v|s|ttmp)(?:(\d+)|\[(\d+):(\d+)\])$")
_SUFFIXES = ("_e32", "_e64", "_dpp", "_sdwa")


def canonical_name(mnemonic):
    for suffix in _SUFFIXES:
        if mnemonic.endswith(suffix):
            return mnemonic[: -len(suffix)]
    return mnemonic


def split_operands(text):
    """``(mnemonic, [operand tokens], [modifier tokens])`` of one printed instruction."""
    mnemonic, _, rest = text.partition(" ")
    pieces, depth, cur = [], 0, ""
    for ch in rest:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            pieces.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        pieces.append(cur.strip())
    modifiers = []
    if pieces and "cnt(" not in pieces[-1]:
        last, depth, words, cur = pieces[-1], 0, [], ""
        for ch in last:
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            if ch == " " and depth == 0:
                words.append(cur)
                cur = ""
            else:
                cur += ch
        words.append(cur)
        pieces[-1] = words[0]
        modifiers = [w for w in words[1:] if w]
    return mnemonic, [p for p in pieces if p], modifiers


def parse_register(token):
    """``(file, first, count)`` of a register token (modifiers stripped), else None."""
    bare = token.strip("-|")
    for wrapper in ("sext(", "abs(", "neg("):
        if bare.startswith(wrapper):
            bare = bare[len(wrapper):-1]
    m = _REG_RE.match(bare)
    if not m:
        return None
    file, single, lo, hi = m.groups()
    if single is not None:
        return file, int(single), 1
    return file, int(lo), int(hi) - int(lo) + 1


#: where each field's value shows up in the printed text (printed register index)
def printed_index(field, value):
    if field in ("src0", "src1", "src2") and value >= 256:
        return ("v", value - 256)
    if field == "sbase":
        return ("s", value * 2)
    return (None, value)


def trace_fields(tokens, shape, extra_fields=()):
    """Map each token to (field or None, register info)."""
    candidates = [(f, printed_index(f, v)) for f, v in shape.items()
                  if f in ("vdst", "src0", "src1", "src2", "vsrc1", "sdst", "ssrc0", "ssrc1",
                           "sdata", "sbase")]
    candidates += list(extra_fields)
    traced = []
    used = set()
    for token in tokens:
        reg = parse_register(token)
        best = None
        if reg:
            file, first, count = reg
            for field, (want_file, index) in candidates:
                if field in used or (want_file and want_file != file):
                    continue
                if first <= index < first + count:
                    gap = index - first
                    if best is None or gap < best[0]:
                        best = (gap, field)
        field = best[1] if best else None
        if field:
            used.add(field)
        traced.append((token, field, reg))
    return traced
