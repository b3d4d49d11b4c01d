"""link package."""
