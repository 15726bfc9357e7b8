"""The cage in either language: numbers, dates and money as each writes them, refusals translated
whole with their rule cited in the reader's numbering, the importer's problem lines, the slip
on paper, and the pages; English stays as it was."""

import ast
import datetime
import json
import re
import subprocess
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils.translation import override

from cage import services
from cage.importer import ImportFailed, import_records
from cage.records_file import document_problems, load
from cage.services.ledger import chips_label
from core import local
from core.money import AMOUNTS_RULE, count_text, dollars, face, hours_text
from core.rules import RuleViolation
from tests.cage.helpers import roster_dealers, stock
from tests.conftest import EXAMPLES, PASSWORD, Client
from tests.reports.test_exports import poppler  # noqa: F401  (a fixture: skips, or fails, without pdftotext)
from tests.source import parse

ROOT = Path(__file__).resolve().parents[2]
TORONTO = ZoneInfo("America/Toronto")
NBSP = "\u00a0"


def plain(text: str) -> str:
    return text.replace(NBSP, " ").replace("\u202f", " ")


# --- numbers, dates and times ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "language,counts,hours,keys",
    [
        ("en-ca", ["0", "40", "1,000", "1,000,000"], ["4", "3.5", "0.25", "10"], ["5", "0.50"]),
        ("fr-ca", ["0", "40", f"1{NBSP}000", f"1{NBSP}000{NBSP}000"], ["4", "3,5", "0,25", "10"], ["5", "0,50"]),
    ],
)
def test_counts_hours_and_denominations_in_each_language(language, counts, hours, keys):
    with override(language):
        assert [count_text(n) for n in (0, 40, 1000, 1_000_000)] == counts
        assert [hours_text(h) for h in (Decimal("4.00"), "3.50", Decimal("0.25"), Decimal("10"))] == hours
        assert [face(k) for k in ("5", "0.50")] == keys
    # What is not a number of hours is shown as it is, never a 500.
    assert hours_text("n/a") == "n/a" and hours_text(Decimal("NaN")) == "NaN"


def test_chips_and_money_read_as_each_language_writes_them():
    with override("en-ca"):
        assert (chips_label("5"), chips_label("0.50"), dollars(15000)) == ("$5 chips", "$0.50 chips", "$150.00")
    with override("fr-ca"):
        assert (chips_label("5"), chips_label("0.50"), dollars(15000)) == (
            f"jetons de 5{NBSP}$",
            f"jetons de 0,50{NBSP}$",
            f"150,00{NBSP}$",
        )


@pytest.mark.parametrize(
    "language,moment,clock,weekday",
    [
        # English keeps the cage's 24-hour clock (config/formats/en_CA), never "2:30 p.m." or "noon".
        ("en-ca", "2026-09-11 14:30", "14:30", "Friday, 2026-09-11"),
        # French as Canada writes it; Django 5.2's own fr_CA format printed 14:30 as "14 02 30".
        ("fr-ca", f"2026-09-11 14{NBSP}h{NBSP}30", f"14{NBSP}h{NBSP}30", "vendredi 2026-09-11"),
    ],
)
def test_dates_and_times_in_each_language(language, moment, clock, weekday):
    at = datetime.datetime(2026, 9, 11, 18, 30, tzinfo=datetime.UTC)  # 14:30 in Toronto
    with override(language):
        assert local.moment(at) == moment
        assert local.clock(at) == clock
        assert local.clock(datetime.time(12, 0)) == clock.replace("14", "12").replace("30", "00")
        assert local.day(datetime.date(2026, 9, 11)) == "2026-09-11"
        assert local.weekday(datetime.date(2026, 9, 11)) == weekday
        # The cage's clock keeps its leading zero; French writes the hour without one ("1 h 00").
        assert local.moment(datetime.datetime(2026, 9, 11, 0, 5, tzinfo=TORONTO)).endswith(
            "00:05" if language == "en-ca" else f" 0{NBSP}h{NBSP}05"
        )
        assert local.clock(datetime.time(1, 0)) == ("01:00" if language == "en-ca" else f"1{NBSP}h{NBSP}00")


def test_the_template_filters_cite_the_rule_and_write_the_denomination():
    template = Template(
        '{% load i18n cage_i18n %}{% blocktranslate with rule="T&C 2.6"|cite %}({{ rule }}){% endblocktranslate %}'
        "|{{ key|face }}"
    )
    with override("en-ca"):
        assert template.render(Context({"key": "0.50"})) == "(T&amp;C 2.6)|0.50"
    with override("fr-ca"):
        assert template.render(Context({"key": "0.50"})) == "(M&amp;C 2.7)|0,50"


