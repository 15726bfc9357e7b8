"""French typography as the glossary sets it: a no-break space before ":", "!" and "?"; the
typographic apostrophe; time zone abbreviations in French (HNE, HAE); dates in words, not ISO, in
titles and messages; a count total grouped by a space. English keeps its own."""

import datetime
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from babel.messages.pofile import read_po
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import override

from audit.models import AuditEntry
from audit.selectors import event_entries
from core import local
from tests.conftest import Client

ROOT = Path(__file__).resolve().parents[2]
NBSP = "\u00a0"
FRENCH = "fr-CA,fr;q=0.9"
TORONTO = ZoneInfo("America/Toronto")
# What is not French text in a msgstr: HTML tags, placeholders, template variables.
NOT_TEXT = re.compile(r"<[^>]*>|%\([a-z_]+\)[sd]|\{\{[^}]*\}\}|\{%[^%]*%\}")


def french_texts() -> list[tuple[str, str]]:
    with open(ROOT / "locale/fr_CA/LC_MESSAGES/django.po", "rb") as po:
        catalogue = read_po(po)
    found = []
    for message in catalogue:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found += [(str(message.id), NOT_TEXT.sub("", s)) for s in strings if s]
    return found


def test_the_french_catalogue_uses_the_typographic_apostrophe():
    straight = [(msgid, text) for msgid, text in french_texts() if re.search(r"[A-Za-zÀ-ÿ]'[A-Za-zÀ-ÿ]", text)]
    assert straight == []


def test_the_french_catalogue_puts_a_no_break_space_before_a_colon():
    wrong = [
        (msgid, text)
        for msgid, text in french_texts()
        if re.search(r'(?<![\s"])[ \u202f]?:(?=\s|$)', text.replace(NBSP + ":", ""))
    ]
    assert wrong == []


# An HTML entity ("&amp;", "&#38;") ends in a ";" that is no punctuation.
ENTITY = re.compile(r"&(?:[A-Za-z]+|#[0-9]+);")


def test_the_french_catalogue_puts_a_no_break_space_before_a_semicolon():
    wrong = [
        (msgid, text) for msgid, text in french_texts() if re.search(r"(?<!\u00a0);(?=\s|$)", ENTITY.sub("", text))
    ]
    assert wrong == []


def test_the_semicolon_check_tells_punctuation_from_an_html_entity():
    def flagged(text):
        return bool(re.search(r"(?<!\u00a0);(?=\s|$)", ENTITY.sub("", text)))

    assert flagged("comptage; rien") and flagged("comptage ; rien") and flagged("fin;")
    assert not flagged(f"comptage{NBSP}; rien") and not flagged("T&amp; C") and not flagged("x &#38; y")


@pytest.mark.parametrize(
    "language,winter,summer",
    [("en-ca", "EST", "EDT"), ("fr-ca", "HNE", "HAE")],
)
def test_the_time_zone_is_named_in_the_reader_s_language(language, winter, summer):
    with timezone.override(TORONTO), override(language):
        assert local.zone_name(datetime.datetime(2026, 1, 15, 17, 0, tzinfo=datetime.UTC)) == winter
        assert local.zone_name(datetime.datetime(2026, 7, 15, 17, 0, tzinfo=datetime.UTC)) == summer
        rendered = Template("{% load local_time %}{{ at|zone_name }}").render(
            Context({"at": datetime.datetime(2026, 1, 15, 17, 0, tzinfo=datetime.UTC)})
        )
        assert rendered == winter


@pytest.mark.django_db
def test_the_setup_code_page_in_french(cast, admin_user):
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    client.force_login(admin_user)
    response = client.post(reverse("events:setup_code_new", args=[cast.event.slug, cast.runner.code]))
    page = client.get(response.url).content.decode()
    assert f"Nom d’utilisateur{NBSP}:" in page and f"Code d’activation{NBSP}:" in page
    expires = re.search(r'<p id="setup-expires">(.*?)</p>', page, flags=re.S).group(1)
    assert re.search(r"\((HNE|HAE)\)", expires), expires
    assert "EST" not in expires and "EDT" not in expires
    # The date as every date is written, the time as French writes it: "2026-11-30 14 h 31".
    assert re.search(rf"\d{{4}}-\d\d-\d\d \d{{1,2}}{NBSP}h{NBSP}\d\d \(", expires), expires


@pytest.mark.django_db
def test_a_date_is_written_one_way_in_titles_in_sentences_and_in_tables(cast):
    """One style in both languages, the Canadian standard's all-numeric date (CAN/CSA-Z234.4): a
    page's title, a message and a table's row write the same date alike, never in words."""
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    client.force_login(cast.dric.user)
    roster = client.get(reverse("events:roster", args=[cast.event.slug, cast.day.date.isoformat()])).content.decode()
    title = re.search(r"<title>(.*?)</title>", roster, flags=re.S).group(1)
    assert cast.day.date.isoformat() in title and "septembre" not in roster
    days = client.get(reverse("events:days", args=[cast.event.slug])).content.decode()
    assert f">{cast.day.date.isoformat()}</a>" in days and "septembre" not in days
    for language in ("en-ca", "fr-ca"):
        with override(language):
            assert local.day(datetime.date(2026, 9, 11)) == "2026-09-11"
            assert date_format(datetime.date(2026, 9, 11), "DATE_FORMAT") == "2026-09-11"
            assert local.moment(datetime.datetime(2026, 9, 11, 18, 5)).startswith("2026-09-11 18")


@pytest.mark.django_db
def test_the_audit_trail_s_count_is_grouped_by_a_space_in_french(cast):
    now = timezone.now()
    AuditEntry.objects.bulk_create(
        AuditEntry(at=now, event=cast.event, action="page", message="seen", username="x") for _ in range(1204)
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    client.force_login(cast.dric.user)
    page = client.get(reverse("audit:event", args=[cast.event.slug])).content.decode()
    count = re.search(r'<span id="audit-count">(.*?)</span>', page).group(1)
    total = event_entries(cast.event).count()  # its people's logins too
    assert total > 1000
    assert count == f"{total // 1000}{NBSP}{total % 1000:03d} entrées"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language,pattern", [("en", r"As of \d\d:\d\d<"), (FRENCH, rf"À jour à \d{{1,2}}{NBSP}h{NBSP}\d\d<")]
)
def test_the_cage_home_says_as_of_to_the_minute(cast, language, pattern):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(cast.dric.user)
    page = client.get(reverse("cage:home", args=[cast.event.slug])).content.decode()
    assert re.search(pattern, page), re.findall(r'class="muted updated">[^<]*<', page)
    assert not re.search(r"\d\d:\d\d:\d\d", page)  # people read the minute
