"""Memoised encoding: what depends only on the mnemonic, the target and operand shapes.

The assembler encodes the same few hundred mnemonics over and over with
different registers.  Three facts make that cheap without a second encoder:

* which family claims a mnemonic depends only on ``(mnemonic, target)``:
  ``encoder.encode_instruction`` asks every family in turn until one does, so
  remembering the claimant skips the families that would answer None;
* the encoding of operands without a ``SymbolRef`` (hence without fixups) is
  a pure function of ``(mnemonic, target, operands)``;
* a VGPR or SGPR index only ever lands in bit fields.  For one *shape* (the
  operands with the v/s register indices left out, but which of them are the
  same register kept, since the constant bus counts distinct SGPRs), the
  first instruction is encoded normally; when the shape comes back, a
  ``Plan`` is learnt by asking the real encoder, for every index bit of every
  register, which instruction bits flipping it flips (and checking a
  combination of flips predicts right).  Later instructions of the shape are
  the anchor's bits with those masks applied.  An index bit that could not
  be probed (misaligned, out of range, colliding with another register) must
  equal the anchor's; anything else goes the long way, so errors are worded
  by the encoder itself;
* a plain 32-bit literal (an integer that is no inline constant) of a
  mnemonic whose forms have 32-bit operands only is appended verbatim after
  the instruction words: its value is kept out of the shape key, and once the
  encoder has shown, for a second value, that only the last dword changes,
  a plan writes any such value there.  Inline candidates, 16-/64-bit operand
  types and instructions with several literals keep their values in the key;
* shapes that differ only in an integer immediate or modifier (an offset)
  share field layouts: a new one first tries its sibling's register masks,
  kept only if the combined-flip check agrees with the encoder (a handful of
  encodings instead of about twenty probes).

Operand objects compare by value, which is almost but not quite identity of
meaning: ``0.0 == -0.0`` and ``True == 1``.  ``_shape`` therefore adds the
value's type and float spelling so that two operand lists share a result only
when the encoder could not tell them apart.  Canonical text is never built
here: ``PlannedEncoded.text`` asks the real encoder when a listing wants it.
"""

from . import encoder
from .asm_operands import Encoded, Func, Imm, Modifier, Reg, SpecialReg, SymbolRef
from .families import families
from .families.encoding_forms import EncodingMixin
from .operands import encode_register
from .targets import get_target

#: Bound on remembered shapes, so a huge generated file cannot grow memory without limit.
MAX_SHAPES = 1 << 17
#: A plan costs about twenty encodings to learn: only shapes that keep coming back get one.
LEARN_AFTER_RETURNS = 2
#: Index bits probed per register (VGPR indices are 8 bits; SGPR indices fit in 7).
INDEX_BITS = 8
_ABSTRACT_FILES = ("v", "s")

_SHAPES = {}  # shape key -> _Anchor (seen once) or Plan (learnt) or None (not plannable)
_CLAIMANTS = {}
_UNKNOWN = object()


class PlannedEncoded(Encoded):
    """Bytes from a plan; the canonical text is made by the encoder only if asked."""

    def __init__(self, data, mnemonic, operands, target):  # pylint: disable=super-init-not-called
        self.data = data
        self.fixups = []
        self._request = (mnemonic, operands, target)
        self._text = None

    @property
    def text(self):
        if self._text is None:
            self._text = encoder.encode_instruction(*self._request).text
        return self._text


class _Anchor:
    """The first instruction of a shape: its operands, register indices and bytes."""

    __slots__ = ("operands", "indices", "encoded", "literal", "returns")

    def __init__(self, operands, indices, encoded, literal=None):
        self.operands = operands
        self.indices = indices
        self.encoded = encoded
        self.literal = literal  # the value of the shape's plain literal, if it has one
        self.returns = 0  # later instructions of the shape with other registers


