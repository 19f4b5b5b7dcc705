"""Project scripts: run them as modules from the repository root (python -m tools.NAME)."""
