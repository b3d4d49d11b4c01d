"""A run's profile as one self-contained HTML page (``amdgpu-run --profile-html``).

``profile_page(launches)`` gives the page and ``write_profile_html(path,
launches)`` writes it. Each ``Launch`` is one dispatch: the code object it ran
(its ``ElfFile`` or bytes) and where it was loaded (``base``: profile PCs are
device addresses, the page shows code object addresses as objdump does), the
kernel's name, the grid and block, and the ``DispatchResult`` of a run with
``TraceOptions(profile=True)``.

Per launch the page shows the totals, the kernel's resource usage and
occupancy for the launch's work-group size and dynamic LDS
(``analysis.resources``), the basic blocks (``analysis.cfg``) hottest first
with their totals, the disassembly of every kernel and function that ran with
per-instruction counts (waves that executed it; active EXEC lanes summed, and
their mean out of 64: divergence), each row's background by its count (the
heat scale), and the control-flow graph drawn by Graphviz with each block's
count and heat, when ``dot`` is installed (otherwise the page says so).

Nothing is fetched: the CSS is inline, the SVG is embedded, there is no
script. Every text put in the page is escaped (``html.escape``); the SVG is
Graphviz's own XML output (labels escaped by graphviz), stripped of its XML
prolog, DOCTYPE, comments and namespace URLs (HTML needs none of them).
"""

from __future__ import annotations

import datetime
import html
import re
from dataclasses import dataclass

from ..errors import ToolchainError
from ..exec.launch import DispatchResult
from .cfg import ControlFlowGraph, control_flow_graphs


@dataclass
class Launch:
    """One dispatch to show: the code object and its load base, the result."""

    code: object                  # ElfFile, or the bytes of a shared code object
    kernel: str
    grid: tuple
    block: tuple
    result: DispatchResult
    base: int = 0                 # load base: profile PC = base + code object address
    lds_dynamic: int = 0          # the launch's dynamic LDS bytes


@dataclass
class BlockCount:
    """A basic block's totals in one launch."""

    graph: ControlFlowGraph
    block: object                 # cfg.BasicBlock
    entries: int                  # waves that executed its first instruction
    instructions: int             # wave-instructions executed in it (sum over its rows)
    lanes: int                    # active lanes summed over those wave-instructions


def _esc(value) -> str:
    return html.escape(str(value), quote=True)


def _elf(code):
    from ..elf.reader import ElfFile, read_elf
    if isinstance(code, ElfFile):
        return code
    return read_elf(bytes(code))


def heat_colour(count: int, hottest: int) -> str:
    """The background of a row or block: white for 0, deeper red as the count
    approaches the hottest count of the launch."""
    if count <= 0 or hottest <= 0:
        return "#ffffff"
    import colorsys
    fraction = min(count / hottest, 1.0)
    red, green, blue = colorsys.hls_to_rgb(8 / 360, 0.96 - 0.46 * fraction, 0.9)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def block_counts(graphs, profile: dict, lane_profile: dict, base: int) -> list[BlockCount]:
    """Every block of ``graphs`` that ran, hottest (most wave-instructions) first."""
    counts = []
    for graph in graphs:
        for block in graph.blocks:
            total = sum(profile.get(base + address, 0) for address, _ in block.instructions)
            if not total:
                continue
            lanes = sum(lane_profile.get(base + address, 0) for address, _ in block.instructions)
            counts.append(BlockCount(graph, block, profile.get(base + block.start, 0), total,
                                     lanes))
    counts.sort(key=lambda c: (-c.instructions, c.block.start))
    return counts


def _block_name(graph: ControlFlowGraph, block) -> str:
    offset = block.start - graph.entry
    return f"{graph.name}+0x{offset:x}" if offset else graph.name


def _divergence(lanes: int, count: int) -> str:
    return f"{lanes / count:.1f}/64" if count else ""