# --- refusals -----------------------------------------------------------------------------------


def test_a_refusal_translates_whole_and_cites_the_french_numbering(cast):
    stock(cast)
    roster_dealers(cast)
    with override("fr-ca"), pytest.raises(RuleViolation) as refused:
        services.tip_payout(
            day=cast.day,
            hours=[(cast.dealer, Decimal("4"))],
            signed=cast.signed(paid_by="general_cashier", verified_by="chip_cashier"),
            allow_pending=True,
        )
    assert str(refused.value) == "la cagnotte des pourboires est vide\u00a0; il n’y a rien à verser (M&C 2.7)"
    # The audit trail and machines keep the rule in English.
    assert refused.value.rule == refused.value.rule_reference == "T&C 2.6"


def test_a_rule_of_the_product_is_named_in_the_reader_language_and_kept_in_english(cast):
    stock(cast, chips={"1": 10}, cash=1000)
    bank = services.account_get(cast.event, "bank_cash")
    signed = cast.signed(counted_by="general_cashier", verified_by="chip_cashier")
    with override("fr-ca"), pytest.raises(RuleViolation) as refused:
        services.count(day=cast.day, account=bank, cash=900, signed=signed)
    assert plain(str(refused.value)) == (
        "encaisse : le comptage diffère des livres de -1,00 $ en argent (manque) ; un écart exige un motif "
        "(rapprochement de fin de journée : chaque écart expliqué et signé)"
    )
    assert refused.value.rule_reference == "nightly reconciliation: every variance explained and signed"
    with override("fr-ca"), pytest.raises(RuleViolation) as refused:
        services.sale(day=cast.day, chips={"1": 2}, cash=-5, signed=cast.signed(sold_by="chip_cashier"))
    assert plain(str(refused.value)) == "l’argent doit être un montant positif en dollars (montants)"
    with pytest.raises(RuleViolation) as refused:
        services.sale(day=cast.day, chips={"1": 2}, cash=-5, signed=cast.signed(sold_by="chip_cashier"))
    assert str(refused.value) == "cash must be a positive amount of dollars (amounts)"


def test_amounts_rule_is_lazy_and_english_for_the_audit_trail():
    with override("fr-ca"):
        violation = RuleViolation("x", AMOUNTS_RULE)
    assert plain(violation.text) == "x (cage-records/1 : montants)"
    assert violation.rule_reference == "cage-records/1: amounts"


# --- the records file's problem lines --------------------------------------------------------------


def example():
    return json.loads((EXAMPLES / "lakeside-one-day.json").read_text())


@pytest.mark.django_db
def test_the_importer_problem_lines_in_french_keep_the_file_names_and_the_rule_numbering():
    data = example()
    data["days"][0]["records"][8].update(cash="1501.00")  # record 9: a sale of $1,500.00 in chips
    born_on = data["people"][0]["born_on"]
    data["people"][0]["born_on"] = "not a date"
    with override("fr-ca"), pytest.raises(ImportFailed) as failed:
        import_records(data)
    assert plain(failed.value.problems[0]) == "people[0].born_on : une date (AAAA-MM-JJ) est requise (cage-records/1)"
    data["people"][0]["born_on"] = born_on
    with override("fr-ca"), pytest.raises(ImportFailed) as failed:
        import_records(data)
    assert plain(failed.value.problems[0]) == (
        "enregistrement 9 (2026-09-11, sale) : une vente de 1 500,00 $ en jetons doit se faire pour 1 500,00 $ en "
        "argent, et non 1 501,00 $ : les jetons se vendent contre des devises canadiennes à leur valeur nominale "
        "(M&C 3.6)"
    )
    # In English, as the records format's documentation writes them.
    with pytest.raises(ImportFailed) as failed:
        import_records(data)
    assert failed.value.problems[0] == (
        "record 9 (2026-09-11, sale): a sale of $1,500.00 in chips must be for $1,500.00 cash, not $1,501.00: "
        "chips are sold for Canadian currency at face value (T&C 3.6)"
    )


def test_a_records_file_that_no_reader_takes_is_refused_in_french():
    with override("fr-ca"):
        with pytest.raises(ValueError) as refused:
            load(b'{"a": 1, "a": 2}')
        problems = document_problems({"format": "x\x00"})
    assert plain(str(refused.value)) == (
        'file : la clé "a" figure deux fois dans un même objet ; chaque clé d’un objet figure une seule fois '
        "(cage-records/1)"
    )
    assert [plain(p) for p in problems] == [
        "format : le caractère de commande U+0000 n’est pas du texte (cage-records/1)"
    ]


