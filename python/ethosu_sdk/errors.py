"""The one base of every error the SDK raises on purpose.

Each part keeps its own subclass (PteError, ProtocolError, AotError, ...),
often also a ValueError or KeyError for callers that expect those; a CLI or a
test that only needs to know "the SDK refused this, with a reason" catches
SdkError and prints its message as one line.
"""


class SdkError(Exception):
    """A refusal with a message a person can act on (never a bug)."""
