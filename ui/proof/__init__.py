"""The proof page's helpers."""
