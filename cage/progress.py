"""How a long piece of work (an import, an export, a backup, a restore) says how far it has got,
without knowing who, if anyone, is watching.

The services take a `Progress` and count their work in stages through it: "Checking" so many
records, "Copying" so many pages. This one tells nobody, so a page that imports a file shows
nothing; the commands pass one of their own that draws the count on stderr
(cage/management/commands/_progress.py), so that a season's import never sits in silence.
"""

from contextlib import contextmanager


class Meter:
    """One stage's count. This one keeps it to itself."""

    def advance(self, steps: int = 1) -> None:
        """`steps` more done."""

    def reach(self, done: int, total: int | None = None) -> None:
        """`done` in all so far (of `total`, when the total is learned only now)."""

    def alive(self) -> None:
        """Still at work, with nothing to count: a program of its own that says nothing of how far
        it is (pg_restore), a check that only says when it is done. Whoever watches can show the
        time it has taken."""


class Progress:
    """Tells nobody: every stage's meter is quiet."""

    @contextmanager
    def stage(self, what: str, *, unit: str = "", total: int | None = None, size: bool = False):
        """A stage of the work, named as its reader says it ("Checking"), counted in `unit`
        ("records"; none for a stage that can only be timed), of `total` when it is known;
        `size`: the count is bytes."""
        yield Meter()


QUIET = Progress()
