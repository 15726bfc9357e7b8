import tempfile
from pathlib import Path

import pytest


@pytest.fixture
def workdir():
    """A directory of the test's own for its database file and server log. Not pytest's tmp_path:
    another pytest session of the same user starting meanwhile may clean old tmp_path directories
    away while this test's server still writes there."""
    with tempfile.TemporaryDirectory(prefix="cage-faults-") as path:
        yield Path(path)
