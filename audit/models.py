"""The audit trail: one row per action or refused attempt, never changed and never removed.

The ORM refuses an update or delete (core.append_only.AppendOnly); below it, database triggers do
the same on SQLite and PostgreSQL (audit/migrations/0002_append_only_triggers.py).
"""

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.utils.translation import gettext_lazy as _

from core.append_only import AppendOnly, AppendOnlyError
from core.compiled import Insert
from events.models import Event, Person

from .actions import DONE, OUTCOMES, REFUSED

# In an entry's params: the keys whose values are names kept in English, shown translated.
TRANSLATED = "_translated"


class AuditEntry(AppendOnly):
    at = models.DateTimeField(db_index=True)
    # None for what is not tied to one event: logins, logouts, failed logins, a signing PIN.
    event = models.ForeignKey(Event, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    # Who: the login (None for the command line, or a failed login with an unknown name), the name
    # it had or was typed, and on the event the person and the roles they held at that moment.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    username = models.CharField(max_length=150, blank=True)
    person = models.ForeignKey(Person, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    roles = models.CharField(max_length=120, blank=True, help_text=_("role codes, comma-separated"))
    # What: the action's code, its outcome, and a summary kept as an English template with its
    # values, so it reads the same in every language the product is translated into.
    # A code of audit.actions.ACTIONS, which names it on the page. Not the field's choices: a new
    # action needs no migration.
    action = models.CharField(max_length=30)
    outcome = models.CharField(max_length=8, choices=[(k, v) for k, v in OUTCOMES.items()], default=DONE)
    message = models.TextField()
    params = models.JSONField(default=dict, blank=True, encoder=DjangoJSONEncoder)
    rule = models.CharField(max_length=200, blank=True)
    # Whom or what it concerns, where that is one person or one slip.
    about = models.ForeignKey(Person, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    slip = models.ForeignKey("cage.Slip", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    old = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    new = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    # From where: the client's address ("web"), or the command line.
    address = models.GenericIPAddressField(null=True, blank=True)
    channel = models.CharField(max_length=8, default="web")
    request = models.CharField(max_length=300, blank=True, help_text=_("method and path"))

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [
            models.Index(fields=["event", "at"]),
            models.Index(fields=["user", "at"]),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(outcome__in=[DONE, REFUSED]), name="audit_outcome_known"),
        ]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.action} {self.outcome}"

    def save(self, *args, **kwargs):
        """Written with its link of the trail's chain (audit.chain), both or neither."""
        from .chain import link  # the chain reads this module

        if not self._state.adding:
            raise AppendOnlyError("AuditEntry rows are never updated; post a correction")
        # Inside the caller's transaction no savepoint of their own (two queries fewer); written by
        # an INSERT compiled once (every slip and every signature writes an entry).
        with transaction.atomic(savepoint=False):
            _INSERT.save(self)
            link(self)


_INSERT = Insert(AuditEntry)


class AuditLink(AppendOnly):
    """The audit trail's hash chain (audit.chain): each entry's SHA-256 digest, of its own content
    and of the link before it, written in the same transaction as the entry. One chain for the
    whole trail, since entries need not belong to an event (logins)."""

    seq = models.PositiveBigIntegerField(unique=True)
    entry = models.OneToOneField(AuditEntry, on_delete=models.PROTECT, related_name="link")
    digest = models.CharField(max_length=64)

    class Meta:
        ordering = ["seq"]
        constraints = [models.CheckConstraint(condition=models.Q(seq__gt=0), name="audit_link_seq_positive")]

    def __str__(self):
        return f"{self.seq} {self.digest[:16]}"
