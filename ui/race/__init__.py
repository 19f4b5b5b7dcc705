"""The race page's helpers."""
