"""The parable page's words."""
