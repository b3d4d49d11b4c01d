"""Regenerate the README's pictures (docs/images/*.png) from the tools' real output.

Dev-time, run by hand from the repository root when what a picture shows has
changed (the CFG drawing, the profile page, the resource-usage text):

    .venv/bin/python tools/readme_pictures.py             # all pictures
    .venv/bin/python tools/readme_pictures.py cfg         # one or more of: cfg profile resources live
    .venv/bin/python tools/readme_pictures.py --out DIR   # somewhere else than docs/images

It needs Graphviz's ``dot`` and Chromium (Debian: ``graphviz chromium``), and
runs the installed command-line tools (the ``amdgpu-*`` scripts next to this
Python) on ``samples/lds_reduce.s`` in a temporary directory:

- ``cfg-lds_reduce.png``: ``amdgpu-as`` + ``amdgpu-ld`` build ``lds_reduce.hsaco``;
  its control-flow graph, the graph ``amdgpu-objdump --cfg`` draws
  (``analysis.cfg_draw.to_dot``), rendered by ``dot`` as PNG instead of SVG.
- ``profile-lds_reduce.png``: the page ``amdgpu-run lds_reduce.hsaco --grid 1024
  --block 256 ... --profile-html`` writes, loaded by headless Chromium
  (``tools/chromium.py``), cropped to the title and the run's totals, then the
  basic blocks and the disassembly with their heat colours (two pieces of the
  one screenshot, stacked; the resources and the graph have pictures of their own).
- ``resource-usage.png``: ``amdgpu-objdump --resource-usage --lds-dynamic 16384
  lds_reduce.hsaco``: the command and its output in a ``<pre>`` page, screenshotted.

Each picture is cropped to its content and must stay under 150 KB (the script
fails otherwise). Pictures are compared with nothing: look at them before
committing.
"""

from __future__ import annotations

import argparse
import html
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tools.chromium import ChromiumError, render  # noqa: E402
from tools.png import crop_to_content, read_png, write_png  # noqa: E402

SAMPLE = os.path.join(ROOT, "samples", "lds_reduce.s")
MAX_BYTES = 150_000
WIDTH = 1000
PROFILE_WIDTH = 900         # the blocks table's width and margins, no more: bytes


class PictureError(RuntimeError):
    """A picture could not be made (a tool failed, or the result is wrong)."""


