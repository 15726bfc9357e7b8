"""Writing the audit trail. Every service that changes something calls `record` inside its own
transaction: if the entry cannot be written, the action fails with it (an unaudited signature is
worse than a refused one). Refusals and failed logins are written best-effort: losing one must not
turn a refusal into a crash, and they are written after the refused action has rolled back.

Recording costs one INSERT; finding the actor's person and roles on the event costs nothing on a
page that has checked them already (events.access.event_access keeps them on the request), and
one query otherwise, once per request and event.
"""

import contextlib
import functools
import getpass
import logging

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, override
from django.utils.translation import gettext_noop as N_

from core.client import client_address
from core.rules import RuleViolation, Sentence
from events.access import ROLE_NAMES, RoleRefused, in_role_order
from events.lockout import SIGNING_PIN
from events.models import Event, Person

from . import actions, context
from .actions import DONE, REFUSED
from .models import TRANSLATED, AuditEntry

logger = logging.getLogger("audit")

ADMIN = "admin"  # in an entry's roles: the licensee's administrator (a staff login)
AUDIT_RULE = gettext_lazy("audit trail")
# The rules of refusals made here, kept in English on the entry and named in the reader's language.
ROLES_RULE, PERMISSION_RULE, LOGIN_RULE = N_("roles"), N_("permission"), N_("login")
_FROM_REQUEST = object()


class AuditUnavailable(RuleViolation):
    """The entry could not be written, so the action it records is not done either."""

    def __init__(self):
        super().__init__(
            _("nothing was done: the audit trail could not be written; try again or call the administrator"),
            AUDIT_RULE,
            code="audit.unavailable",
        )


@functools.cache  # asked for every entry an import writes; the process's user does not change
def _os_user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no login name in the environment (a container): the entry still says "command line"
        return ""


def _standing(ctx, request, event_id: int | None, user) -> tuple[int | None, list[str]]:
    """The actor's person on the event and the roles they hold there now: (person id, role codes)."""
    roles = [ADMIN] if user is not None and user.is_staff else []
    if event_id is None or user is None:
        return None, roles
    access = getattr(request, "event_access", None) if request is not None else None
    if access is not None and access.event.pk == event_id and request.user.pk == user.pk:
        person_id, held = (access.person.pk if access.person else None), access.roles
    elif ctx is not None and (event_id, user.pk) in ctx.standing:
        person_id, held = ctx.standing[(event_id, user.pk)]
    else:
        rows = list(
            Person.objects.filter(event_id=event_id, user=user).values_list("pk", "registration", "assignments__role")
        )
        person_id = rows[0][0] if rows else None
        held = {role for _pk, registration, role in rows if role and registration == Person.Registration.GOOD}
        if ctx is not None:
            ctx.standing[(event_id, user.pk)] = (person_id, held)
    return person_id, in_role_order(held) + roles


def _kept(params: dict | None) -> dict:
    """The summary's values as they are kept: a name marked for translation (a role, a game, a
    registration status: a lazy string, or a list of them) is kept in English and listed under
    TRANSLATED, so the page names it in its reader's language (AuditEntry.summary)."""
    params = dict(params or {})
    # A value that is itself a sentence (core.rules.Words) is kept as its template and values.
    params.update({key: value.stored() for key, value in params.items() if isinstance(value, Sentence)})

    def lazy(value):
        return isinstance(value, Promise) or (
            isinstance(value, list | tuple) and value and all(isinstance(v, Promise) for v in value)
        )

    translated = sorted(key for key, value in params.items() if lazy(value))
    if translated:
        with override("en"):
            for key in translated:
                value = params[key]
                params[key] = [str(v) for v in value] if isinstance(value, list | tuple) else str(value)
        params[TRANSLATED] = translated
    return params


