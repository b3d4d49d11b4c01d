"""Control-flow graphs as pictures (``amdgpu-objdump --cfg FILE -o DIR``).

Drawn by Graphviz (``dot``) through its Python package (``graphviz`` on PyPI;
the ``dot`` program is Debian's ``graphviz`` package). Each basic block is a
box listing its instructions (address and text), headed by its start
(``name+0xoffset``); edges are styled by kind: ``taken`` solid and labelled,
``fall-through`` solid grey, ``call`` dotted to the callee's address, back
edges (loops) bold red and labelled ``loop``; an ``unknown`` target is a
dashed edge to a dashed node that says so. A target outside the graph (a
tail jump, a fall-through past the function's end) is an ellipse with its
address.
"""

from __future__ import annotations

import os

from ..errors import ToolchainError
from .cfg import CALL, FALL_THROUGH, TAKEN, UNKNOWN, ControlFlowGraph

_EDGE_STYLE = {
    TAKEN: {"label": "taken", "color": "#1f4e9e", "fontcolor": "#1f4e9e"},
    FALL_THROUGH: {"color": "#707070"},
    CALL: {"label": "call", "style": "dotted"},
    UNKNOWN: {"label": "unknown", "style": "dashed", "color": "#9e6a1f",
              "fontcolor": "#9e6a1f"},
}
_BACK_STYLE = {"color": "#c0392b", "fontcolor": "#c0392b", "penwidth": "2.5"}

DOT_MISSING = ("--cfg needs Graphviz's 'dot' program, which is not installed "
               "(Debian/Ubuntu: apt-get install graphviz)")


def block_lines(graph: ControlFlowGraph, block) -> list[str]:
    """What a block's box shows: its name, then one line per instruction."""
    offset = block.start - graph.entry
    sign = "+" if offset >= 0 else "-"
    head = f"{graph.name}{sign}0x{abs(offset):x}" if offset else graph.name
    head += " (entry)" if block.start == graph.entry else ""
    head += "" if block.reachable else " (unreachable)"
    return [head] + [f"{address:x}: {inst.text()}" for address, inst in block.instructions]


def _label(lines: list[str]) -> str:
    """A Graphviz label with left-justified lines (``\\l``), the text escaped."""
    import graphviz
    return "".join(graphviz.escape(line) + "\\l" for line in lines)


def to_dot(graph: ControlFlowGraph):
    """The ``graphviz.Digraph`` of one graph."""
    try:
        import graphviz
    except ImportError:
        raise ToolchainError("--cfg needs the Python package 'graphviz' "
                             "(pip install graphviz)") from None
    dot = graphviz.Digraph(name=graph.name, format="svg")
    dot.attr(label=f"{graph.kind} {graph.name}", labelloc="t", fontname="monospace")
    dot.attr("node", shape="box", fontname="monospace", fontsize="10")
    dot.attr("edge", fontname="sans-serif", fontsize="9")
    for block in graph.blocks:
        attrs = {"style": "filled", "fillcolor": "#eef3ff"} if block.start == graph.entry else {}
        if not block.reachable:
            attrs = {"style": "dashed"}
        dot.node(f"b{block.start:x}", _label(block_lines(graph, block)), **attrs)
    outside: set[int] = set()
    for block in graph.blocks:
        for index, edge in enumerate(block.successors):
            style = dict(_EDGE_STYLE[edge.kind])
            if edge.back:
                style.update(_BACK_STYLE)
                style["label"] = f"{style['label']} (loop)" if "label" in style else "loop"
            if edge.target is None:
                node = f"unknown_{block.start:x}_{index}"
                dot.node(node, f"unknown target\\n({graph.name}: "
                               f"{graphviz.escape(block.terminator.text())})",
                         shape="box", style="dashed,rounded", color="#9e6a1f")
            elif graph.block_at(edge.target) is None:
                node = f"x{edge.target:x}"
                if edge.target not in outside:
                    outside.add(edge.target)
                    dot.node(node, f"0x{edge.target:x}\\n(outside {graphviz.escape(graph.name)})",
                             shape="ellipse", style="dotted")
            else:
                node = f"b{edge.target:x}"
            dot.edge(f"b{block.start:x}", node, **style)
    return dot


def render_svg(graph: ControlFlowGraph) -> bytes:
    """The SVG picture of one graph; ``ToolchainError`` when ``dot`` is missing."""
    dot = to_dot(graph)
    import graphviz
    try:
        return dot.pipe(format="svg")
    except graphviz.ExecutableNotFound:
        raise ToolchainError(DOT_MISSING) from None
    except graphviz.CalledProcessError as failure:
        stderr = (failure.stderr or b"").decode(errors="replace").strip().splitlines()
        raise ToolchainError(f"dot failed on {graph.name}: "
                             f"{stderr[-1] if stderr else failure}") from None


def file_name(name: str) -> str:
    """A kernel or function name as a file name (path separators replaced)."""
    safe = "".join("_" if ch in "/\\\0" or ord(ch) < 32 else ch for ch in name)
    return safe if safe not in ("", ".", "..") else f"_{safe}"


def write_svgs(graphs: list[ControlFlowGraph], directory: str, taken: set | None = None) -> list[str]:
    """Write ``DIR/<name>.svg`` per graph (created if need be); returns the paths.
    ``taken`` collects the names written so far in this run: a second graph of
    the same name (another file or bundle entry) gets ``<name>.2.svg``."""
    from ..cli.common import write_output
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as failure:
        raise ToolchainError(f"cannot create directory {directory}: {failure.strerror}") from None
    taken = set() if taken is None else taken
    paths = []
    for graph in graphs:
        stem = file_name(graph.name)
        candidate, n = stem, 1
        while candidate in taken:
            n += 1
            candidate = f"{stem}.{n}"
        taken.add(candidate)
        path = os.path.join(directory, candidate + ".svg")
        write_output(path, render_svg(graph))
        paths.append(path)
    return paths
