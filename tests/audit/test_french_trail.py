"""The audit trail read in French, on the page and in its CSV: capacities, places, chips, codes,
outcomes, roles and channels by their French names; times in the event's local time, to the
minute, in the product's format; summaries as whole French sentences. The CSV keeps beside them
the columns machines read: the action's code, the exact ISO time, the old and new values as JSON."""

import csv
import io
import re

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from cage.slip_types import CAPACITY_LABELS
from tests.cage.helpers import count_short_and_close
from tests.conftest import PASSWORD, Client

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

NBSP = "\u00a0"
FRENCH = "fr-CA,fr;q=0.9"
# Columns people read; the others (ISO time, action code, login, JSON) are for machines.
HUMAN = ["Quand", "Qui", "Action", "Résultat", "Quoi", "Règle", "Avant et après", "De", "Personne", "Rôles", "Par"]
MACHINE = ["Quand (ISO 8601)", "Code de l’action", "Compte", "Avant", "Après"]
CODES = [
    "chip_bank",
    "bank_cash",
    "missing_chips",
    "event_report",
    "audit_trail",
    "general_cashier",
    "chip_cashier",
    "counted_by",
    "chips:1",
    "done",
    "refused",
    "command",
]
ENGLISH_CAPACITIES = [str(label) for label in CAPACITY_LABELS.values()]  # "Prepared by", … (no language active)
ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d|\d\d:\d\d:\d\d")


@pytest.fixture
def trail(cast):
    """A day of the cage on the trail: stock in, a count two $1 chips short (missing chips), the
    day closed, the report exported; and a refused sale."""
    count_short_and_close(cast)
    client = Client(HTTP_ACCEPT_LANGUAGE=FRENCH)
    assert client.login(username=cast.dric.user.username, password=PASSWORD)
    client.get(reverse("reports:event_json", args=[cast.event.slug]))
    return client


def identifiers(cast) -> list[str]:
    """The test people's ids and logins ("chip_cashier", "lakeside-chip_cashier"): names, not codes."""
    people = list(cast.event.people.select_related("user"))
    names = [p.user.username for p in people if p.user] + [p.code for p in people]
    return sorted(names, key=len, reverse=True)


def trail_url(cast, **query):
    url = reverse("audit:event", args=[cast.event.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def french_csv(client, cast) -> list[dict]:
    response = client.get(trail_url(cast, export="csv"))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:8] == HUMAN[:8] and all(name in rows[0] for name in HUMAN + MACHINE), rows[0]
    return [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]


def test_the_french_csv_speaks_french_in_every_column_people_read(trail, cast):
    rows = french_csv(trail, cast)
    logins = identifiers(cast)
    for row in rows:
        human = " | ".join(row[name] for name in HUMAN)
        for login in logins:
            human = human.replace(login, "")
        assert not ISO_TIME.search(human), human
        assert not any(re.search(rf"\b{re.escape(code)}\b", human) for code in CODES), human
        assert not any(label in human for label in ENGLISH_CAPACITIES), human
        # Machines keep the exact time and the code.
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d", row["Quand (ISO 8601)"])
        assert re.fullmatch(r"[a-z_]+", row["Code de l’action"])
        assert re.fullmatch(rf"\d{{4}}-\d\d-\d\d \d{{1,2}}{NBSP}h{NBSP}\d\d", row["Quand"]), row["Quand"]
    count = next(
        r for r in rows if r["Code de l’action"] == "count_recorded" and "banque de jetons" in r["Avant et après"]
    )
    assert count["Quoi"] == "Fiche Comptage 2 enregistrée"
    assert f"Compté par{NBSP}: Responsable" not in count["Avant et après"]  # names, not roles
    assert f"motif de l’écart{NBSP}: Jetons manquants" in count["Avant et après"]
    assert f"jetons ou argent{NBSP}: jetons de 1{NBSP}${NBSP}; montant{NBSP}: -2,00{NBSP}$" in count["Avant et après"]
    assert f"journée de jeu{NBSP}: 2026-09-11{NBSP}; fiche{NBSP}: Comptage 2" in count["Avant et après"]
    assert '"missing_chips"' in count["Après"]  # the JSON keeps the code
    assert count["Résultat"] == "Fait" and count["Par"] == "ligne de commande"
    closed = next(r for r in rows if r["Code de l’action"] == "day_closed")
    assert (
        closed["Quoi"].startswith("Journée de jeu du ")
        and "fermée et verrouillée par la fiche Fermeture" in closed["Quoi"]
    )
    assert f"Préparé par{NBSP}: " in closed["Avant et après"] and f"Approuvé par{NBSP}: " in closed["Avant et après"]
    exported = next(r for r in rows if r["Code de l’action"] == "exported")
    assert exported["Quoi"] == "Rapport de l’activité exporté en JSON"
    assert "le rapport de l’activité" in exported["Avant et après"]
    assert exported["Rôles"] == "RDR" and exported["Par"] == "Web"


def test_the_french_page_speaks_french_and_links_the_slip_it_names(trail, cast):
    html = trail.get(trail_url(cast)).content.decode()
    body = html[html.index("<tbody") : html.index("</tbody>")]
    text = re.sub(r"<[^>]+>", " ", body)
    for login in identifiers(cast):
        text = text.replace(login, "")
    assert not ISO_TIME.search(text)
    assert not any(re.search(rf"\b{re.escape(code)}\b", text) for code in CODES if code not in ("done", "refused"))
    assert not any(label in text for label in ENGLISH_CAPACITIES)
    assert "Prepared by" not in text and "prepared by" not in text
    # The slip's number in the summary is its link: "Fiche <a>Comptage 2</a> enregistrée".
    assert re.search(r'Fiche <a href="/cage/[^"]+/slips/\d+/">Comptage 2</a> enregistrée', body), body[:2000]
    # The exact time is there for whoever points at it; the cell shows the minute.
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT[^"]+" title="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[^"]*">', body)


def test_an_entry_written_in_english_reads_in_french(trail, cast):
    """The entries were written by services with no language active (English): they read in
    French, since every name is found at reading time."""
    entry = AuditEntry.objects.filter(action="count_recorded").order_by("id").last()
    assert entry.params["slip"] == "Count 2" and set(entry.new["signed"]) == {"counted_by", "verified_by"}
    rows = french_csv(trail, cast)
    assert any(r["Quoi"] == "Fiche Comptage 2 enregistrée" for r in rows)
