"""Headless Chromium for the tests and the README pictures: load a local page
with no network, and collect its DOM, a screenshot, its console messages and
the network requests it made.

``render(path, ...)`` runs ``chromium --headless`` once with flags that work
as root in CI (``--no-sandbox``, ``--disable-gpu``, a fresh temporary
``--user-data-dir``), with the network cut off (every host name resolves to
nothing, every connection goes to a refusing proxy) and Chromium's own
background traffic (updates, sync, accounts) turned off as far as flags allow.
Console messages come from ``--enable-logging=stderr`` (lines
``...:CONSOLE:N] "message", source: URL (N)``); the page's network requests
from the NetLog (``--log-net-log``): those whose site is the page's own
``file://`` site, so that Chromium's own requests are not counted. Loads of
``file:`` URLs do not appear in the NetLog; a page must be checked for them
in its DOM. Dev-time and test helper (tests/analysis/test_browser.py,
tools/readme_pictures.py), not part of the package; Debian's package is
``chromium``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field

NAMES = ("chromium", "chromium-browser")

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--disable-default-apps", "--hide-scrollbars", "--mute-audio",
    "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
    "--force-device-scale-factor=1",
]

_CONSOLE = re.compile(r":CONSOLE[:(]\d+\)?\] (.*)$")


class ChromiumError(RuntimeError):
    """Chromium did not run to the end (not installed, crashed, timed out)."""


@dataclass
class Rendered:
    """What one headless run of a page gave."""

    dom: str                                   # --dump-dom: the DOM after loading
    screenshot: bytes | None                   # PNG bytes, when a window size was given
    console: list[str] = field(default_factory=list)    # console messages, as logged
    requests: list[str] = field(default_factory=list)   # URLs the page asked the network for
    stderr: str = ""


def find_chromium() -> str | None:
    """The Chromium executable on PATH, or None."""
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def _page_requests(netlog_path: str) -> list[str]:
    try:
        with open(netlog_path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError:
        raise ChromiumError("chromium wrote no NetLog") from None
    try:
        log = json.loads(text)
    except json.JSONDecodeError:
        # a NetLog cut short (Chromium killed) ends without its closing brackets
        log = json.loads(text.rstrip().rstrip(",") + "]}")
    start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    urls = []
    for event in log.get("events", ()):
        params = event.get("params") or {}
        if event.get("type") != start_job or "url" not in params:
            continue
        site = params.get("site_for_cookies", "") + " " + params.get("network_isolation_key", "")
        if "file://" in site:
            urls.append(params["url"])
    return urls


def render(path: str, window: tuple[int, int] | None = None, timeout: float = 60.0,
           executable: str | None = None) -> Rendered:
    """Load the local file ``path`` headless: its DOM, console messages and
    network requests, and with ``window`` (width, height in CSS pixels) a
    screenshot of that size."""
    executable = executable or find_chromium()
    if executable is None:
        raise ChromiumError("chromium is not installed (Debian: apt-get install chromium)")
    url = "file://" + os.path.abspath(path)
    with tempfile.TemporaryDirectory(prefix="amdgpu-tools-chromium-") as scratch:
        netlog = os.path.join(scratch, "netlog.json")
        shot = os.path.join(scratch, "screenshot.png")
        command = [executable, *FLAGS, f"--user-data-dir={os.path.join(scratch, 'profile')}",
                   "--enable-logging=stderr", "--v=0", f"--log-net-log={netlog}", "--dump-dom"]
        if window is not None:
            command += [f"--window-size={window[0]},{window[1]}", f"--screenshot={shot}"]
        command.append(url)
        try:
            done = subprocess.run(command, capture_output=True, timeout=timeout,
                                  env={**os.environ, "LANG": "C.UTF-8"})
        except subprocess.TimeoutExpired:
            raise ChromiumError(f"chromium did not finish {url} in {timeout:g} s") from None
        stderr = done.stderr.decode("utf-8", "replace")
        if done.returncode != 0:
            tail = stderr.strip().splitlines()[-1:] or ["no output"]
            raise ChromiumError(f"chromium exited with {done.returncode}: {tail[0]}")
        screenshot = None
        if window is not None:
            if not os.path.exists(shot):
                raise ChromiumError("chromium wrote no screenshot")
            with open(shot, "rb") as handle:
                screenshot = handle.read()
        console = [m.group(1) for m in map(_CONSOLE.search, stderr.splitlines()) if m]
        return Rendered(dom=done.stdout.decode("utf-8", "replace"), screenshot=screenshot,
                        console=console, requests=_page_requests(netlog), stderr=stderr)