class Plan:
    """Anchor bits and, per register class and index bit, the instruction bits it flips.

    ``fixed_bits[c]``: index bits of class ``c`` that must equal the anchor's;
    ``limits[c]``: the largest index of class ``c`` its register file has room for.
    ``literal``: the anchor's plain literal value (None: the shape has none);
    ``literal_free``: whether the encoder was shown to append any other such value
    verbatim as the last dword (else only the anchor's value is vouched for).
    """

    __slots__ = ("value", "size", "indices", "masks", "fixed_bits", "limits", "flips",
                 "literal", "literal_free")

    def __init__(self, value, size, indices, masks, fixed_bits, limits, literal=None):
        self.value = value
        self.size = size
        self.indices = indices
        self.masks = masks
        self.fixed_bits = fixed_bits
        self.limits = limits
        self.flips = [{} for _ in indices]  # per class: index delta -> instruction bits
        self.literal = literal
        self.literal_free = False

    def apply(self, indices, literal=None):
        """The bytes for these class indices (and literal value), or None when the plan
        cannot vouch for them."""
        if literal != self.literal:
            if not self.literal_free:
                return None
            data = self.apply(indices, self.literal)
            return None if data is None else data[:-4] + (literal & 0xFFFFFFFF).to_bytes(
                4, "little")
        value = self.value
        number = 0
        for index in indices:
            delta = index ^ self.indices[number]
            if delta:
                if delta & self.fixed_bits[number] or index > self.limits[number]:
                    return None
                flips = self.flips[number]
                flip = flips.get(delta)
                if flip is None:
                    flip = flips[delta] = _combined(self.masks[number], delta)
                value ^= flip
            number += 1
        return value.to_bytes(self.size, "little")


def _combined(masks, delta):
    """The instruction bits flipped by changing the index bits set in ``delta``."""
    flip = 0
    for bit, mask in enumerate(masks):
        if delta >> bit & 1:
            flip ^= mask
    return flip


_LIMITS = {}


def _index_limit(file, count, generation):
    """The largest index ``encode_register`` accepts for a range of ``count`` registers."""
    key = (file, count, generation)
    if key not in _LIMITS:
        valid = [index for index in range(1 << INDEX_BITS)
                 if encode_register(file, index, count, generation) is not None]
        # a file whose valid indices had a gap would get no plan (-1: any move is refused)
        _LIMITS[key] = len(valid) - 1 if valid == list(range(len(valid))) else -1
    return _LIMITS[key]


def encode_instruction(mnemonic, operands, target):
    """``encoder.encode_instruction`` with memoised dispatch and shapes (same answers)."""
    target = get_target(target)
    mnemonic = mnemonic.lower()
    shape = _shape(mnemonic, operands, target)
    if shape is None:
        return _encode(mnemonic, operands, target)
    key, indices, files, counts, literal = shape
    try:
        known = _SHAPES.get(key)
    except TypeError:  # an unhashable operand value: no memo
        return _encode(mnemonic, operands, target)
    if type(known) is Plan:
        data = known.apply(indices, literal)
        if data is not None:
            return PlannedEncoded(data, mnemonic, operands, target)
    elif type(known) is _Anchor:
        if known.indices == indices and known.literal == literal:
            return known.encoded
        known.returns += 1
        if known.returns >= LEARN_AFTER_RETURNS or _sibling_key(key) in _SIBLING_MASKS:
            plan = _SHAPES[key] = _learn(mnemonic, known, files, counts, target, key)
            if plan is not None:
                data = plan.apply(indices, literal)
                if data is not None:
                    return PlannedEncoded(data, mnemonic, operands, target)
    encoded = _encode(mnemonic, operands, target)
    if known is None and key not in _SHAPES and not encoded.fixups \
            and len(_SHAPES) < MAX_SHAPES:
        _SHAPES[key] = _Anchor(list(operands), indices, encoded, literal)
    return encoded


def _encode(mnemonic, operands, target):
    claimant = _claimant(mnemonic, target)
    if claimant is _UNKNOWN:
        return encoder.encode_instruction(mnemonic, operands, target)
    return _encode_with(claimant, mnemonic, list(operands), target)


