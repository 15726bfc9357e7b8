"""Each slip type's fields are declared once (cage.slip_fields) and read by the form, the importer,
the exporter and the printed slip alike."""

import pytest

from cage.slip_fields import ORDER, PRINTED, RECORD_KEYS, Chips, Reason
from cage.slip_types import CHIPS, REASON, SLIP_KINDS, TABLE


def test_every_kind_names_each_of_its_fields_once_in_the_forms_order():
    for kind in SLIP_KINDS.values():
        names = [f.name for f in kind.fields]
        assert len(names) == len(set(names)), kind.type
        assert names == sorted(names, key=ORDER.index), kind.type


def test_takes_answers_by_the_fields_name():
    fill = SLIP_KINDS["fill"]
    assert fill.takes(TABLE) and fill.takes(CHIPS) and not fill.takes(REASON)
    assert not SLIP_KINDS["close_day"].fields


def test_a_count_asks_for_details_where_a_void_asks_for_a_reason():
    count = next(f for f in SLIP_KINDS["count"].fields if isinstance(f, Reason))
    void = next(f for f in SLIP_KINDS["void"].fields if isinstance(f, Reason))
    assert (str(count.label), str(void.label)) == ("Details", "Reason")


class _Reader:
    """The importer's side a field reads a record with, for a record that needs no lookup."""


@pytest.mark.parametrize(
    "kind, record, chips",
    [
        ("runner_return", {}, {}),  # a runner who brings back cash only
        ("count", {}, None),  # a count of bank cash, in bills and coins
        ("runner_return", {"chips": {"5": 2}}, {"5": 2}),
    ],
)
def test_chips_a_record_leaves_out_mean_what_the_kind_says(kind, record, chips):
    field = next(f for f in SLIP_KINDS[kind].fields if isinstance(f, Chips))
    assert field.from_record(_Reader(), SLIP_KINDS[kind], record, {}) == {"chips": chips}


def test_chips_a_fill_leaves_out_are_refused_with_the_formats_section():
    from core.rules import RuleViolation

    field = next(f for f in SLIP_KINDS["fill"].fields if isinstance(f, Chips))
    with pytest.raises(RuleViolation) as refused:
        field.from_record(_Reader(), SLIP_KINDS["fill"], {}, {})
    assert "chips: required" in str(refused.value) and refused.value.rule_reference == "cage-records/1"


def test_an_exported_record_keeps_the_formats_order_of_keys():
    assert RECORD_KEYS.index("reason") < RECORD_KEYS.index("variance_reason") < RECORD_KEYS.index("cash_lines")
    # A fill's or credit's note (an extension, issue 25) comes last, after the format's own keys.
    assert RECORD_KEYS[-1] == "note"
    assert {f.name for f in PRINTED} == {
        "table",
        "to_table",
        "runner",
        "account",
        "place",
        "hours",
        "expense",
        "missing_chips",
        "note",
    }
