"""Rows that are written once and never changed: the ledger's and the audit trail's. The ORM refuses
an update or a delete here; below it, database triggers refuse the same (cage and audit migrations).
A mistake is corrected by a new row (a void, a correcting slip), never by changing the old one.

An abstract model needs no app of its own: each app's concrete models inherit it."""

from django.db import models


class AppendOnlyError(Exception):
    """Raised on any attempt to change or remove a ledger row."""


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyError(f"{self.model.__name__} rows are never updated; post a correction")

    def delete(self):
        raise AppendOnlyError(f"{self.model.__name__} rows are never deleted; post a void")


class AppendOnly(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError(f"{type(self).__name__} rows are never updated; post a correction")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(f"{type(self).__name__} rows are never deleted; post a void")
