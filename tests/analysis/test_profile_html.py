"""amdgpu-run --profile-html: the page's numbers against the Python API's own run."""

import os
import shutil
from html.parser import HTMLParser

import numpy as np
import pytest
import yaml

from amdgpu_tools.analysis.cfg import control_flow_graphs
from amdgpu_tools.analysis.profile_html import Launch, profile_page
from amdgpu_tools.analysis.resources import resource_usage_of_elf
from amdgpu_tools.asm import assemble
from amdgpu_tools.cli.run import main
from amdgpu_tools.exec.launch import DispatchResult, TraceOptions
from amdgpu_tools.runtime.api import Device

SAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "samples")


def sample(name):
    return os.path.join(SAMPLES, name)


class Page(HTMLParser):
    """The launches of a profile page: instruction rows, block rows, resource
    cells, whether an SVG and external references are present."""

    def __init__(self, text):
        super().__init__()
        self.launches = []
        self.urls = []
        self._row = None
        self._cell = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for value in attrs.values():
            if value and ("http://" in value or "https://" in value):
                self.urls.append(value)
        if tag in ("script", "link", "img", "iframe"):
            self.urls.append(f"<{tag}>")
        if tag == "section" and attrs.get("class") == "launch":
            self.launches.append({"kernel": attrs["data-kernel"], "insts": [], "blocks": [],
                                  "resources": {}, "svg": 0, "graphs": []})
        launch = self.launches[-1] if self.launches else None
        if tag == "svg" and launch is not None:
            launch["svg"] += 1
        if tag == "table" and launch is not None and attrs.get("class") == "disasm":
            launch["graphs"].append(attrs["data-graph"])
        if tag == "tr" and launch is not None:
            cls = (attrs.get("class") or "").split()
            if "inst" in cls or "block" in cls:
                self._row = {"kind": "inst" if "inst" in cls else "block", "attrs": attrs,
                             "cells": []}
        if tag == "td":
            self._cell = {"attrs": attrs, "text": ""}

    def handle_data(self, data):
        if self._cell is not None:
            self._cell["text"] += data
        if "http://" in data or "https://" in data:
            self.urls.append(data)

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            if self._row is not None:
                self._row["cells"].append(self._cell)
            elif self._cell["attrs"].get("class") == "res":
                self.launches[-1]["resources"][self._cell["attrs"]["data-key"]] = \
                    self._cell["text"]
            self._cell = None
        if tag == "tr" and self._row is not None:
            key = "insts" if self._row["kind"] == "inst" else "blocks"
            self.launches[-1][key].append(self._row)
            self._row = None


def api_run(program_path, kernel, args_of, grid, block):
    """The profile computed independently: the Python API with profiling on."""
    device = Device("gfx900", trace=TraceOptions(profile=True))
    program = device.load(assemble(open(program_path).read(), target="gfx900",
                                   filename=program_path))
    args = args_of(device)
    result = program[kernel](*args, grid=grid, block=block)
    device.synchronize()
    return program, result


def check_page(launch, program, result, workgroup_size):
    base = program.loaded.base
    elf = program.loaded.code.elf
    # every instruction row: the count shown is the API's profile
    counts = {}
    for row in launch["insts"]:
        address = int(row["attrs"]["data-addr"], 16)
        shown = int(row["cells"][1]["text"])
        assert shown == int(row["attrs"]["data-count"])
        assert shown == result.profile.get(base + address, 0), hex(address)
        assert int(row["cells"][2]["text"]) == result.lane_profile.get(base + address, 0)
        counts[address] = shown
    # every executed PC is on the page
    assert {pc - base for pc in result.profile} <= set(counts)
    assert sum(counts.values()) == result.wave_instructions
    # block totals: the sum of their instructions' counts; hottest first
    graphs = {g.name: g for g in control_flow_graphs(elf)}
    blocks = {b.start: b for g in graphs.values() for b in g.blocks}
    totals = []
    for row in launch["blocks"]:
        start = int(row["attrs"]["data-start"], 16)
        total = int(row["cells"][2]["text"])
        assert total == sum(counts[a] for a, _ in blocks[start].instructions)
        assert int(row["cells"][3]["text"]) == counts[start]
        totals.append(total)
    assert totals and totals == sorted(totals, reverse=True)
    hottest = max((sum(counts.get(a, 0) for a, _ in b.instructions), -b.start)
                  for b in blocks.values())
    assert int(launch["blocks"][0]["attrs"]["data-start"], 16) == -hottest[1]
    # resource usage of the loaded code object for the launch's work-group size
    usage = next(k for k in resource_usage_of_elf(elf, workgroup_size=workgroup_size)
                 if k.kernel == launch["kernel"])
    res = launch["resources"]
    for key in ("vgprs", "sgprs", "lds_bytes", "scratch_bytes", "waves_per_simd",
                "waves_per_cu", "vgprs_granulated", "sgprs_granulated"):
        assert res[key] == str(getattr(usage, key)), key


def lds_args(device):
    return [device.array(np.arange(1024, dtype=np.float32)), device.zeros(4, np.float32)]


