"""The production install holds no test tools: requirements.txt is what the product runs on, and
requirements-dev.txt adds the tools that develop and test it. Both are pinned."""

import ast
import re
from pathlib import Path

from tests.source import parse

ROOT = Path(__file__).resolve().parent.parent
TEST_TOOLS = {"pytest", "pytest-django", "pytest-xdist", "hypothesis", "playwright", "ruff"}
PRODUCT_PACKAGES = ("audit", "cage", "config", "core", "events", "reports")


def pins(name):
    lines = (ROOT / name).read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith(("#", "-r "))]


def test_every_requirement_is_pinned():
    for name in ("requirements.txt", "requirements-dev.txt"):
        for line in pins(name):
            assert re.fullmatch(r"[A-Za-z0-9_.\-]+==[0-9][A-Za-z0-9.]*", line), f"{name}: {line} is not pinned"


def test_running_needs_no_test_tool():
    running = {line.split("==")[0].lower() for line in pins("requirements.txt")}
    testing = {line.split("==")[0].lower() for line in pins("requirements-dev.txt")}
    assert not running & TEST_TOOLS
    assert TEST_TOOLS <= testing
    assert (ROOT / "requirements-dev.txt").read_text().count("-r requirements.txt") == 1


def test_the_product_imports_no_test_tool():
    modules = {tool.replace("-", "_") for tool in TEST_TOOLS} | {"pytest_django", "xdist"}
    for package in PRODUCT_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    assert name.split(".")[0] not in modules, f"{path.relative_to(ROOT)} imports {name}"