def tool(name: str) -> str:
    """The command-line tool ``name``: next to this Python, else on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(beside):
        return beside
    found = shutil.which(name)
    if found is None:
        raise PictureError(f"{name} is not installed (pip install -e . first)")
    return found


def run(args: list[str], cwd: str) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        message = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:]
        raise PictureError(f"{os.path.basename(args[0])} failed: {' '.join(message)}")
    return done.stdout


def build_sample(work: str) -> str:
    """lds_reduce.hsaco in ``work``, made by amdgpu-as and amdgpu-ld."""
    shutil.copy(SAMPLE, os.path.join(work, "lds_reduce.s"))
    run([tool("amdgpu-as"), "--mcpu=gfx900", "lds_reduce.s", "-o", "lds_reduce.o"], work)
    run([tool("amdgpu-ld"), "-shared", "lds_reduce.o", "-o", "lds_reduce.hsaco"], work)
    return os.path.join(work, "lds_reduce.hsaco")


def save(pixels: np.ndarray, path: str) -> int:
    data = write_png(pixels)
    if len(data) > MAX_BYTES:
        raise PictureError(f"{path}: {len(data)} bytes, over the {MAX_BYTES}-byte limit")
    with open(path, "wb") as handle:
        handle.write(data)
    return len(data)


def screenshot(page: str, height: int, width: int = WIDTH) -> np.ndarray:
    rendered = render(page, window=(width, height))
    if rendered.console or rendered.requests:
        raise PictureError(f"{page}: console {rendered.console}, requests {rendered.requests}")
    pixels = read_png(rendered.screenshot)[:, :, :3]
    content = np.flatnonzero((pixels != 255).any(axis=(1, 2)))
    if len(content) and content[-1] >= height - 2:
        raise PictureError(f"{page} is taller than {height} pixels: make the window taller")
    return pixels


def cfg_picture(work: str, out: str) -> str:
    from amdgpu_tools.analysis.cfg import control_flow_graphs
    from amdgpu_tools.analysis.cfg_draw import DOT_MISSING, to_dot
    from amdgpu_tools.elf.reader import read_elf
    with open(build_sample(work), "rb") as handle:
        graphs = control_flow_graphs(read_elf(handle.read()))
    graph = next(g for g in graphs if g.name == "lds_reduce")
    import graphviz
    try:
        pixels = read_png(to_dot(graph).pipe(format="png"))[:, :, :3]
    except graphviz.ExecutableNotFound:
        raise PictureError(DOT_MISSING) from None
    path = os.path.join(out, "cfg-lds_reduce.png")
    return f"{path}: {pixels.shape[1]}x{pixels.shape[0]}, {save(pixels, path)} bytes"


def _rows_of_colour(pixels: np.ndarray, colour: int, least: int = 300) -> list[tuple[int, int]]:
    """Runs of rows with at least ``least`` pixels of ``colour`` (0xRRGGBB)."""
    rgb = np.array([colour >> 16, (colour >> 8) & 255, colour & 255], np.uint8)
    rows = np.flatnonzero((pixels == rgb).all(axis=2).sum(axis=1) >= least)
    if not len(rows):
        return []
    splits = np.flatnonzero(np.diff(rows) > 1)
    starts = np.concatenate(([rows[0]], rows[splits + 1]))
    ends = np.concatenate((rows[splits], [rows[-1]]))
    return list(zip(starts.tolist(), (ends + 1).tolist()))


# the page's CSS: table header rows (th) #f2f2f2, the disassembly's block heads #f7f7f7
HEADER_ROW, BLOCK_HEAD = 0xF2F2F2, 0xF7F7F7


def profile_picture(work: str, out: str) -> str:
    build_sample(work)
    np.save(os.path.join(work, "in.npy"), np.arange(1024, dtype=np.float32))
    run([tool("amdgpu-run"), "lds_reduce.hsaco", "--kernel", "lds_reduce", "--grid", "1024",
         "--block", "256", "--arg", "buf:in.npy", "--arg", "buf:float32[4]",
         "--profile-html", "profile.html"], work)
    pixels = screenshot(os.path.join(work, "profile.html"), 3400, PROFILE_WIDTH)
    headers = _rows_of_colour(pixels, HEADER_ROW)      # resources, blocks, disassembly
    heads = _rows_of_colour(pixels, BLOCK_HEAD)        # one per basic block
    if len(headers) != 3 or len(heads) != 7:
        raise PictureError(f"profile page: expected 3 table header rows and 7 block heads "
                           f"(lds_reduce), found {len(headers)} and {len(heads)}")
    (_, resources_top), (blocks_top, _), (disasm_top, disasm_header_end) = headers
    # 1. the title and the run's totals: down to the resources heading
    top = pixels[:_gap_at_or_before(pixels, resources_top - 48)]
    # 2. the blocks table with its heading, down to the disassembly's heading,
    #    and the disassembly's header row
    blocks = pixels[blocks_top - 44:_gap_at_or_before(pixels, disasm_top - 10)]
    # 3. the loop's three blocks (+0x3c, +0x48, +0x74), without the entry block
    loop = pixels[disasm_top - 4:disasm_header_end + 2]
    body = pixels[heads[1][0]:heads[4][0]]
    pieces = [top, blocks, loop, body]
    right = max(int(np.flatnonzero((piece != 255).any(axis=(0, 2)))[-1]) for piece in pieces)
    top, blocks, loop, body = (piece[:, :right + 12] for piece in pieces)
    gap = _separator(right + 12)
    picture = crop_to_content(np.concatenate([top, gap, blocks, loop, gap[:6], body, gap]),
                              margin=10)
    path = os.path.join(out, "profile-lds_reduce.png")
    return f"{path}: {picture.shape[1]}x{picture.shape[0]}, {save(picture, path)} bytes"


def _gap_at_or_before(pixels: np.ndarray, y: int) -> int:
    """The last row at or above ``y`` with no text in it (between two lines
    of text: no dark pixel)."""
    while y > 0 and (pixels[y].max(axis=1) < 150).any():
        y -= 1
    return y


def _separator(width: int) -> np.ndarray:
    """A dashed grey line between two pieces of one screenshot."""
    strip = np.full((17, width, 3), 255, np.uint8)
    dashes = (np.arange(width) // 8) % 2 == 0
    strip[8, dashes] = 160
    return strip


def text_picture(work: str, out: str, arguments: list[str], name: str) -> str:
    """A picture of ``amdgpu-objdump ARGUMENTS lds_reduce.hsaco``'s text output."""
    build_sample(work)
    command = [tool("amdgpu-objdump"), *arguments, "lds_reduce.hsaco"]
    text = run(command, work).strip("\n")
    shown = "$ " + " ".join(["amdgpu-objdump"] + command[1:])
    page = os.path.join(work, name + ".html")
    with open(page, "w", encoding="utf-8") as handle:
        handle.write('<!DOCTYPE html><html><head><meta charset="utf-8"><style>'
                     "body { margin: 0; background: #fff; }"
                     "pre { font: 14px/1.35 monospace; color: #222; margin: 12px;"
                     " padding: 10px 14px; background: #f6f8fa; border: 1px solid #d0d7de;"
                     " display: inline-block; }"
                     ".cmd { color: #1f4e9e; }"
                     "</style></head><body><pre>"
                     f'<span class="cmd">{html.escape(shown)}</span>\n{html.escape(text)}'
                     "</pre></body></html>\n")
    picture = crop_to_content(screenshot(page, 1200), margin=4)
    path = os.path.join(out, name + ".png")
    return f"{path}: {picture.shape[1]}x{picture.shape[0]}, {save(picture, path)} bytes"


def resources_picture(work: str, out: str) -> str:
    return text_picture(work, out, ["--resource-usage", "--lds-dynamic", "16384"],
                        "resource-usage")


def live_picture(work: str, out: str) -> str:
    return text_picture(work, out, ["--live-registers"], "live-registers")


PICTURES = {"cfg": cfg_picture, "profile": profile_picture, "resources": resources_picture,
            "live": live_picture}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the README's pictures.")
    parser.add_argument("which", nargs="*", metavar="PICTURE",
                        help="cfg, profile, resources, live (default: all)")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "images"),
                        help="directory for the PNGs (default: docs/images)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.which if name not in PICTURES]
    if unknown:
        parser.error(f"unknown picture {unknown[0]!r} (choose from {', '.join(PICTURES)})")
    os.makedirs(args.out, exist_ok=True)
    try:
        for name in args.which or PICTURES:
            with tempfile.TemporaryDirectory(prefix="amdgpu-tools-pictures-") as work:
                print(PICTURES[name](work, args.out))
    except (PictureError, ChromiumError) as error:
        print(f"readme_pictures: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
