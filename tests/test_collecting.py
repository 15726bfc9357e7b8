"""The cycle collector kept out of the way of an import (core.collecting), and put back as it was."""

import gc

import pytest

from cage.importer import ImportFailed, import_records
from core.collecting import THRESHOLD, few_collections
from tests.records_generator import generated_event


def test_within_the_block_the_collector_runs_rarely_and_what_was_held_is_set_aside():
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with few_collections():
        assert gc.get_threshold() == THRESHOLD
        assert gc.get_freeze_count() > frozen
        # Nested (a file's bytes read, then its records imported): the outer block's settings stand.
        with few_collections():
            assert gc.get_threshold() == THRESHOLD
        assert gc.get_threshold() == THRESHOLD
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen


def test_an_error_in_the_block_puts_the_collector_back_too():
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with pytest.raises(ValueError), few_collections():
        raise ValueError("refused")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen


def test_two_threads_in_and_out_in_any_order_leave_it_as_the_first_found_it():
    before = gc.get_threshold()
    first, second = few_collections(), few_collections()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # the first out is not the last: the second still imports
    assert gc.get_threshold() == THRESHOLD
    second.__exit__(None, None, None)
    assert gc.get_threshold() == before


@pytest.mark.django_db
def test_an_import_and_a_refused_one_leave_the_collector_as_they_found_it():
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    data = generated_event(seed=5, days=1, records_per_day=8, tables=2)
    data["event"]["slug"] = "collector"
    import_records(data)
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
    with pytest.raises(ImportFailed):
        import_records(data)  # the same event again: refused
    assert gc.get_threshold() == before and gc.get_freeze_count() == frozen
