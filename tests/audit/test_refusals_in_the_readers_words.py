"""A refusal on the audit trail reads in its reader's language and number format, whatever language
the person refused was using: the trail keeps the refusal's sentence as its template and values
(core.rules.Words) and puts it in words as it is read, amounts, times and names included."""

import re

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from tests.cage.helpers import stock
from tests.cage.test_views import form, signed_by
from tests.conftest import PASSWORD, Client

pytestmark = [pytest.mark.django_db, pytest.mark.cast_once]

FRENCH, ENGLISH = "fr-CA,fr;q=0.9", "en-CA,en;q=0.9"


def client_in(cast, persona, language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    assert client.login(username=getattr(cast, persona).user.username, password=PASSWORD)
    return client


def trail_text(cast, language) -> str:
    page = client_in(cast, "dric", language).get(reverse("audit:event", args=[cast.event.slug]))
    return page.content.decode().replace("\u00a0", " ").replace("&#x27;", "'").replace("’", "'")


def test_a_refusal_said_in_french_reads_in_english_and_back(cast):
    stock(cast)
    cashier = client_in(cast, "chip_cashier", FRENCH)
    sale = form(chips_5="2", cash="1", tender="cad_cash", **signed_by(cast, sold_by="chip_cashier"))
    response = cashier.post(reverse("cage:slip_new", args=[cast.event.slug, "sale"]), sale)
    assert "à crédit" in response.content.decode()  # the cashier read it in French
    entry = AuditEntry.objects.filter(outcome="refused").latest("id")
    assert entry.params["message"]["words"].startswith("a sale of %(chips)s in chips")
    english = trail_text(cast, ENGLISH)
    assert "Refused: a sale of $10.00 in chips for $1.00 cash would give $9.00 of chips on credit" in english
    french = trail_text(cast, FRENCH)
    assert "une vente de 10,00 $ en jetons pour 1,00 $ en argent donnerait 9,00 $ de jetons à crédit" in french


def test_a_wrong_pin_typed_in_english_reads_in_french(cast):
    stock(cast)
    cashier = client_in(cast, "chip_cashier", ENGLISH)
    fill = form(
        table=cast.bj.pk,
        chips_5="2",
        sign_issued_by=cast.chip_cashier.pk,
        sign_carried_by=cast.runner.pk,
        pin_carried_by="1357",
    )
    cashier.post(reverse("cage:slip_new", args=[cast.event.slug, "runner_issue"]), fill)
    cashier.post(
        reverse("cage:slip_new", args=[cast.event.slug, "runner_issue"]),
        form(
            runner=cast.runner.pk,
            chips_5="2",
            sign_issued_by=cast.chip_cashier.pk,
            sign_received_by=cast.runner.pk,
            pin_received_by="1357",
        ),
    )
    english = trail_text(cast, ENGLISH)
    assert "the signing PIN of Runner is wrong; 4 tries left" in english
    french = trail_text(cast, FRENCH)
    assert "le NIP de signature de Runner est erroné ; il reste 4 essais" in french
    assert "the signing PIN" not in french


def test_a_sentence_keeps_its_values_and_is_put_in_each_readers_words():
    import datetime

    from django.utils import timezone
    from django.utils.translation import override, pgettext_lazy

    from core.rules import Cited, Clock, Day, Lower, Money, N_plural, Sentence, Several, Words
    from events.models import Role

    at = timezone.make_aware(datetime.datetime(2026, 9, 11, 18, 30))
    said = Several(
        Words(
            "%(name)s is %(position)s and cannot sign a %(slip)s for %(amount)s on %(day)s at %(time)s (%(rule)s)",
            name="Ann",
            position=Role.DRIC.label,
            slip=Lower(pgettext_lazy("slip", "Fill")),
            amount=Money(123456),
            day=Day(datetime.date(2026, 9, 11)),
            time=Clock(at),
            rule=Cited("T&C 2.6"),
        ),
        Words(
            N_plural(
                "the signing PIN of %(name)s is wrong; %(left)s try left",
                "the signing PIN of %(name)s is wrong; %(left)s tries left",
            ),
            plural_by="left",
            name="Ron",
            left=1,
        ),
    )
    kept = Sentence.from_stored(said.stored())
    with override("en-ca"):
        english = str(kept)
    with override("fr-ca"):
        french = str(kept)
    assert english == str(said).replace("\u00a0", " ") or english == str(said)
    assert "Designated Representative in Charge" in english and "a fill for $1,234.56" in english
    assert "(T&C 2.6)" in english and "18:30" in english and "1 try left" in english
    assert "Représentant désigné responsable" in french and "remplissage" in french and "1\u00a0234,56\u00a0$" in french
    assert "(M&C 2.7)" in french and "18\u00a0h\u00a030" in french and "il reste 1 essai" in french


def test_what_was_given_during_the_day_reads_in_the_readers_words(cast, admin_user):
    from events import services as event_services
    from events.models import Appointment, Role
    from tests.conftest import add_person

    newcomer = add_person(cast.event, "nadia", None, login=False)
    event_services.role_assign(person=newcomer, role=Role.DEALER, by=admin_user)
    acknowledger = client_in(cast, "general_cashier", FRENCH)
    appointment = Appointment.objects.get(person=newcomer)
    acknowledger.post(reverse("cage:appointment_acknowledge", args=[cast.event.slug, appointment.pk]))
    assert Appointment.objects.get(pk=appointment.pk).acknowledged_by == cast.general_cashier
    english = words_of(trail_text(cast, ENGLISH))
    assert "General Cashier acknowledged what Nadia was given during the day (the role of Dealer)" in english
    assert "role: Dealeracknowledged by: General Cashiergiven: Role" in english
    french = words_of(trail_text(cast, FRENCH))
    assert "(le rôle de Donneur)" in french
    assert "rôle : Donneurpris en compte par : General Cashierattribué : Rôle" in french
    assert "acknowledged" not in french


def words_of(html: str) -> str:
    """The page's words as read: tags out, spaces as one."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
