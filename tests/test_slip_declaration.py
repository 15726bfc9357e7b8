"""A slip type is one declaration (cage.slip_types): nothing else in the product names a slip type
to decide what to do with it; pages, sheets and services ask the declaration what a slip does."""

import inspect
import re
from pathlib import Path

from cage import services
from cage.models import SlipType
from cage.slip_types import SLIP_KINDS

ROOT = Path(__file__).resolve().parents[1]
NAMED = re.compile(r"\bSlipType\.[A-Z_]+\b")
# The declaration, and the models whose choices list the types.
DECLARATION = {"cage/slip_types.py", "cage/models.py"}


def named_types(files) -> list[str]:
    return [
        f"{where}:{n}: {match.group()}"
        for where, text in files
        for n, line in enumerate(text.splitlines(), 1)
        for match in NAMED.finditer(line)
    ]


def _product_files():
    for package in ("audit", "cage", "core", "events", "reports", "config"):
        for path in sorted((ROOT / package).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if "migrations" not in path.parts and where not in DECLARATION:
                yield where, path.read_text()


def test_no_slip_type_is_named_outside_its_declaration():
    assert named_types(_product_files()) == []


def test_the_check_finds_a_slip_type_named():
    assert named_types([("x.py", "if slip.slip_type == SlipType.FILL:\n")]) == ["x.py:1: SlipType.FILL"]


def test_every_slip_type_is_declared_with_a_service_that_records_it():
    assert set(SLIP_KINDS) == {t.value for t in SlipType}
    for kind in SLIP_KINDS.values():
        service = getattr(services, kind.service)
        assert service.__name__ == kind.service
        assert "day" in inspect.signature(service).parameters
