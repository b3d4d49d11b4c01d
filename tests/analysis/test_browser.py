"""amdgpu-run --profile-html pages in a real browser: headless Chromium (Debian
``chromium``) loads the page of a real kernel run with no network; the page
must log nothing to the console and ask the network for nothing, the DOM the
browser built must hold every table row and the control-flow graph, and a
screenshot must show the heat colours of the table rows and the graph's node
boxes filled with their blocks' heat. Skips without Chromium."""

import collections
import os
import re
import sys
from html.parser import HTMLParser

import numpy as np
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from tools.chromium import find_chromium, render  # noqa: E402
from tools.png import read_png  # noqa: E402

from amdgpu_tools.analysis.cfg import control_flow_graphs  # noqa: E402
from amdgpu_tools.analysis.profile_html import dot_available  # noqa: E402
from amdgpu_tools.asm import assemble  # noqa: E402
from amdgpu_tools.cli.run import main  # noqa: E402
from amdgpu_tools.elf.reader import read_elf  # noqa: E402
from amdgpu_tools.link import link  # noqa: E402

SAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "samples")
WIDTH = 1000
WHITE = (255, 255, 255)

pytestmark = pytest.mark.skipif(
    find_chromium() is None, reason="chromium is not installed (Debian: apt-get install chromium)")

# ---------------------------------------------------------------------------
# the pages: real runs of two samples, written by amdgpu-run --profile-html


def _lds_reduce(tmp):
    np.save(tmp / "in.npy", np.arange(1024, dtype=np.float32))
    return [os.path.join(SAMPLES, "lds_reduce.s"), "--grid", "1024", "--block", "256",
            "--arg", f"buf:{tmp / 'in.npy'}", "--arg", "buf:float32[4]"]


def _matmul_tiled(tmp):
    n = 32
    np.save(tmp / "a.npy", np.arange(n * n, dtype=np.float32).reshape(n, n) % 7)
    np.save(tmp / "b.npy", np.arange(n * n, dtype=np.float32).reshape(n, n) % 5)
    return [os.path.join(SAMPLES, "matmul_tiled.s"), "--grid", f"{n},{n}", "--block", "16,16",
            "--arg", f"buf:{tmp / 'a.npy'}", "--arg", f"buf:{tmp / 'b.npy'}",
            "--arg", f"buf:float32[{n},{n}]", "--arg", f"i32:{n}"]


# sample -> (its command line, the screenshot's height: the whole page fits, with
# room for the browser's layout to change: Chromium 156 drew lds_reduce's page
# 3304 px long and matmul_tiled's 4903, where the heights had been 3300 and 5000)
RUNS = {"lds_reduce": (_lds_reduce, 4200), "matmul_tiled": (_matmul_tiled, 6200)}


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    if not dot_available():
        pytest.skip("Graphviz's dot is not installed: the page would have no graph")
    made = {}
    for name, (args_of, _height) in RUNS.items():
        tmp = tmp_path_factory.mktemp(name)
        out = tmp / f"{name}.html"
        assert main(args_of(tmp) + ["--profile-html", str(out)]) == 0
        made[name] = out
    return made


@pytest.fixture(scope="module")
def rendered(pages):
    """Each page loaded once, with a screenshot of the whole page."""
    return {name: render(str(path), window=(WIDTH, RUNS[name][1]))
            for name, path in pages.items()}


# ---------------------------------------------------------------------------
# reading the DOM


class Dom(HTMLParser):
    """What a page holds: instruction and block rows (address/start, count,
    background colour), the SVGs and their node boxes' fill colours, and every
    reference to something else to load."""

    REFERENCE_ATTRS = {"src", "href", "xlink:href", "srcset", "data", "poster", "background",
                       "action", "formaction"}

    def __init__(self, text):
        super().__init__()
        self.insts, self.blocks, self.node_fills = [], [], []
        self.svgs = 0
        self.references = []
        self._in_node = False
        self.feed(text)

    @staticmethod
    def _background(style):
        match = re.search(r"background:\s*(#[0-9a-f]{6})", style or "")
        return match.group(1) if match else None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name, value in attrs.items():
            if name in self.REFERENCE_ATTRS and value and not value.startswith("#"):
                self.references.append(f"{tag} {name}={value}")
            if value and "url(" in value:
                self.references.append(f"{tag} {name}={value}")
        if tag in ("script", "link", "img", "iframe", "object", "embed", "image", "use"):
            self.references.append(f"<{tag}>")
        classes = (attrs.get("class") or "").split()
        if tag == "tr" and "inst" in classes:
            self.insts.append((attrs["data-addr"], int(attrs["data-count"]),
                               self._background(attrs.get("style"))))
        if tag == "tr" and "block" in classes:
            self.blocks.append((attrs["data-start"], int(attrs["data-count"]),
                                self._background(attrs.get("style"))))
        if tag == "svg":
            self.svgs += 1
        if tag == "g":
            self._in_node = "node" in classes
        if tag == "polygon" and self._in_node:
            self.node_fills.append(attrs.get("fill"))
            self._in_node = False

    def handle_data(self, data):
        if "url(" in data:
            self.references.append(data.strip()[:80])


