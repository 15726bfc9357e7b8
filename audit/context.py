"""Who is acting and from where, for the services that record without being handed a request.

audit.middleware opens a context for each request: the services read the user, the client's
address (as core.client reads it) and the request line from it. Outside a request (a management command, the records
importer, the test suite calling a service) there is no context and the entry says "command line".

The context also collects the refusals made while the request is served (core.rules tells
`note_refusal` of each RuleViolation as it is made): the middleware writes them once the view has
returned, after any transaction of the refused action has rolled back, so they stay.
"""

import contextvars
from dataclasses import dataclass, field


@dataclass
class RequestContext:
    request: object
    refusals: list = field(default_factory=list)
    # {event id: (person id or None, [role codes])}: the actor on each event, looked up once.
    standing: dict = field(default_factory=dict)


_current: contextvars.ContextVar[RequestContext | None] = contextvars.ContextVar("audit_request", default=None)
# While the records importer runs, entries wait here and are written together (audit.services.batch).
_batch: contextvars.ContextVar[list | None] = contextvars.ContextVar("audit_batch", default=None)


def begin(request) -> contextvars.Token:
    return _current.set(RequestContext(request=request))


def end(token: contextvars.Token) -> RequestContext | None:
    context = _current.get()
    _current.reset(token)
    return context


def current() -> RequestContext | None:
    return _current.get()


def note_refusal(violation) -> None:
    """Told of each RuleViolation as it is made; kept for the request's audit entries."""
    context = _current.get()
    if context is not None and not any(v is violation for v in context.refusals):
        context.refusals.append(violation)
