"""The package list of pyproject.toml names every package of the source tree:
an editable install finds any of them, but ``pip install .`` ships only those
listed, and a missing one breaks the installed toolchain at import."""

import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_every_package_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {".".join(path.parent.relative_to(ROOT).parts)
             for path in (ROOT / "amdgpu_tools").rglob("__init__.py")}
    found |= set(config.get("package-dir", {}))        # packages that live elsewhere
    assert found == listed, (sorted(found - listed), sorted(listed - found))