#: Other bits toggled to find a base index from which flipping a bit collides with no
#: other register of the instruction (v1, v3: bit 1 of v1 is probed as v17 -> v19).
_BASE_TOGGLES = (0, 0x10, 0x20, 0x40, 0x08)


#: Register masks learnt for a shape, by its key with integer immediates and integer
#: modifier values left out: shapes differing only in an offset share field layouts.
_SIBLING_MASKS = {}


def _sibling_key(key):
    return tuple(_valueless(part) for part in key)


def _valueless(part):
    if type(part) is tuple and part:
        if part[0] == "i" and part[2] is int:
            return ("i",) + part[3:]
        if part[0] == "m" and part[3] is int:
            return ("m", part[1])
    return part


def _learn(mnemonic, anchor, files, counts, target, key=None):
    """The Plan of the anchor's shape, or None when the probes do not agree with one.

    A sibling shape's masks (same shape but for integer immediates) are tried
    first, and kept only if the combined-flip check agrees with the encoder.
    """
    size = len(anchor.encoded.data)
    value = int.from_bytes(anchor.encoded.data, "little")
    limits = [_index_limit(files[n], counts[n], target.generation) for n in range(len(files))]
    sibling = None if key is None else _sibling_key(key)
    if sibling in _SIBLING_MASKS:
        masks, fixed = _SIBLING_MASKS[sibling]
        plan = _finished(Plan(value, size, anchor.indices, masks, fixed, limits, anchor.literal),
                         mnemonic, anchor, files, counts, target)
        if plan is not None:
            return plan
    masks, fixed = _probed_masks(mnemonic, anchor, files, counts, target, size, value)
    plan = _finished(Plan(value, size, anchor.indices, masks, fixed, limits, anchor.literal),
                     mnemonic, anchor, files, counts, target)
    if plan is not None and sibling is not None:
        _SIBLING_MASKS[sibling] = (masks, fixed)
    return plan


def _finished(plan, mnemonic, anchor, files, counts, target):
    """The plan if the encoder agrees with its combined flips (and its literal rule)."""
    if not _verified(plan, mnemonic, anchor, files, counts, target):
        return None
    if anchor.literal is not None:
        plan.literal_free = _literal_is_verbatim(mnemonic, anchor, target)
    return plan


def _probed_masks(mnemonic, anchor, files, counts, target, size, value):
    """Per class and index bit, the instruction bits it flips, and the bits that must stay.

    Bits land in fields, so the instruction bits a flip of index bit ``b``
    changes do not depend on the other index bits: they are measured from
    whichever base index lets both encodings through.
    """
    masks, fixed = [], []
    for number, anchor_index in enumerate(anchor.indices):
        seen = {anchor_index: value}

        def encoded_at(index, number=number):
            if index not in seen:
                seen[index] = _probe(mnemonic, anchor, {number: index}, files, counts, target,
                                     size)
            return seen[index]

        class_masks, class_fixed = [], 0
        for bit in range(INDEX_BITS):
            mask = None
            for toggle in _BASE_TOGGLES:
                if toggle >> bit & 1:
                    continue
                low, high = encoded_at(anchor_index ^ toggle), None
                if low is not None:
                    high = encoded_at(anchor_index ^ toggle ^ (1 << bit))
                if high is not None:
                    mask = low ^ high
                    break
            if mask is None:
                class_fixed |= 1 << bit
            class_masks.append(mask or 0)
        masks.append(class_masks)
        fixed.append(class_fixed | ~((1 << INDEX_BITS) - 1))
    return masks, fixed


#: Operand value types whose literals are one plain dword (16- and 64-bit ones are not).
_WORD_TYPES = (None, "b32", "f32", "i32", "u32")


_LITERAL_SHAPES = {}  # (mnemonic, target name) -> whether literal values leave the key


def _literal_shapes_allowed(mnemonic, target):
    """Whether every form of ``mnemonic`` has 32-bit operands only (a 16-bit or 64-bit
    operand treats literals by its own rules), so a shape may stand for any plain
    literal; it is withdrawn when an anchor shows the literal is not appended verbatim."""
    key = (mnemonic, target.name)
    allowed = _LITERAL_SHAPES.get(key)
    if allowed is None:
        allowed = _LITERAL_SHAPES[key] = _word_operands_only(mnemonic, target)
    return allowed


