"""No function of the product is longer than 80 lines (docs/architecture.md): services and
selectors do the work in small steps, forms clean, views call."""

import ast
from pathlib import Path

from tests.source import parse

ROOT = Path(__file__).resolve().parents[1]
LONGEST = 80


def _functions(path: Path):
    for node in ast.walk(parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.name, node.end_lineno - node.lineno + 1


def test_no_function_is_longer_than_80_lines():
    long = [
        f"{path.relative_to(ROOT)}: {name} ({lines} lines)"
        for package in ("core", "events", "audit", "cage", "reports", "config")
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
        for name, lines in _functions(path)
        if lines > LONGEST
    ]
    assert not long, long


def test_the_count_sees_a_long_function(tmp_path):
    module = tmp_path / "long.py"
    module.write_text("def f():\n" + "    x = 1\n" * LONGEST)
    assert [lines for _name, lines in _functions(module)] == [LONGEST + 1]
