"""Compiled hot blocks: basic blocks of ALU code run as native code (Numba).

``codegen`` turns a block of pre-decoded instructions into the source of one
function that calls each instruction's registered semantic function (the
one description of what it does) between register reads and EXEC-masked
writes; ``jitcopy`` compiles those semantic functions as they are written;
``kernels`` holds the register plumbing; ``tier`` decides what gets
compiled when, keeps compiled blocks in a cache across runs, and checks
them against the interpreter. The interpreter stays the reference and runs
everything a block cannot hold.
"""
