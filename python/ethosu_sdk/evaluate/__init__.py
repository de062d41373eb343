"""Accuracy on labelled data through every stage (issue 35)."""
