"""Decoding with real models: one sequence with caches, or many at once for the proof."""