def _word_operands_only(mnemonic, target):
    family = _claimant(mnemonic, target)
    candidates = getattr(family, "candidates", None)
    if candidates is None or _claims(family, mnemonic, target, EncodingMixin) is _UNKNOWN:
        return False
    rows = candidates(mnemonic, target)
    return bool(rows) and not any(
        spec.get("type") not in _WORD_TYPES or spec.get("width", 1) not in (1, None)
        for row in rows for spec in row.operands)


def _literal_is_verbatim(mnemonic, anchor, target):
    """Whether other plain literal values only change the anchor's last dword: the
    anchor and one other value must both come out as the same words followed by the
    value.  If not, the mnemonic's literals go back into shape keys (one shape each)."""
    verbatim = _shows_verbatim_literal(mnemonic, anchor, target)
    if not verbatim:
        _LITERAL_SHAPES[(mnemonic, target.name)] = False
    return verbatim


def _shows_verbatim_literal(mnemonic, anchor, target):
    data = anchor.encoded.data
    if len(data) < 8 or data[-4:] != (anchor.literal & 0xFFFFFFFF).to_bytes(4, "little"):
        return False
    other = 0x12345 if anchor.literal != 0x12345 else 0x54321
    operands = [Imm(other) if type(o) is Imm and o.value == anchor.literal
                and _literal_candidate(o) else o for o in anchor.operands]
    try:
        encoded = _encode(mnemonic, operands, target)
    except Exception:  # pylint: disable=broad-except  (a refusal: literals keep their shapes)
        return False
    return not encoded.fixups and bytes(encoded.data) == bytes(data[:-4]) + other.to_bytes(
        4, "little")


def _verified(plan, mnemonic, anchor, files, counts, target):
    """Flip several probed bits of every class at once: the plan must predict the encoder."""
    checked = 0
    for pattern in (0xFF, 0x55, 0xAA, 0x33, 0xCC):
        changes = {number: index ^ (pattern & ~plan.fixed_bits[number])
                   for number, index in enumerate(anchor.indices)}
        predicted = plan.apply([changes[n] for n in range(len(anchor.indices))], plan.literal)
        actual = _probe(mnemonic, anchor, changes, files, counts, target, plan.size)
        if actual is None:
            continue
        if predicted is None or int.from_bytes(predicted, "little") != actual:
            return False
        checked += 1
    return checked > 0 or not any(~f & ((1 << INDEX_BITS) - 1) for f in plan.fixed_bits)


def _probe(mnemonic, anchor, changes, files, counts, target, size):
    """The anchor encoded with some class indices changed, as an int; None if not comparable."""
    new_index = list(anchor.indices)
    for number, index in changes.items():
        new_index[number] = index
    if _overlapping(new_index, files, counts):
        return None  # two classes would overlap: the register relations would change
    if any(encode_register(files[n], new_index[n], counts[n], target.generation) is None
           for n in changes):
        return None
    old_to_new = {(files[n], anchor.indices[n], counts[n]): new_index[n]
                  for n in range(len(files))}
    operands = []
    for operand in anchor.operands:
        if type(operand) is Reg and operand.file in _ABSTRACT_FILES:
            index = old_to_new[(operand.file, operand.index, operand.count)]
            operand = Reg(operand.file, index, operand.count, operand.neg, operand.abs,
                          operand.sext)
        operands.append(operand)
    try:
        encoded = _encode(mnemonic, operands, target)
    except Exception:  # pylint: disable=broad-except  (any refusal: the bit stays fixed)
        return None
    if encoded.fixups or len(encoded.data) != size:
        return None
    return int.from_bytes(encoded.data, "little")