def entry(
    action: str,
    message: str,
    params: dict | None = None,
    *,
    event: Event | int | None = None,
    old=None,
    new=None,
    slip=None,
    about: Person | None = None,
    outcome: str = DONE,
    rule: str = "",
    user=_FROM_REQUEST,
    username: str = "",
    request=None,
) -> AuditEntry:
    """An entry for the action being done now, by whoever is acting, not yet saved. `request`:
    the request it came with, where the caller is handed one (django.contrib.auth's signals)."""
    ctx = context.current()
    if request is None and ctx is not None:
        request = ctx.request
    if user is _FROM_REQUEST:
        user = getattr(request, "user", None) if request is not None else None
    if user is not None and not user.is_authenticated:
        user = None
    event_id = event if isinstance(event, int) or event is None else event.pk
    person_id, roles = _standing(ctx, request, event_id, user)
    if request is not None:
        channel, address = "web", client_address(request)
        line = f"{request.method or ''} {request.get_full_path()}".strip()[:300]
    else:
        channel, address, line = "command", None, ""
    if not username:
        username = user.get_username() if user is not None else ("" if request is not None else _os_user())
    return AuditEntry(
        at=timezone.now(),
        event_id=event_id,
        user=user,
        username=username[:150],
        person_id=person_id,
        roles=",".join(roles)[:120],
        action=action,
        outcome=outcome,
        message=message,
        params=_kept(params),
        rule=rule[:200],
        about=about,
        slip=slip,
        old=old,
        new=new,
        address=address,
        channel=channel,
        request=line,
    )


def record(action: str, message: str, params: dict | None = None, **fields) -> AuditEntry:
    """Record an action that was done. `message` is an English template marked with gettext_noop,
    `params` its values. Raises AuditUnavailable (and so undoes the caller's transaction) when the
    entry cannot be written."""
    new_entry = entry(action, message, params, **fields)
    waiting = context._batch.get()
    if waiting is not None:
        waiting.append(new_entry)
        return new_entry
    try:
        new_entry.save()
    except DatabaseError as exc:
        logger.exception("audit entry not written: %s", action)
        raise AuditUnavailable() from exc
    return new_entry


def record_best_effort(new_entry: AuditEntry) -> AuditEntry | None:
    """Write an entry that must never break what it records (a refusal, a failed login): in a
    savepoint when inside a transaction, so a failure leaves that transaction usable; a failure is
    logged, not raised."""
    try:
        if connection.in_atomic_block:
            with transaction.atomic():
                new_entry.save()
        else:
            new_entry.save()
    except Exception:
        logger.exception("audit entry not written: %s %s", new_entry.action, new_entry.outcome)
        return None
    return new_entry


@contextlib.contextmanager
def batch():
    """Hold the entries made inside the block, unwritten, in the list it yields: the records
    importer copies them into the real database with the event's own rows (cage.staging), so
    that entries and records stand or fall together, and its scratch database never holds them."""
    waiting = context._batch.get()
    if waiting is not None:
        yield waiting
        return
    waiting = []
    token = context._batch.set(waiting)
    try:
        yield waiting
    finally:
        context._batch.reset(token)


# --- refusals --------------------------------------------------------------------------------


def _event_of(request) -> Event | None:
    match = getattr(request, "resolver_match", None)
    slug = match.kwargs.get("slug") if match is not None else None
    if not slug:
        return None
    access = getattr(request, "event_access", None)
    if access is not None and access.event.slug == slug:
        return access.event
    return Event.objects.filter(slug=slug).first()


def _attempt(request) -> tuple[str, dict]:
    """The action a refused request attempted, and what its entry's summary is told besides: for
    a page view, which page ("view", its URL name), so the trail can name it."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "page", {}
    action = actions.attempted(match.view_name, match.kwargs, request.method or "")
    return action, ({"view": match.view_name} if action == "page" else {})


def write_refusals(request, violations: list) -> None:
    """The request's refusals (RuleViolations made while it was served), written once the view has
    returned: whatever transaction the refused action ran in has rolled back by now, and these stay."""
    if not violations:
        return
    try:
        event = _event_of(request)
        action, about_page = _attempt(request)
        for violation in violations:
            if isinstance(violation, AuditUnavailable):
                message = N_("Not done: the audit trail could not be written")
                params = {}
            else:
                # The rule has a column of its own: the summary is the refusal's sentence alone, kept as
                # its template and values where it has them, put in each reader's words (Words).
                said = violation.words.stored() if violation.words is not None else violation.message_text
                message, params = N_("Refused: %(message)s"), {"message": said}
                if violation.code:  # which refusal it was, whatever its wording (core.rules.RuleViolation)
                    params["code"] = violation.code
            params.update(about_page)
            record_best_effort(
                entry(
                    action,
                    message,
                    params,
                    event=event,
                    outcome=REFUSED,
                    rule=str(violation.rule or ""),
                    request=request,
                )
            )
    except Exception:
        logger.exception("refusals not written to the audit trail")


def permission_refused(request, exception: PermissionDenied) -> None:
    """A page or change refused for want of a role (events.access.RoleRefused) or of being the
    licensee's administrator."""
    try:
        if isinstance(exception, RoleRefused):
            access = exception.access
            event = access.event
            ctx = context.current()
            if ctx is not None and request.user.is_authenticated:
                # The refusal has just looked up the standing it refused: no need to ask again.
                ctx.standing[(event.pk, request.user.pk)] = (access.person.pk if access.person else None, access.roles)
            allowed = in_role_order(exception.allowed)
            message = N_("Refused: %(request)s needs the role of %(allowed)s")
            # Kept in English, named in the reader's language: "DRIC / Auditor".
            params = {"allowed": [ROLE_NAMES[r] for r in allowed] or gettext_lazy("administrator")}
            rule = ROLES_RULE
        else:
            event = _event_of(request)
            message = N_("Refused: %(request)s: %(reason)s")
            params = {"reason": str(exception) or _("permission denied")}
            rule = PERMISSION_RULE
        params["request"] = f"{request.method} {request.path}"[:200]
        action, about_page = _attempt(request)
        params.update(about_page)
        record_best_effort(entry(action, message, params, event=event, outcome=REFUSED, rule=rule, request=request))
    except Exception:
        logger.exception("a refused request not written to the audit trail")


