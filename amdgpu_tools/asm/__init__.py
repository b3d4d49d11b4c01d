"""asm package."""
