"""Every refusal names itself (core.rules.RuleViolation.code): each `RuleViolation(...)` the product
makes says `code=`, each code is written "area.what" (lowercase, dotted, snake_case), and one code
is one refusal: two refusals with different sentences never share a code (the same refusal made
in two places may). Read from the sources, as tests/test_function_length.py reads them."""

import ast
import re
from collections import defaultdict
from pathlib import Path

from tests.source import parse

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "events", "audit", "cage", "reports", "config")


CODE = re.compile(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+")
# What wraps a sentence's English template: Words("..."), N_("..."), N_plural("...", "..."), and the
# first sentence of Several(...).
WRAPPERS = {"Words", "N_", "N_plural", "Several", "_", "gettext", "gettext_lazy", "_lazy"}
# Helpers that make a RuleViolation from a sentence and a code given as their arguments
# (core.money.refusal(message, code)): the position of the code among the arguments.
HELPERS = {"refusal": 1}


def _name(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def msgid(node: ast.expr | None) -> str | None:
    """The English template of a refusal's sentence where the source writes it out; else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Call) and _name(node.func) in WRAPPERS and node.args:
        return msgid(node.args[0])
    return None


def _is_super_init(node: ast.Call) -> bool:
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "__init__"
        and isinstance(func.value, ast.Call)
        and _name(func.value.func) == "super"
    )


def refusals(source: str):
    """(line, code node or None, the sentence's node) of each refusal made in `source`: a call of
    RuleViolation, of a helper that makes one (HELPERS), or a subclass's super().__init__."""
    tree = parse(source)
    subclass_inits = set()
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef) and any(_name(base) == "RuleViolation" for base in cls.bases):
            subclass_inits.update(id(n) for n in ast.walk(cls) if isinstance(n, ast.Call) and _is_super_init(n))
    for node in sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)), key=lambda n: n.lineno):
        name = _name(node.func)
        code = next((k.value for k in node.keywords if k.arg == "code"), None)
        first = node.args[0] if node.args else None
        if name == "RuleViolation" or id(node) in subclass_inits:
            yield node.lineno, code, first
        elif name in HELPERS and code is None and len(node.args) > HELPERS[name]:
            yield node.lineno, node.args[HELPERS[name]], first


def _sources():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), path.read_text()


def without_code(sources) -> list[str]:
    return [
        f"{where}:{line}"
        for where, source in sources
        for line, code, _sentence in refusals(source)
        if code is None or (isinstance(code, ast.Constant) and code.value is None)
    ]


def badly_written(sources) -> list[str]:
    return [
        f"{where}:{line}: {code.value!r}"
        for where, source in sources
        for line, code, _sentence in refusals(source)
        if isinstance(code, ast.Constant) and isinstance(code.value, str) and not CODE.fullmatch(code.value)
    ]


def shared(sources) -> dict[str, list[str]]:
    """The codes given to refusals with different sentences, each with where they are made."""
    sentences = defaultdict(dict)
    for where, source in sources:
        for line, code, sentence in refusals(source):
            said = msgid(sentence)
            if isinstance(code, ast.Constant) and isinstance(code.value, str) and said is not None:
                sentences[code.value].setdefault(said, f"{where}:{line}")
    return {code: sorted(said.values()) for code, said in sentences.items() if len(said) > 1}


def test_every_refusal_says_its_code():
    missing = without_code(_sources())
    assert not missing, f"RuleViolation without code=: {missing}"


def test_every_code_is_area_dot_what():
    assert not badly_written(_sources())


def test_one_code_is_one_refusal():
    assert not shared(list(_sources()))


# --- the checks see what they look for -------------------------------------------------------------

SAMPLE = """
class Unavailable(RuleViolation):
    def __init__(self):
        super().__init__(_("nothing was done"), RULE)

def f():
    raise RuleViolation(Words(N_("%(name)s is not on this event"), name=n), "T&C 2", code="person.not_on_event")

def g():
    raise RuleViolation(Words(N_("%(name)s is not on this event")), "T&C 2", code="person.not_on_event")

def h():
    raise RuleViolation(Words(N_("%(name)s is not on the roster")), "T&C 2", code="person.not_on_event")

def i():
    raise RuleViolation("plain", RULE, field="x")

def j():
    raise refusal(Words(N_("Enter an amount")), "Required")
"""


def test_the_checks_see_a_missing_code_a_shared_one_and_a_badly_written_one():
    sources = [("sample.py", SAMPLE)]
    assert without_code(sources) == ["sample.py:4", "sample.py:16"]
    assert shared(sources) == {"person.not_on_event": ["sample.py:13", "sample.py:7"]}
    assert badly_written(sources) == ["sample.py:19: 'Required'"]