# --- the pages and the slip on paper ----------------------------------------------------------------


def french(cast, persona="chip_cashier"):
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-CA")
    client.login(username=getattr(cast, persona).user.username, password=PASSWORD)
    return client


def test_the_slip_on_paper_is_in_the_language_of_the_request(cast, poppler, tmp_path):  # noqa: F811
    stock(cast)
    slip = services.sale(
        day=cast.day, chips={"5": 30}, cash=15000, signed=cast.signed(sold_by="chip_cashier"), allow_pending=True
    )
    url = reverse("cage:slip_pdf", args=[cast.event.slug, slip.pk])

    def text(client):
        pdf = tmp_path / "slip.pdf"
        pdf.write_bytes(client.get(url).content)
        return plain(subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True).stdout)

    in_french = text(french(cast))
    for words in ("Vente de jetons 1", "Journée de jeu du vendredi 2026-09-11", "jetons de 5 $", "150,00 $"):
        assert words in in_french, words
    assert "Total de la fiche" in in_french and "Autorisé par (RDR)" in in_french
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.login(username=cast.chip_cashier.user.username, password=PASSWORD)
    in_english = text(english)
    for words in ("Chip sale 1", "Gaming day Friday, 2026-09-11", "$5 chips", "$150.00", "Slip total"):
        assert words in in_english, words
    assert "150,00" not in in_english


def test_the_queue_and_the_slip_form_in_french(cast):
    stock(cast)
    client = french(cast, "dric")
    queue = client.get(reverse("cage:queue", args=[cast.event.slug])).text
    assert "File du RDR" in queue and "(M&amp;C 2.1)" in queue and "T&amp;C" not in queue
    form = client.get(reverse("cage:slip_new", args=[cast.event.slug, "sale"])).text
    assert "Vente de jetons" in form and f"0,00{NBSP}$" in form and "$0.00" not in form


def test_the_cage_home_names_each_table_game_in_french(cast):
    home = french(cast).get(reverse("cage:home", args=[cast.event.slug])).text
    assert "Roue de la fortune" in home and "Wheel of Fortune" not in home
    panels = french(cast).get(reverse("cage:home_panels", args=[cast.event.slug])).text
    assert "Roue de la fortune" in panels and "Wheel of Fortune" not in panels


# --- the catalogue sees every marked string --------------------------------------------------------


def test_no_cage_module_hides_a_marked_string_from_makemessages():
    """makemessages reads gettext_lazy, pgettext_lazy, _ and the like by name: a string marked with
    `gettext_lazy as _lazy` is never extracted, so it stays English in French without any test
    failing. The cage imports them under names makemessages reads."""
    readable = {"_", "gettext", "gettext_lazy", "gettext_noop", "N_", "ngettext", "ngettext_lazy"}
    readable |= {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}
    hidden = []
    for path in sorted((ROOT / "cage").rglob("*.py")):
        for node in ast.walk(parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
                for alias in node.names:
                    if alias.asname and alias.asname not in readable:
                        hidden.append(f"{path.relative_to(ROOT)}: {alias.name} as {alias.asname}")
    assert not hidden


def test_no_rule_of_the_cage_mixes_a_section_with_words():
    """A rule is a bare section ("T&C 2.6") or the product's own words, never both: the words
    would not be translated with a section, nor the section renumbered inside translated words."""
    mixed = re.compile(r'RuleViolation\([^)]*?"T&C [0-9., ]+[:;][^"]*"', re.S)
    found = []
    for path in sorted((ROOT / "cage").rglob("*.py")):
        found += [f"{path.relative_to(ROOT)}: {m.group(0)[-60:]}" for m in mixed.finditer(path.read_text())]
    assert not found


def test_at_the_window_an_amount_refusal_cites_a_limit_a_cashier_knows(cast):
    """The form and the window's services cite "the amount limits of a slip or count" in the reader's
    language, never the records format's section; the importer keeps citing the format."""
    from core.money import AMOUNT_LIMITS_RULE, parse_cash

    with override("fr-ca"), pytest.raises(RuleViolation) as refused:
        parse_cash("1,250")
    assert plain(str(refused.value)).endswith("(limites de montant d’une fiche ou d’un comptage)")
    assert "cage-records" not in str(refused.value)
    assert refused.value.rule_reference == str(AMOUNT_LIMITS_RULE) == "amount limits of a slip or count"
    with pytest.raises(RuleViolation) as refused:
        services.sale(day=cast.day, chips={"1": 10**7}, cash=100, signed=cast.signed(sold_by="chip_cashier"))
    assert str(refused.value).endswith("(amount limits of a slip or count)")
