"""What every page shares: the sidebar, the language and its words, the theme, cached models and runs, compute slots."""