def graph_blocks(sample):
    """The kernel's basic blocks, from the code object itself (assembled and
    linked, as amdgpu-run does with a .s file)."""
    path = os.path.join(SAMPLES, f"{sample}.s")
    obj = assemble(open(path).read(), target="gfx900", filename=path)
    elf = read_elf(link([(f"{sample}.o", obj)]))
    return [block for graph in control_flow_graphs(elf) for block in graph.blocks]


# ---------------------------------------------------------------------------
# reading the screenshot


def rgb(colour):
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def dark_borders(pixels, min_run=60, min_piece=30, max_gap=15, threshold=100):
    """Horizontal lines of dark pixels at least ``min_run`` long, made of
    unbroken pieces at least ``min_piece`` long less than ``max_gap`` apart
    (edges and arrowheads cross a box's border; text breaks into letters),
    rows next to each other with the same extent merged (an anti-aliased line
    is two rows): (top row, bottom row, first x, last x + 1)."""
    dark = pixels.max(axis=2) < threshold
    height, width = dark.shape
    # unbroken runs of dark pixels, all rows at once (a clear column between rows)
    padded = np.zeros((height, width + 1), np.int8)
    padded[:, :width] = dark
    edges = np.diff(np.concatenate(([0], padded.ravel())))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    long = ends - starts >= min_piece
    runs_of = collections.defaultdict(list)
    for start, end in zip(starts[long], ends[long]):
        y, x0 = divmod(int(start), width + 1)
        runs_of[y].append((x0, x0 + int(end - start)))
    lines = []
    for y in sorted(runs_of):
        pieces = []
        for x0, x1 in runs_of[y]:
            if pieces and x0 - pieces[-1][1] < max_gap:
                pieces[-1][1] = x1
            else:
                pieces.append([x0, x1])
        for x0, x1 in pieces:
            if x1 - x0 < min_run:
                continue
            for line in lines:
                if line[1] == y - 1 and abs(line[2] - x0) <= 2 and abs(line[3] - x1) <= 2:
                    line[1] = y
                    break
            else:
                lines.append([y, y, x0, x1])
    return [tuple(int(v) for v in line) for line in lines]


def _column_is_dark(dark, top, bottom, x):
    """Whether one of the columns x-1..x+2 is dark over rows top..bottom."""
    span = dark[top:bottom, max(x - 1, 0):x + 3]
    return span.shape[0] > 0 and (span.mean(axis=0) >= 0.9).any()


def node_boxes(pixels):
    """Rectangles outlined in dark lines, as Graphviz draws the CFG's nodes:
    a horizontal border, the next border below it with the same extent, and
    dark vertical lines joining their ends. Each as (top, bottom, left, right,
    fill), fill the commonest colour inside."""
    dark = pixels.max(axis=2) < 100
    lines = sorted(dark_borders(pixels))
    boxes, used = [], set()
    for i, (top0, top1, x0, x1) in enumerate(lines):
        if i in used:
            continue
        for j in range(i + 1, len(lines)):
            b0, b1, bx0, bx1 = lines[j]
            if j in used or b0 <= top1 + 8 or abs(bx0 - x0) > 2 or abs(bx1 - x1) > 2:
                continue
            if _column_is_dark(dark, top1 + 1, b0, x0) and \
                    _column_is_dark(dark, top1 + 1, b0, x1 - 2):
                inside = pixels[top1 + 3:b0 - 2, x0 + 3:x1 - 3].reshape(-1, 3)
                colours, counts = np.unique(inside, axis=0, return_counts=True)
                fill = "#%02x%02x%02x" % tuple(colours[counts.argmax()])
                boxes.append((top0, b1, x0, x1, fill))
                used.update((i, j))
                break
    return boxes


def colour_pixels(pixels, colour):
    return int((pixels == np.array(rgb(colour), np.uint8)).all(axis=2).sum())


