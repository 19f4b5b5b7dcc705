"""What the app and the command line offer: the archive, the benchmark, the CLI."""