_CSS = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; }
table { border-collapse: collapse; margin: 0.5em 0 1em 0; }
th, td { border: 1px solid #ddd; padding: 2px 8px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.disasm td { font-family: monospace; white-space: pre; border: none; padding: 1px 8px; }
table.disasm tr.blockstart td { border-top: 2px solid #888; }
table.disasm tr.blockhead td { background: #f7f7f7; color: #555; font-style: italic; }
td.divergent { color: #a33; font-weight: bold; }
.scale { display: inline-block; width: 240px; height: 12px; vertical-align: middle;
  background: linear-gradient(to right, #fdedeb, #f2330d);
  border: 1px solid #aaa; }
.note { color: #555; }
.cfg svg { max-width: 100%; height: auto; border: 1px solid #eee; }
"""


def _svg_for_page(svg: str) -> str:
    """Graphviz's SVG without what an HTML page needs not have (and must not
    fetch): the XML prolog, DOCTYPE, comments and namespace declarations."""
    start = svg.find("<svg")
    svg = svg[start:] if start >= 0 else svg
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg)
    return svg


def cfg_svg(graph: ControlFlowGraph, by_start: dict, hottest: int) -> str:
    """The graph drawn with each block's count and heat (``by_start``: block
    start -> BlockCount); ``ToolchainError`` when graphviz cannot draw it."""
    from . import cfg_draw
    dot = cfg_draw.to_dot(graph)
    import graphviz
    for block in graph.blocks:
        count = by_start.get(block.start)
        entries = count.entries if count else 0
        executed = count.instructions if count else 0
        lines = cfg_draw.block_lines(graph, block)
        lines[0] += f"  [{entries} waves entered, {executed} wave-instructions]"
        label = "".join(graphviz.escape(line) + "\\l" for line in lines)
        dot.node(f"b{block.start:x}", label, style="filled",
                 fillcolor=heat_colour(executed, hottest))
    try:
        svg = dot.pipe(format="svg").decode("utf-8", "replace")
    except graphviz.ExecutableNotFound:
        raise ToolchainError(cfg_draw.DOT_MISSING) from None
    except graphviz.CalledProcessError as failure:
        raise ToolchainError(f"dot failed on {graph.name}: {failure}") from None
    return _svg_for_page(svg)


def _resources(elf, launch: Launch):
    from .resources import resource_usage_of_elf
    size = 1
    for n in launch.block:
        size *= int(n)
    try:
        kernels = resource_usage_of_elf(elf, lds_dynamic=launch.lds_dynamic,
                                        workgroup_size=size)
    except ToolchainError as error:
        return None, str(error)
    for k in kernels:
        if launch.kernel in (k.kernel, k.symbol, k.symbol.removesuffix(".kd")):
            return k, None
    return None, f"no kernel descriptor for {launch.kernel}"


def _resource_table(usage) -> list[str]:
    spills = ("unknown" if usage.sgpr_spills is None and usage.vgpr_spills is None
              else f"{usage.sgpr_spills or 0} SGPRs, {usage.vgpr_spills or 0} VGPRs")
    if usage.waves_per_simd >= usage.max_waves_per_simd:
        gain = "none: at the maximum"
    elif usage.to_gain_one_wave is None:
        gain = "not possible with this work-group size"
    else:
        units = {"vgprs": "VGPRs", "sgprs": "SGPRs", "lds_bytes": "bytes of LDS"}
        gain = "free " + ", ".join(f"{n} {units.get(r, r)}"
                                   for r, n in usage.to_gain_one_wave.items())
    rows = [
        ("target", "target", usage.target),
        ("VGPRs used", "vgprs", usage.vgprs),
        ("VGPRs allocated", "vgprs_granulated", usage.vgprs_granulated),
        ("SGPRs used", "sgprs", usage.sgprs),
        ("SGPRs allocated", "sgprs_granulated", usage.sgprs_granulated),
        ("LDS static bytes", "lds_bytes", usage.lds_bytes),
        ("LDS dynamic bytes", "lds_dynamic_bytes", usage.lds_dynamic_bytes),
        ("LDS allocated per work-group", "lds_allocated_bytes", usage.lds_allocated_bytes),
        ("scratch bytes per work-item", "scratch_bytes", usage.scratch_bytes),
        ("spills", "spills", spills),
        ("wave size", "wave_size", usage.wave_size),
        ("work-group size", "workgroup_size", usage.workgroup_size),
        ("waves per work-group", "waves_per_workgroup", usage.waves_per_workgroup),
        ("waves per SIMD (occupancy)", "waves_per_simd",
         usage.waves_per_simd),
        ("max waves per SIMD", "max_waves_per_simd", usage.max_waves_per_simd),
        ("waves per CU", "waves_per_cu", usage.waves_per_cu),
        ("work-groups per CU", "workgroups_per_cu", usage.workgroups_per_cu),
        ("limited by", "limited_by", ", ".join(usage.limited_by)),
        ("one more wave per SIMD", "to_gain_one_wave", gain),
    ]
    out = ['<table class="resources"><tr><th>resource</th><th>value</th></tr>']
    for label, key, value in rows:
        out.append(f'<tr><td>{_esc(label)}</td><td class="res" data-key="{_esc(key)}">'
                   f'{_esc(value)}</td></tr>')
    out.append("</table>")
    return out


def _launch_section(number: int, launch: Launch, graphs_of: dict, draw: bool) -> list[str]:
    key = id(launch.code)
    if key not in graphs_of:
        elf = _elf(launch.code)
        graphs_of[key] = (elf, control_flow_graphs(elf))
    elf, graphs = graphs_of[key]
    result = launch.result
    profile, lanes = result.profile or {}, getattr(result, "lane_profile", None) or {}
    base = launch.base
    ran = [g for g in graphs if any(base + a in profile for a, _ in g.instructions())]
    ran.sort(key=lambda g: (g.name != launch.kernel, g.entry))
    counts = block_counts(ran, profile, lanes, base)
    by_start = {(id(c.graph), c.block.start): c for c in counts}
    hottest_inst = max(profile.values(), default=0)
    hottest_block = max((c.instructions for c in counts), default=0)
    dims = lambda t: "x".join(str(int(v)) for v in t)   # noqa: E731
    out = [f'<section class="launch" id="launch{number}" data-kernel="{_esc(launch.kernel)}">',
           f"<h2>Launch {number}: kernel {_esc(launch.kernel)}, grid {_esc(dims(launch.grid))}"
           f", block {_esc(dims(launch.block))}</h2>",
           '<table class="summary">',
           f'<tr><td>waves</td><td class="num">{result.waves}</td></tr>',
           f'<tr><td>wave-instructions executed</td><td class="num">'
           f'{result.wave_instructions}</td></tr>',
           f'<tr><td>lane-instructions executed</td><td class="num">'
           f'{result.lane_instructions}</td></tr>',
           f'<tr><td>seconds (emulated)</td><td class="num">{result.seconds:.3f}</td></tr>',
           "</table>"]
    if not profile:
        out.append('<p class="note">No profile was collected for this launch.</p>')
    out.append("<h3>Resource usage and occupancy</h3>")
    usage, why = _resources(elf, launch)
    if usage is None:
        out.append(f'<p class="note">Resource usage unavailable: {_esc(why)}</p>')
    else:
        out.extend(_resource_table(usage))

    out.append("<h3>Basic blocks, hottest first</h3>")
    out.append('<table class="blocks"><tr><th>block</th><th>addresses</th>'
               '<th class="num">wave-instructions</th><th class="num">waves entered</th>'
               '<th class="num">instructions</th><th class="num">active lanes (mean/64)</th>'
               '</tr>')
    for c in counts:
        out.append(
            f'<tr class="block" data-start="0x{c.block.start:x}" '
            f'data-count="{c.instructions}" style="background: '
            f'{heat_colour(c.instructions, hottest_block)}">'
            f"<td>{_esc(_block_name(c.graph, c.block))}</td>"
            f"<td>0x{c.block.start:x}-0x{c.block.end:x}</td>"
            f'<td class="num">{c.instructions}</td><td class="num">{c.entries}</td>'
            f'<td class="num">{len(c.block.instructions)}</td>'
            f'<td class="num">{_esc(_divergence(c.lanes, c.instructions))}</td></tr>')
    out.append("</table>")

    out.append("<h3>Disassembly with execution counts</h3>")
    out.append('<p>Heat scale (wave-instructions per row): 0 '
               f'<span class="scale"></span> {hottest_inst}. '
               '&ldquo;waves&rdquo;: waves that executed the instruction; '
               '&ldquo;lanes&rdquo;: EXEC lanes active, summed; &ldquo;/64&rdquo;: their mean '
               'per wave (below 64: divergence).</p>')
    seen = set()
    for graph in ran:
        out.append(f'<h4>{_esc(graph.kind)} {_esc(graph.name)}</h4>')
        out.append(f'<table class="disasm" data-graph="{_esc(graph.name)}">'
                   '<tr><th>address</th><th class="num">waves</th><th class="num">lanes</th>'
                   '<th class="num">/64</th><th>instruction</th></tr>')
        for block in graph.blocks:
            c = by_start.get((id(graph), block.start))
            total = c.instructions if c else 0
            out.append(f'<tr class="blockhead"><td colspan="5">block '
                       f'{_esc(_block_name(graph, block))}: {total} wave-instructions</td></tr>')
            for index, (address, inst) in enumerate(block.instructions):
                seen.add(base + address)
                count = profile.get(base + address, 0)
                lane = lanes.get(base + address, 0)
                mean = _divergence(lane, count)
                divergent = ' divergent' if count and lane < 64 * count else ''
                cls = "inst blockstart" if index == 0 else "inst"
                out.append(
                    f'<tr class="{cls}" data-addr="0x{address:x}" data-count="{count}" '
                    f'data-lanes="{lane}" style="background: '
                    f'{heat_colour(count, hottest_inst)}">'
                    f"<td>0x{address:x}</td><td class=\"num count\">{count}</td>"
                    f'<td class="num">{lane}</td><td class="num{divergent}">{_esc(mean)}</td>'
                    f"<td>{_esc(inst.text())}</td></tr>")
        out.append("</table>")
    outside = sorted(pc for pc in profile if pc not in seen)
    if outside:
        out.append('<p class="note">Executed outside the code object\'s kernels and '
                   'functions: ' + ", ".join(f"0x{pc:x} ({profile[pc]})" for pc in outside)
                   + "</p>")

    out.append("<h3>Control-flow graph</h3>")
    if not draw:
        out.append('<p class="note cfg-missing">The control-flow graph picture needs '
                   "Graphviz's <code>dot</code> program (Debian/Ubuntu: "
                   "<code>apt-get install graphviz</code>), which is not installed.</p>")
    for graph in ran if draw else ():
        graph_counts = {c.block.start: c for c in counts if c.graph is graph}
        try:
            svg = cfg_svg(graph, graph_counts, hottest_block)
        except ToolchainError as error:
            out.append(f'<p class="note cfg-missing">{_esc(error)}</p>')
            continue
        out.append(f'<div class="cfg" data-graph="{_esc(graph.name)}">{svg}</div>')
    out.append("</section>")
    return out


def dot_available() -> bool:
    import shutil
    try:
        import graphviz  # noqa: F401
    except ImportError:
        return False
    return shutil.which("dot") is not None


def profile_page(launches: list[Launch], title: str = "amdgpu-run profile",
                 draw: bool | None = None) -> str:
    """The HTML page of ``launches``; ``draw``: include the CFG pictures
    (default: when Graphviz's ``dot`` is installed)."""
    if draw is None:
        draw = dot_available()
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{_esc(title)}</title>", f"<style>{_CSS}</style></head><body>",
           f"<h1>{_esc(title)}</h1>",
           f'<p class="note">{len(launches)} launch(es), profiled by the amdgpu-tools '
           f"executor, {_esc(stamp)}. Counts are per wave (64 lanes); addresses are code "
           "object addresses.</p>"]
    if not launches:
        out.append('<p class="note">No kernel was launched.</p>')
    graphs_of: dict = {}
    for number, launch in enumerate(launches):
        out.extend(_launch_section(number, launch, graphs_of, draw))
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_profile_html(path: str, launches: list[Launch], title: str = "amdgpu-run profile",
                       draw: bool | None = None) -> None:
    """Write ``profile_page(launches)`` to ``path``."""
    page = profile_page(launches, title, draw)
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(page)
    except OSError as failure:
        raise ToolchainError(f"cannot write '{path}': {failure.strerror}") from None
