"""Host side of a firmware run: launch a simulated board, watch its console."""
