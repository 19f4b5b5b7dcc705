"""The speed lab page's helpers."""
