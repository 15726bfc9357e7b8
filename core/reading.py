"""One reading of the books per page: a page that writes nothing asks each question once.

A page such as the cage home is built from several selectors (the inventory, the blind places, the
close's checklist, ...) that each need the same facts: the day's count states, the event's chip
values. Passing every fact from one selector to the next would tie them to each other; instead a
selector marked `@read_once` answers a question once within `one_reading()`, and the page asks
again for free. Outside a reading (the services, the importer, a POST) nothing is remembered: a
write between two asks must be seen.

Every GET and HEAD is one reading (OneReadingMiddleware): they write nothing (the product's rule),
so nothing they read can change under them.

A slip's transaction is not a reading: it writes, and reads what it writes (balances, serials,
signatures). But some facts no slip ever changes: the event's chip set, a person's roles, the
cage's own places. A selector marked `@read_once(settled=True)` is also answered once within
`settled_facts()`, which each slip service's transaction opens (cage.services.ledger.atomic_slip):
a sale asks the chip set and the cashier's roles once, not three times each.
"""

import functools
from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import models

_answers: ContextVar[dict | None] = ContextVar("one_reading", default=None)
_settled: ContextVar[dict | None] = ContextVar("settled_facts", default=None)


@contextmanager
def one_reading():
    """Within it, each `@read_once` question is answered once; nested readings share the outer one."""
    if _answers.get() is not None:
        yield
        return
    token = _answers.set({})
    try:
        yield
    finally:
        _answers.reset(token)


@contextmanager
def settled_facts():
    """Within it, each `@read_once(settled=True)` question is answered once. Each call starts
    afresh, never sharing an outer one: a slip refused inside another's transaction (a savepoint
    rolled back) takes what it read with it."""
    token = _settled.set({})
    try:
        yield
    finally:
        _settled.reset(token)


def _key(value):
    # A row stands for itself by its table and primary key: two instances of the same day are the
    # same question.
    if isinstance(value, models.Model):
        return (type(value), value.pk)
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    return value


def read_once(selector: Callable | None = None, *, settled: bool = False) -> Callable:
    """Answer `selector` once per reading for the same arguments (rows by their primary key). Its
    answer is shared: callers read it and never change it. `settled`: a fact no slip changes, also
    answered once within `settled_facts()`."""
    if selector is None:
        return functools.partial(read_once, settled=settled)

    @functools.wraps(selector)
    def answer(*args, **kwargs):
        answers = _answers.get()
        if answers is None and settled:
            answers = _settled.get()
        if answers is None:
            return selector(*args, **kwargs)
        key = (selector, *map(_key, args), *sorted((name, _key(v)) for name, v in kwargs.items()))
        if key not in answers:
            answers[key] = selector(*args, **kwargs)
        return answers[key]

    return answer


class OneReadingMiddleware:
    """Each GET and HEAD is one reading of the books (they write nothing)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        with one_reading():
            return self.get_response(request)
