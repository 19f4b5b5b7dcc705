"""The iron rule page's helpers."""
