"""The archive page's helpers."""
