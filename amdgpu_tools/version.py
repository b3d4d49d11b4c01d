"""The package version (pyproject.toml has the same number), in a module of its own:
the linker writes it into .comment without importing the package's API."""

__version__ = "0.1.0"