def _encode_with(family, mnemonic, operands, target):
    """One family's answer, exactly as ``encoder.encode_instruction`` would get it."""
    if family is None:  # no family claims it: let the encoder word the error
        return encoder.encode_instruction(mnemonic, operands, target)
    hook = getattr(family, "encode_instruction", None)
    if hook is not None:
        encoded = hook(mnemonic, operands, target)
    else:
        encoded = encoder._encode_with_module(family, mnemonic, operands, target)  # pylint: disable=protected-access
    if encoded is None:  # the claim test was wrong for this family: take the long way
        return encoder.encode_instruction(mnemonic, operands, target)
    return encoded


def _claimant(mnemonic, target):
    """The first family that answers for ``mnemonic`` (None: none does), or _UNKNOWN."""
    key = (mnemonic, target.name)
    found = _CLAIMANTS.get(key)
    if found is None and key not in _CLAIMANTS:
        found = _CLAIMANTS[key] = _find_claimant(mnemonic, target)
    return found


def _find_claimant(mnemonic, target):
    for family in families():
        claims = _claims(family, mnemonic, target, EncodingMixin)
        if claims is _UNKNOWN:
            return _UNKNOWN
        if claims:
            return family
    return None


def _claims(family, mnemonic, target, mixin):
    """Whether ``family`` answers (not None) for ``mnemonic``, decided without encoding."""
    hook = getattr(family, "encode_instruction", None)
    if isinstance(family, mixin):
        if type(family).encode_instruction is not mixin.encode_instruction:
            return _UNKNOWN
        return bool(family.candidates(mnemonic, target))
    lookup = getattr(family, "lookup", None)
    if lookup is None:
        return False if hook is None else _UNKNOWN
    # module families: the hook (vintrp) and the core both answer None exactly
    # when lookup finds nothing
    return lookup(mnemonic, target) is not None


def _shape(mnemonic, operands, target):
    """``(key, class indices, class files, class counts, literal)``; None: do not memoise.

    The key holds every operand except v/s register indices, which become the
    number of their class (registers written identically share one class),
    and the value of one plain 32-bit literal (see ``_literal_candidate``);
    operands become tuples of plain values (tagged by kind), cheap to hash.
    Registers of one file that overlap without being equal are not planned.
    """
    parts = [mnemonic, target.name]
    literal_at = literal = None
    several_literals = False
    classes = {}
    indices, files, counts = [], [], []
    ranges = False
    described = _DESCRIBED
    for operand in operands:
        entry = described.get(id(operand))
        if entry is None or entry[0] is not operand:
            entry = _describe(operand)
        code = entry[1]
        if code is _PART:
            parts.append(entry[2])
        elif code is _REGISTER:
            ident = entry[3]
            number = classes.get(ident)
            if number is None:
                number = classes[ident] = len(indices)
                indices.append(ident[1])
                files.append(ident[0])
                counts.append(ident[2])
                ranges = ranges or ident[2] != 1
            parts.append((entry[2], number))
        elif code is _LITERAL:
            if not several_literals and _literal_shapes_allowed(mnemonic, target):
                if literal_at is None:
                    literal_at, literal = len(parts), entry[3]
                    parts.append(_LITERAL_PART)
                    continue
                several_literals = True  # the one-literal rule: values must stay in the key
            parts.append(entry[2])
        else:
            return None  # a SymbolRef: fixups
    if ranges and _overlapping(indices, files, counts):
        return None  # single registers overlap only when equal, which is one class
    if several_literals and literal_at is not None:
        parts[literal_at] = _imm_part(Imm(literal))
        literal = None
    return tuple(parts), indices, files, counts, literal


_PART, _REGISTER, _LITERAL, _SYMBOL = "part", "register", "literal", "symbol"
#: id(operand) -> (operand, code, key part, register ident or literal value); the
#: assembler hands back one operand object per spelling, so most are seen again.
_DESCRIBED = {}


