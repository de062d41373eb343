"""A persistent Bazel worker for the SDK's Python build tools (server.py)."""