# ---------------------------------------------------------------------------
# the checker itself: a broken page must be caught


def test_console_errors_and_network_requests_are_caught(tmp_path):
    """The checks below can fail: a page with a script error, a console
    error, an external image and a missing local one is caught on each."""
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html><body><p>x</p>'
                   '<img src="http://example.invalid/pixel.png"><img src="missing.png">'
                   '<script>console.error("broken page"); notDefined();</script>'
                   "</body></html>")
    page = render(str(bad))
    assert any("broken page" in line for line in page.console)
    assert any("notDefined" in line for line in page.console)
    assert page.requests == ["http://example.invalid/pixel.png"]
    dom = Dom(page.dom)
    assert "img src=missing.png" in dom.references
    assert "<script>" in dom.references


def test_a_page_without_heat_or_graph_is_caught(pages, tmp_path):
    """The picture checks can fail: the lds_reduce page with its row colours
    and its graph taken out shows no heat and no node boxes."""
    text = pages["lds_reduce"].read_text()
    text = re.sub(r'<div class="cfg".*?</svg>\s*</div>', "", text, flags=re.S)
    text = re.sub(r'style="background: #[0-9a-f]{6}"', "", text)
    stripped = tmp_path / "stripped.html"
    stripped.write_text(text)
    dom = Dom(pages["lds_reduce"].read_text())
    pixels = read_png(render(str(stripped), window=(WIDTH, 2400)).screenshot)
    assert node_boxes(pixels) == []
    hot = {colour for _addr, _count, colour in dom.insts if colour not in (None, "#ffffff")}
    assert hot and all(colour_pixels(pixels, c) == 0 for c in hot)


# ---------------------------------------------------------------------------
# the real pages


@pytest.mark.parametrize("sample", sorted(RUNS))
def test_page_loads_cleanly_and_the_dom_has_every_row(sample, pages, rendered):
    page = rendered[sample]
    assert page.console == [], page.console
    assert page.requests == [], page.requests
    source = Dom(pages[sample].read_text())
    dom = Dom(page.dom)
    assert dom.references == []
    # the browser built every row the file has, and the one graph
    assert dom.insts == source.insts and dom.blocks == source.blocks
    assert len(dom.insts) >= 20 and len(dom.blocks) >= 3
    assert dom.svgs == 1
    blocks = graph_blocks(sample)
    assert len(dom.node_fills) == len(blocks)
    assert {addr for addr, _count, _colour in dom.insts} == \
        {f"0x{address:x}" for block in blocks for address, _ in block.instructions}


@pytest.mark.parametrize("sample", sorted(RUNS))
def test_screenshot_shows_the_heat_table_and_the_graph(sample, rendered):
    page = rendered[sample]
    dom = Dom(page.dom)
    pixels = read_png(page.screenshot)
    height = RUNS[sample][1]
    assert pixels.shape[:2] == (height, WIDTH)
    # not blank: a real page of text, tables and a picture
    background = (pixels == 255).all(axis=2)
    assert 0.05 < 1 - background.mean() < 0.9
    packed = pixels.astype(np.int32) @ np.array([1 << 16, 1 << 8, 1], np.int32)
    assert len(np.unique(packed)) > 100
    content = np.flatnonzero(~background.all(axis=1))
    assert content[-1] < height - 20, "the page is longer than the screenshot"

    # the graph: one outlined box per CFG node, filled with that node's colour
    boxes = node_boxes(pixels)
    assert collections.Counter(fill for *_, fill in boxes) == \
        collections.Counter(dom.node_fills), (boxes, dom.node_fills)
    assert any(fill != "#ffffff" for fill in dom.node_fills)
    graph_top = min(top for top, *_ in boxes)
    assert graph_top > height // 3

    # the table above it: every heat colour of the instruction rows, about as
    # many pixels as its rows cover (a row is ~17 px high, the table > 300 px wide)
    assert all(colour for _a, _c, colour in dom.insts), "instruction rows without a background"
    rows_of = collections.Counter(colour for _a, _c, colour in dom.insts if colour != "#ffffff")
    assert rows_of, "no instruction ran?"
    table = pixels[:graph_top]
    for colour, rows in rows_of.items():
        assert colour_pixels(table, colour) >= rows * 15 * 300, colour
    # and the hottest row's colour is the deepest red of the scale
    hottest = max(dom.insts, key=lambda row: row[1])
    assert hottest[2] == "#f22b0d"
