"""Memoised encoding: what depends only on the mnemonic, the target and the operands.

The assembler encodes the same few hundred mnemonics over and over, and many
lines repeat exactly (``s_waitcnt vmcnt(0)``, ``v_mov_b32 v1, 0``).  Two
facts make that cheap without a second encoder:

* which family claims a mnemonic depends only on ``(mnemonic, target)``:
  ``encoder.encode_instruction`` asks every family in turn until one does, so
  remembering the claimant skips the families that would answer None;
* the encoding of constant operands (no ``SymbolRef``, hence no fixups) is a
  pure function of ``(mnemonic, target, operands)``, so a result can be
  reused for an identical operand list.

Operand objects compare by value, which is almost but not quite identity of
meaning: ``0.0 == -0.0`` and ``True == 1``.  ``_operand_key`` therefore adds
the value's type and float spelling so that two operand lists share a result
only when the encoder could not tell them apart.
"""

from . import encoder
from .asm_operands import Func, Imm, Modifier, SymbolRef
from .targets import get_target

#: Bound on memoised results, so a huge generated file cannot grow memory without limit.
MAX_MEMO_ENTRIES = 1 << 18

_MEMO = {}
_CLAIMANTS = {}
_UNKNOWN = object()


def encode_instruction(mnemonic, operands, target):
    """``encoder.encode_instruction`` with memoised dispatch and results (same answers)."""
    target = get_target(target)
    mnemonic = mnemonic.lower()
    key = _memo_key(mnemonic, operands, target)
    if key is not None:
        found = _MEMO.get(key)
        if found is not None:
            return found
    claimant = _claimant(mnemonic, target)
    if claimant is _UNKNOWN:
        encoded = encoder.encode_instruction(mnemonic, operands, target)
    else:
        encoded = _encode_with(claimant, mnemonic, list(operands), target)
    if key is not None and not encoded.fixups and len(_MEMO) < MAX_MEMO_ENTRIES:
        _MEMO[key] = encoded
    return encoded


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
    from .families import families
    from .families.encoding_forms import EncodingMixin
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


def _memo_key(mnemonic, operands, target):
    """A key equal only for operand lists the encoder cannot tell apart; None: do not memoise."""
    parts = [mnemonic, target.name]
    for operand in operands:
        kind = type(operand)
        if kind is Imm:
            value = operand.value
            parts.append((operand, type(value), repr(value) if type(value) is float else None))
        elif kind is Modifier:
            value = operand.value
            parts.append((operand, type(value), _value_key(value)))
        elif kind is Func:
            parts.append((operand, _value_key(operand.args)))
        elif kind is SymbolRef:
            return None
        else:
            parts.append(operand)
    key = tuple(parts)
    try:
        hash(key)
    except TypeError:
        return None
    return key


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
    _MEMO.clear()
    _CLAIMANTS.clear()
