"""A model module that fails while it is imported."""

SCALE = 1 / 0


def build() -> None:
    raise AssertionError("never reached")
