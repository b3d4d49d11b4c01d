"""Encoding from parsed operands: pick the family and form, produce bytes and fixups.

``encode_instruction(mnemonic, operands, target)`` asks every registered
family (``isa.families``) in turn: table families (scalar, VALU) implement
``encode_instruction`` themselves and choose among the forms of a mnemonic
(e32 before e64 as llvm-mc does); other families are driven through their
``lookup``/``encode``/``text`` functions and their ``FORMATS``.
"""

from ..errors import InstructionError, ToolchainError  # noqa: F401  (InstructionError re-exported)
from .asm_operands import Encoded
from .families import families
from .fields import int_to_words
from .targets import ALL_TARGETS, get_target


def encode_instruction(mnemonic, operands, target):
    """Encode one instruction; raises ``InstructionError`` with a readable message."""
    target = get_target(target)
    mnemonic = mnemonic.lower()
    operands = list(operands)
    for family in families():
        hook = getattr(family, "encode_instruction", None)
        if hook is not None:
            encoded = hook(mnemonic, operands, target)
        else:
            encoded = _encode_with_module(family, mnemonic, operands, target)
        if encoded is not None:
            return encoded
    if _known_elsewhere(mnemonic, target):
        raise InstructionError(f"instruction not supported on this GPU ({target.name}): {mnemonic}")
    raise InstructionError(f"invalid instruction: {mnemonic}")


def _encode_with_module(module, mnemonic, operands, target):
    lookup = getattr(module, "lookup", None)
    if lookup is None:
        return None
    info = lookup(mnemonic, target)
    if info is None:
        return None
    try:
        fields = module.encode(info, operands, target)
    except ToolchainError:
        raise
    except Exception as error:  # a family's OperandError(message, operand_index)
        if hasattr(error, "operand_index") or error.__class__.__name__ == "OperandError":
            raise InstructionError(str(error), getattr(error, "operand_index", None)) from None
        raise
    fmt = _format_for(module, info, target)
    value = fmt.pack({k: v for k, v in fields.items() if k in fmt.fields})
    data = b"".join(w.to_bytes(4, "little") for w in int_to_words(value, fmt.words))
    echo = getattr(module, "encoded_text", None)  # text as written where llvm-mc echoes it
    text = echo(info, fields, target) if echo else module.text(info, fmt.unpack(value), target)
    return Encoded(data=data, text=text, fixups=[])


def _format_for(module, info, target):
    wanted = getattr(info, "format", None) or info.encoding
    for fmt in module.FORMATS:
        if target.generation in fmt.generations and wanted in (fmt.name, fmt.encoding):
            return fmt
    raise InstructionError(f"{info.name}: no {wanted} format on {target.name}")


def _known_elsewhere(mnemonic, target):
    for other in ALL_TARGETS:
        if other is target:
            continue
        for family in families():
            lookup = getattr(family, "lookup", None)
            try:
                if lookup is not None and lookup(mnemonic, other) is not None:
                    return True
            except Exception:
                continue
    return False
