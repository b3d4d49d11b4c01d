"""elf package."""
