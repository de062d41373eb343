# The type of the module //python/ethosu_sdk:board_table generates from the
# boards' descriptors (platforms/boards/<board>.bzl): a source checkout has
# no board_table.py, so mypy reads this.
from typing import Any

BOARDS: dict[str, dict[str, Any]]
