"""No bad file gives a traceback: random damage to the example is either imported or refused
with problem lines, and a refused import leaves nothing behind."""

import copy
import json

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cage.importer import ImportFailed, import_records
from events.models import Event
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.django_db
EXAMPLE = json.loads((EXAMPLES / "lakeside-one-day.json").read_text())

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True),
    st.text(max_size=8),
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
