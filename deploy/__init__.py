"""The recipe for replicas behind a proxy: deploy/replicas.py, nginx's site template, a compose file (docs/class-server.md)."""
