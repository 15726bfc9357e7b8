"""No bad file gives a traceback: random damage to the example is either imported or refused
with problem lines, and a refused import leaves nothing behind.

The damage includes what no person types and no records file holds: numbers out of range, 1e30,
NaN and Infinity, full-width and other scripts' digits, negative zero, a leading +, surrounding
spaces, NUL and control characters, unpaired surrogates, 100,000-character strings, deep nesting;
and, in the file's bytes, what is not UTF-8, duplicate keys and 100,000 levels of [[[...]]].
"""

import copy
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cage.importer import ImportFailed, import_bytes, import_records
from events.models import Event
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.django_db
EXAMPLE = json.loads((EXAMPLES / "lakeside-one-day.json").read_text())


def nested(depth: int, leaf=1):
    """[[[...leaf...]]], built without recursion."""
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


# What no person types: refused with a problem line wherever it is put.
HOSTILE = [
    10**30,
    10**5000,
    -(10**30),
    1e30,
    float("nan"),
    float("inf"),
    float("-inf"),
    -0.0,
    "１２３",
    "٣",
    "²",
    "1e30",
    "NaN",
    "Infinity",
    "+5",
    " 5",
    "5 ",
    "-0",
    "a\x00b",
    "\x00",
    "\ud800",
    "x" * 100_000,
    "9" * 100_000,
    "\x1b[2J",
    nested(50),
    {"": nested(20)},
]

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.text(st.characters(categories=["Nd", "No", "Cc", "Cs"]), min_size=1, max_size=4),
    st.sampled_from(HOSTILE),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from paths(value, prefix + (i,))


ALL_PATHS = [p for p in paths(EXAMPLE) if p]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(damage=st.lists(st.tuples(st.sampled_from(ALL_PATHS), junk, st.booleans()), min_size=1, max_size=3))
def test_damaged_files_are_imported_or_refused_never_crash(db, damage):
    data = copy.deepcopy(EXAMPLE)
    for path, value, delete in damage:
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            if delete and isinstance(parent, dict):
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    with transaction.atomic():
        try:
            import_records(data)
        except ImportFailed as failed:
            assert failed.problems and all(isinstance(line, str) and line for line in failed.problems)
            assert not Event.objects.exists()
        transaction.set_rollback(True)


def refused(data) -> list[str]:
    """The problem lines of an import that must fail; nothing of it is left behind."""
    with transaction.atomic():
        with pytest.raises(ImportFailed) as failed:
            import_records(data) if not isinstance(data, bytes) else import_bytes(data)
        assert not Event.objects.exists()
        transaction.set_rollback(True)
    problems = failed.value.problems
    assert problems and all(isinstance(line, str) and 0 < len(line) < 600 for line in problems)
    return problems


# The example cut to its setup and three records (two early ones and the tip payout, whose
# hours are read before anything is paid): quick to import up to each leaf below.
SHORT = copy.deepcopy(EXAMPLE)
SHORT["days"][0]["records"] = [
    *EXAMPLE["days"][0]["records"][:2],
    next(r for r in EXAMPLE["days"][0]["records"] if r["type"] == "tip_payout"),
]


def example_with(path, value, example=SHORT):
    data = copy.deepcopy(example)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return data


# A leaf of each kind the format has: setup text, a date, a role, a chip key, a count, cash, a
# signer, a record's time, hours, a reason.
LEAVES = [
    ("event", "name"),
    ("event", "licensee"),
    ("event", "chip_denominations", 1),
    ("people", 0, "born_on"),
    ("people", 0, "roles", 0),
    ("people", 0, "supplier_associated"),
    ("tables", 0, "game"),
    ("days", 0, "date"),
    ("days", 0, "records", 0, "at"),
    ("days", 0, "records", 0, "chips", "5"),
    ("days", 0, "records", 1, "cash"),
    ("days", 0, "records", 1, "signed", "received_by"),
]
LEAVES.append(("days", 0, "records", 2, "hours", "dana"))


def is_text(value) -> bool:
    """Taken as a name: printable text of at most 200 characters ("NaN" or "１２３" is a name too)."""
    return isinstance(value, str) and value.isprintable() and 0 < len(value.strip()) and len(value) <= 200


