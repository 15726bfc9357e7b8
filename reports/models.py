"""The designated persons' signatures on the financial report, and its filing (T&C 2.7)."""

from django.db import models
from django.utils.translation import gettext as _

from events.models import DESIGNATED, Event, Person, Role


class ReportSignature(models.Model):
    """One designated person certifying the event's financial report, from their own session.

    `figures_digest` is the SHA-256 of the cage-report/1 figures they signed: when the figures
    later differ (a correction), the report says it changed after it was signed. A person whose
    signature no longer covers the figures may sign again; every signature stays on file.
    """

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="report_signatures")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="report_signatures")
    role = models.CharField(max_length=20, choices=[(r.value, r.label) for r in DESIGNATED])
    signed_at = models.DateTimeField()
    figures_digest = models.CharField(max_length=64)

    class Meta:
        ordering = ["signed_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "person", "figures_digest"], name="one_report_signature_per_person_per_figures"
            ),
            models.CheckConstraint(
                condition=models.Q(role__in=[r.value for r in DESIGNATED]), name="report_signed_by_designated_role"
            ),
        ]

    def __str__(self):
        return _("%(person)s as %(role)s, %(date)s") % {
            "person": self.person,
            "role": Role(self.role).label,
            "date": self.signed_at.date().isoformat(),
        }


class ReportFiling(models.Model):
    """The certified report filed with the licensing authority: the date it was sent, recorded by
    a designated person, with the digest of the figures filed (reports.filing)."""

    event = models.OneToOneField(Event, on_delete=models.PROTECT, related_name="report_filing")
    filed_on = models.DateField()
    filed_by = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    figures_digest = models.CharField(max_length=64)

    def __str__(self):
        return f"{self.event} {self.filed_on.isoformat()}"
