"""The run report: Vela's per-layer estimates, the delegation map and the
board run's figures as one self-contained HTML page with PNG charts."""
