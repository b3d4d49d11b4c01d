"""The decoded instruction object shared by the disassembler and the executor."""


class Instruction:
    """One decoded instruction.

    ``op`` is the mnemonic (the target's name, no _e64/_dpp suffix),
    ``encoding`` the encoding it was decoded from (``base_encoding`` the one it
    extends, e.g. VOP1 for a DPP form), ``opcode`` its opcode there, ``words``
    its dwords (``size`` bytes, the literal included; ``literal`` the literal
    dword or None), ``fields`` the unpacked fields by their manual names,
    ``info`` the family's description of the op, ``format`` the matched
    ``isa.fields.Format``. ``family`` is the plug-in module that decoded it;
    ``text()`` asks it to print, so every family owns its syntax.
    """

    __slots__ = ("op", "encoding", "base_encoding", "opcode", "size", "words", "literal",
                 "fields", "info", "target", "family", "format", "symbols", "_text")

    def __init__(self, op, encoding, base_encoding, opcode, words, fields, info, target,
                 family, format=None, literal=None):
        self.op = op
        self.encoding = encoding
        self.base_encoding = base_encoding
        self.opcode = opcode
        self.words = tuple(words)
        self.size = 4 * len(self.words)
        self.literal = literal
        self.fields = fields
        self.info = info
        self.target = target
        self.family = family
        self.format = format
        self.symbols = None  # {field: expression text} for fields a fixup will fill
        self._text = None

    def text(self):
        """The instruction as llvm-objdump-19 prints it."""
        if self._text is None:
            printer = getattr(self.family, "instruction_text", None)
            if printer is not None:
                self._text = printer(self)
            else:
                self._text = self.family.text(self.info, self.fields, self.target)
        return self._text

    @property
    def bytes(self):
        return b"".join(w.to_bytes(4, "little") for w in self.words)

    def __repr__(self):
        return f"<Instruction {self.text()!r} ({self.encoding}, {self.size} bytes)>"
