"""The audit trail as the layers below its writer see it: a port they write entries through.

`events` records what its services do and the pages it refuses, but the trail's writer
(audit.services) lies above it, since an entry names the person acting and the roles they hold on
the event. So `events` calls these functions, and the audit app registers its writer here when it
is ready (audit.apps.AuditConfig.ready), as it registers its refusal listener with core.rules.

Each call goes straight to the writer, in the caller's transaction: an entry that cannot be written
fails the action it records (audit.services.AuditUnavailable), so a service that fails writes
nothing. With no writer registered, nothing is dropped quietly: the call raises, since a trail
that misses an entry is no trail.
"""

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured

# {"record": ..., "permission_refused": ...}, set once by the audit app.
_writer: dict[str, Callable] = {}


def register(*, record: Callable, permission_refused: Callable) -> None:
    """The trail's writer: `record(action, message, params=None, **fields)` writes an entry for an
    action done; `permission_refused(request, exception)` one for a page refused (403)."""
    _writer.update(record=record, permission_refused=permission_refused)


def _written_by(name: str) -> Callable:
    try:
        return _writer[name]
    except KeyError:
        raise ImproperlyConfigured(
            f"no audit trail writer is registered for {name}: is the audit app in INSTALLED_APPS and ready?"
        ) from None


def record(action: str, message: str, params: dict | None = None, **fields):
    """Record an action that was done, as audit.services.record does (its arguments, its entry);
    raises as it does when the entry cannot be written, so the caller's transaction is undone."""
    return _written_by("record")(action, message, params, **fields)


def permission_refused(request, exception) -> None:
    """Record a request refused for want of a role or of being the licensee's administrator."""
    _written_by("permission_refused")(request, exception)
