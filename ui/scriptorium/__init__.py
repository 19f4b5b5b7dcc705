"""The scriptorium page's helpers."""