def _describe(operand):
    """What ``_shape`` needs of one operand (remembered by identity; keeps it alive)."""
    kind = type(operand)
    if kind is Reg and operand.file in _ABSTRACT_FILES:
        entry = (operand, _REGISTER, (operand.file, operand.count, operand.neg, operand.abs,
                                      operand.sext),
                 (operand.file, operand.index, operand.count))
    elif kind is Reg:
        entry = (operand, _PART, ("r", operand.file, operand.index, operand.count, operand.neg,
                                  operand.abs, operand.sext), None)
    elif kind is Modifier:
        value = operand.value
        value_type = type(value)
        if value_type is bool or value_type is int or value_type is str:
            entry = (operand, _PART, ("m", operand.name, value, value_type), None)
        else:
            entry = (operand, _PART, ("m", operand.name, value, value_type, _value_key(value)),
                     None)
    elif kind is Imm:
        if type(operand.value) is int and _literal_candidate(operand):
            entry = (operand, _LITERAL, _imm_part(operand), operand.value)
        else:
            entry = (operand, _PART, _imm_part(operand), None)
    elif kind is SpecialReg:
        entry = (operand, _PART, ("sr", operand.name, operand.neg, operand.abs, operand.sext),
                 None)
    elif kind is Func:
        entry = (operand, _PART, ("f", operand.name, operand.args, _value_key(operand.args),
                                  operand.neg, operand.abs, operand.sext), None)
    elif kind is SymbolRef:
        entry = (operand, _SYMBOL, None, None)
    else:
        entry = (operand, _PART, operand, None)
    if len(_DESCRIBED) < MAX_SHAPES:
        _DESCRIBED[id(operand)] = entry
    return entry


#: Stands for the one plain 32-bit literal of a shape (its value is kept apart).
_LITERAL_PART = ("lit",)


def _imm_part(operand):
    value = operand.value
    return ("i", value, type(value), repr(value) if type(value) is float else None,
            operand.neg, operand.abs, operand.sext)


def _float_patterns():
    """Bit patterns of the inline float constants (0.5, 1, 2, 4, their negations and
    1/(2*pi)) as f32, f64 high words and f16 (zero- and sign-extended)."""
    f32 = {0x3F000000, 0x3F800000, 0x40000000, 0x40800000, 0x3E22F983}
    f64_high = {0x3FE00000, 0x3FF00000, 0x40000000, 0x40100000, 0x3FC45F30}
    f16 = {0x3800, 0x3C00, 0x4000, 0x4400, 0x3118}
    patterns = set()
    for group, sign in ((f32, 1 << 31), (f64_high, 1 << 31), (f16, 1 << 15)):
        for bits in group:
            patterns |= {bits, bits | sign}
            if sign == 1 << 15:
                patterns.add((bits | sign) | 0xFFFF0000)
    return frozenset(patterns)


_INLINE_FLOAT_PATTERNS = _float_patterns()


def _literal_candidate(operand):
    """Whether an integer ``Imm`` can only be a 32-bit literal whatever the operand type
    (not an inline integer or float constant, fits 32 bits, no source modifiers).
    Whether the instruction's operands are all 32-bit is checked when a plan is learnt."""
    value = operand.value
    if operand.is_float or operand.neg or operand.abs or operand.sext \
            or not -(1 << 31) <= value < (1 << 32):
        return False
    word = value & 0xFFFFFFFF
    signed = word - (1 << 32) if word >> 31 else word  # 0xFFFFFFFF is the inline -1
    return (signed < -16 or signed > 64) and word not in _INLINE_FLOAT_PATTERNS


def _overlapping(indices, files, counts):
    """Whether two classes of one file share a register (pairwise: there are a handful)."""
    number = len(indices)
    for first in range(number):
        low, high = indices[first], indices[first] + counts[first]
        for second in range(first + 1, number):
            if files[first] == files[second] and indices[second] < high \
                    and low < indices[second] + counts[second]:
                return True
    return False


def _value_key(value):
    if type(value) is float:
        return repr(value)
    if type(value) is tuple:
        return tuple((type(v), _value_key(v)) for v in value)
    if type(value) is Func:
        return _value_key(value.args)
    return None


def clear():
    """Forget memoised results (tests that change tables at run time)."""
    _SHAPES.clear()
    _DESCRIBED.clear()
    _LITERAL_SHAPES.clear()
    _SIBLING_MASKS.clear()
    _CLAIMANTS.clear()
