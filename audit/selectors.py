"""Reading the audit trail: an event's entries, and those tied to no event. Each is one queryset,
filtered and sorted in the database, so a page of it costs the same whatever the trail's length."""

import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone

from events.models import Event, Person

from .models import AuditEntry

RELATED = ("person", "about", "slip", "slip__voids")


def _narrowed(entries: QuerySet, *, action=None, since=None, until=None, outcome=None) -> QuerySet:
    if action:
        entries = entries.filter(action=action)
    if outcome:
        entries = entries.filter(outcome=outcome)
    # Whole local days, as bounds on the indexed time rather than a date computed per row.
    if since:
        entries = entries.filter(at__gte=timezone.make_aware(datetime.datetime.combine(since, datetime.time.min)))
    if until:
        end = datetime.datetime.combine(until + datetime.timedelta(days=1), datetime.time.min)
        entries = entries.filter(at__lt=timezone.make_aware(end))
    return entries


def event_entries(event: Event, *, person: Person | None = None, **criteria) -> QuerySet:
    """The event's entries, and the logins, logouts, failed logins and PIN changes of the logins
    its people sign in with (those belong to no one event, but the DRIC answers for who signs at
    her cage). `person`: what they did, or what concerns them."""
    logins = Person.objects.filter(event=event, user__isnull=False).values("user_id")
    entries = AuditEntry.objects.filter(Q(event=event) | Q(event__isnull=True, user_id__in=logins))
    if person is not None:
        mine = Q(person=person) | Q(about=person)
        if person.user_id:
            mine |= Q(event__isnull=True, user_id=person.user_id)
        entries = entries.filter(mine)
    return _narrowed(entries, **criteria).select_related(*RELATED)


def unattached_entries(*, login: str = "", **criteria) -> QuerySet:
    """Entries tied to no event: every login, logout and failed login (also under names that are
    nobody's login), and signing PIN changes. For the licensee's administrator."""
    entries = AuditEntry.objects.filter(event__isnull=True)
    if login:
        entries = entries.filter(username__iexact=login)
    return _narrowed(entries, **criteria).select_related(*RELATED)