def ident(value) -> str:
    try:
        return repr(value)[:16]
    except ValueError:  # an int of more than 4,300 digits has no repr
        return f"int of {value.bit_length()} bits"


@pytest.mark.parametrize("value", HOSTILE, ids=ident)
def test_what_no_person_types_is_refused_at_every_kind_of_field(db, value):
    for path in LEAVES:
        if path[-1] in ("name", "licensee") and is_text(value):
            continue
        problems = refused(example_with(path, value))
        assert all(line.endswith(")") for line in problems), problems  # each line names its rule


@pytest.mark.parametrize(
    "raw,says",
    [
        (b'{"format": "cage-records/1", "event": \xff}', "is not UTF-8"),
        ("\u00e9".encode("latin-1") + b"{}", "is not UTF-8"),
        (b'{"format": "cage-records/1", "format": "cage-records/1"}', 'the key "format" appears twice'),
        (b'{"format": "cage-records/1", "cash": NaN}', "NaN is not a JSON number"),
        (b'{"format": "cage-records/1", "cash": Infinity}', "Infinity is not a JSON number"),
        (b'{"format": "cage-records/1", "cash": -Infinity}', "-Infinity is not a JSON number"),
        (b'{"format": "cage-records/1", "cash": 1e400}', "too large to be read"),
        (b'{"format": "cage-records/1", "cash": ' + b"9" * 5000 + b"}", "a number of 5,000 digits"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"a": ' * 100_000 + b"1" + b"}" * 100_000, "nested too deeply"),
        (b'{"format": "cage-records/1", "event": {"name": "a\\u0000b"}}', "control character U+0000"),
        (b'{"format": "cage-records/1", "event": {"name": "\\ud800"}}', "unpaired surrogate"),
        (b'{"format": "cage-records/1", "event": {"name": "' + b"x" * 100_000 + b'"}}', "100,000 characters"),
        (b'{"format": "cage-records/1"', "not JSON"),
        (b"", "not JSON"),
    ],
    ids=lambda v: v[:24] if isinstance(v, str) else None,
)
def test_a_file_no_records_file_is_refused_with_the_rule(db, raw, says):
    problems = refused(raw)
    assert any(says in line and "cage-records/1" in line for line in problems), problems


def test_a_file_with_a_byte_order_mark_is_read(db):
    with transaction.atomic():
        event = import_bytes(b"\xef\xbb\xbf" + json.dumps(EXAMPLE).encode())
        assert event.slips.exists()
        transaction.set_rollback(True)


def test_the_example_nested_deep_inside_itself_is_refused_without_recursing(db):
    problems = refused(example_with(("days", 0, "records", 0, "chips"), nested(100_000), EXAMPLE))
    assert problems == [
        "days[0].records[0].chips[0][0][0][0][0][0][0]: nested deeper than the 12 levels of a records file "
        "(cage-records/1)"
    ]


def test_the_command_prints_the_problem_and_no_traceback(db, tmp_path: Path, capsys):
    path = tmp_path / "broken.json"
    path.write_bytes(b'{"format": "cage-records/1", "people": [], "people": []}')
    with pytest.raises(CommandError, match="1 problem"):
        call_command("import_records", str(path))
    err = capsys.readouterr().err
    assert 'the key "people" appears twice in one object' in err and "Traceback" not in err


def test_the_characters_refused_as_not_text_are_exactly_unicodes_controls_and_surrogates():
    # records_file.NOT_TEXT finds them with one search: it must hold the same characters as the
    # categories it stands for (Cc but tab, newline and return; Cs), over every code point.
    import unicodedata

    from cage.records_file import NOT_TEXT, TEXT_CONTROLS

    def refused(character):
        category = unicodedata.category(character)
        return (category == "Cc" and character not in TEXT_CONTROLS) or category == "Cs"

    every = map(chr, range(0x110000))
    assert [c for c in every if NOT_TEXT.fullmatch(c)] == [c for c in map(chr, range(0x110000)) if refused(c)]