CSRF_RULE = "CSRF"


def csrf_refused(request, reason: str) -> None:
    """A form refused by the CSRF check (settings.CSRF_FAILURE_VIEW): a stale page, blocked
    cookies, or a request forged from another site. Written best-effort, as every refusal is."""
    try:
        match = getattr(request, "resolver_match", None)
        params = {
            "request": f"{request.method} {request.path}"[:200],
            "reason": str(reason or "")[:200],
            "view": match.view_name if match is not None else "",
        }
        record_best_effort(
            entry(
                "csrf_refused",
                N_("Refused: %(request)s failed the CSRF check: %(reason)s"),
                params,
                event=_event_of(request),
                outcome=REFUSED,
                rule=CSRF_RULE,
                request=request,
            )
        )
    except Exception:
        logger.exception("a CSRF failure not written to the audit trail")


# --- logins (django.contrib.auth signals) ---------------------------------------------------------


def logged_in(sender, request, user, **kwargs):
    try:
        record("login", N_("%(username)s logged in"), {"username": user.get_username()}, user=user, request=request)
    except AuditUnavailable:
        # The login must not stand unrecorded: the new session goes before the error is shown.
        if request is not None and hasattr(request, "session"):
            request.session.flush()
        raise


def logged_out(sender, request, user, **kwargs):
    if user is None:
        return
    record("logout", N_("%(username)s logged out"), {"username": user.get_username()}, user=user, request=request)


def login_failed(sender, credentials, request=None, **kwargs):
    """A wrong password (or a locked-out login). The name typed is kept as typed; the password never.

    A wrong signing PIN is told to axes through the same signal (events.lockout) but is no login:
    its refusal is on the trail already, as a refusal of the slip or signature it was typed for."""
    if (credentials or {}).get(SIGNING_PIN):
        return
    typed = str((credentials or {}).get(get_user_model().USERNAME_FIELD) or (credentials or {}).get("username") or "")
    try:
        user = get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: typed}).first() if typed else None
        record_best_effort(
            entry(
                "login",
                N_("Failed login as %(username)s"),
                {"username": typed[:150]},
                user=user,
                username=typed,
                outcome=REFUSED,
                rule=LOGIN_RULE,
                request=request,
            )
        )
    except Exception:
        logger.exception("a failed login not written to the audit trail")


# What leaves the system, each with its summary: {what: message}.
EXPORTS = {
    "event_report": N_("The event's report exported as %(format)s"),
    "day_sheets": N_("The control sheets of %(day)s exported as %(format)s"),
    "register": N_("The register of slips exported as %(format)s"),
    "audit_trail": N_("The audit trail exported as %(format)s"),
}


def exported(event: Event | None, what: str, fmt: str, *, day=None, rows: int | None = None) -> AuditEntry:
    """A report, a register or the trail itself leaving the system, as a file or a download."""
    new = {"what": what, "format": fmt}
    if day is not None:
        new["day"] = day.date.isoformat()
    if rows is not None:
        new["rows"] = rows
    return record("exported", EXPORTS[what], {"format": fmt.upper(), "day": new.get("day", "")}, event=event, new=new)
