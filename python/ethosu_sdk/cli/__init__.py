"""Command-line tools of the SDK."""