def test_lds_reduce_page_matches_the_api_profile(tmp_path, capsys):
    np.save(tmp_path / "in.npy", np.arange(1024, dtype=np.float32))
    out = tmp_path / "profile.html"
    status = main([sample("lds_reduce.s"), "--grid", "1024", "--block", "256",
                   "--arg", f"buf:{tmp_path / 'in.npy'}", "--arg", "buf:float32[4]",
                   "--profile-html", str(out)])
    captured = capsys.readouterr()
    assert status == 0
    assert "profile (pc" not in captured.out      # the text profile only with --profile
    text = out.read_text()
    page = Page(text)
    assert page.urls == []
    assert "http://" not in text and "https://" not in text
    assert len(page.launches) == 1
    program, result = api_run(sample("lds_reduce.s"), "lds_reduce", lds_args, 1024, 256)
    check_page(page.launches[0], program, result, 256)
    # the reduction's halving loop diverges: some instruction has < 64 lanes per wave
    assert any(int(r["attrs"]["data-lanes"]) < 64 * int(r["attrs"]["data-count"])
               for r in page.launches[0]["insts"])
    if shutil.which("dot"):
        assert page.launches[0]["svg"] == 1
        assert "waves entered" in text
    else:
        assert "needs Graphviz" in text


def test_matmul_tiled_page_matches_the_api_profile(tmp_path):
    n = 32
    a = np.arange(n * n, dtype=np.float32).reshape(n, n) % 7
    b = np.arange(n * n, dtype=np.float32).reshape(n, n) % 5
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    out = tmp_path / "mm.html"
    assert main([sample("matmul_tiled.s"), "--grid", f"{n},{n}", "--block", "16,16",
                 "--arg", f"buf:{tmp_path / 'a.npy'}", "--arg", f"buf:{tmp_path / 'b.npy'}",
                 "--arg", f"buf:float32[{n},{n}]", "--arg", f"i32:{n}",
                 "--profile-html", str(out)]) == 0
    page = Page(out.read_text())
    assert page.urls == []

    def args_of(device):
        return [device.array(a), device.array(b), device.zeros((n, n), np.float32),
                np.int32(n)]
    program, result = api_run(sample("matmul_tiled.s"), "matmul_tiled", args_of, (n, n),
                              (16, 16))
    check_page(page.launches[0], program, result, 256)


def test_spec_launches_each_get_a_section(tmp_path, capsys):
    code = assemble(open(sample("lds_reduce.s")).read(), target="gfx900",
                    filename="lds_reduce.s")
    (tmp_path / "lds_reduce.o").write_bytes(code)
    np.save(tmp_path / "in.npy", np.arange(1024, dtype=np.float32))
    spec = {"name": "two", "code_object": "lds_reduce.o",
            "buffers": {"x": {"file": "in.npy"}, "out": {"zeros": 4, "dtype": "float32"}},
            "launches": [{"kernel": "lds_reduce", "grid": 1024, "block": 256,
                          "args": [{"buf": "x"}, {"buf": "out"}]},
                         {"kernel": "lds_reduce", "grid": 512, "block": 256,
                          "args": [{"buf": "x"}, {"buf": "out"}]}],
            "expect": {"out": {"data": [32640.0, 98176.0, 163712.0, 229248.0]}}}
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec))
    out = tmp_path / "spec.html"
    assert main(["--spec", str(tmp_path / "spec.yaml"), "--profile-html", str(out)]) == 0
    page = Page(out.read_text())
    assert [launch["kernel"] for launch in page.launches] == ["lds_reduce", "lds_reduce"]
    program, result = api_run(sample("lds_reduce.s"), "lds_reduce", lds_args, 1024, 256)
    check_page(page.launches[0], program, result, 256)
    program, result = api_run(sample("lds_reduce.s"), "lds_reduce", lds_args, 512, 256)
    check_page(page.launches[1], program, result, 256)


def test_text_is_escaped_and_no_picture_without_dot():
    device = Device("gfx900")
    program = device.load(assemble(open(sample("lds_reduce.s")).read(), target="gfx900"))
    launch = Launch(program.loaded.code.elf, "<b>lds_reduce</b>", (64, 1, 1), (64, 1, 1),
                    DispatchResult(), program.loaded.base)
    text = profile_page([launch], title="<script>x</script>", draw=False)
    assert "<script>" not in text and "<b>" not in text
    assert "&lt;script&gt;" in text
    assert "needs Graphviz" in text and "<svg" not in text


def test_profile_html_rejects_exec_and_info(tmp_path, capsys):
    assert main(["--profile-html", str(tmp_path / "x.html"), "--print-env",
                 "--mcpu", "gfx900"]) == 2
    assert "--profile-html" in capsys.readouterr().err
    assert main(["--profile-html", str(tmp_path / "x.html"), "--info"]) == 2
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("flag", ["--profile"])
def test_profile_html_with_profile_still_prints_the_text_profile(tmp_path, capsys, flag):
    np.save(tmp_path / "in.npy", np.arange(256, dtype=np.float32))
    assert main([sample("lds_reduce.s"), "--grid", "256", "--block", "256",
                 "--arg", f"buf:{tmp_path / 'in.npy'}", "--arg", "buf:float32[1]", flag,
                 "--profile-html", str(tmp_path / "p.html")]) == 0
    assert "profile (pc" in capsys.readouterr().out
    assert (tmp_path / "p.html").exists()
