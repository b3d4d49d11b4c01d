"""exec package."""
