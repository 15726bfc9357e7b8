"""The layers hold (docs/architecture.md): each part of the product imports only the parts below it,
lazily inside a function or at the top of a module alike, so no import circle runs between apps.

    reports      the figures, the daily sheets, the financial report, the audit trail's pages
    cage         the ledger: accounts, slips, postings, signatures, the hash chains and seals
    audit        the trail's writer
    events       licensee, event, days, people and roles, roster, tables, chip set
    core         money, dates and times in words, refusals, the hash chain's digest, the client's
                 address, the port events writes the audit trail through (core.trail)

The game modules (events/games/) are pure: they import nothing of the product but one another.
"""

import ast
from pathlib import Path

from tests.source import parse

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ["core", "events", "audit", "cage", "reports"]


def _modules(package: str):
    for path in sorted((ROOT / package).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield name, path


def _imports(name: str, path: Path) -> set[str]:
    """Every module `name` imports, at its top or inside a function, as a dotted name."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module
            found.add(module)
            # "from cage import services" imports the module cage.services.
            found.update(f"{module}.{a.name}" for a in node.names if _is_module(f"{module}.{a.name}"))
    return found


def _is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _layer(module: str) -> int | None:
    top = module.split(".")[0]
    return LAYERS.index(top) if top in LAYERS else None


def _arrows_up() -> set[tuple[str, str]]:
    up = set()
    for package in LAYERS:
        for name, path in _modules(package):
            for imported in _imports(name, path):
                below = _layer(imported)
                if below is not None and below > LAYERS.index(package):
                    up.add((name, imported))
    return up


def test_no_arrow_points_up():
    up = sorted(_arrows_up())
    assert not up, f"imports that point up a layer (docs/architecture.md): {up}"


def test_the_game_modules_import_nothing_of_the_product():
    for name, path in _modules("events/games"):
        product = {m for m in _imports(name, path) if _layer(m) is not None and not m.startswith("events.games")}
        assert not product, (name, product)


def test_the_finder_sees_lazy_and_relative_imports(tmp_path):
    """The check itself can fail: an import inside a function and a relative one are both seen."""
    module = tmp_path / "views.py"
    module.write_text("from .models import Slip\n\ndef f():\n    from reports import daily\n")
    assert _imports("cage.views", module) == {"cage.models", "reports", "reports.daily"}
