"""Entry point of every py_pytest target: runs pytest on the files given."""

import sys

import pytest

if __name__ == "__main__":
    # No cache directory: the runfiles tree is read-only.
    sys.exit(pytest.main(["-p", "no:cacheprovider", "-q", *sys.argv[1:]]))
