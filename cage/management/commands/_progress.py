"""The commands' progress on stderr (tqdm): the services count their work through cage.progress and
know nothing of this.

stdout stays the command's result, which scripts and tests read. A run shorter than a few seconds
prints nothing at all; `--no-progress` prints nothing however long it runs. On a terminal the count
is redrawn in place; to a log file or the journal (systemd) each redraw is a line of its own, one
every LOG_INTERVAL seconds, so a long run under a timer still says how far it has got.
"""

import os
from contextlib import contextmanager

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from tqdm import tqdm

from cage.progress import QUIET, Meter, Progress

# A stage shorter than this shows nothing (seconds). Tests and scripts may set it, e.g. to 0.
DELAY_VARIABLE = "CAGE_PROGRESS_AFTER"
DELAY = 3.0
# To a log file or the journal: a line at most this often (seconds), and one at the end.
LOG_INTERVAL = 15.0
TERMINAL_INTERVAL = 0.2

COUNTED = "{desc}{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}]"
UNCOUNTED = "{desc}{n_fmt}{unit} [{elapsed}, {rate_fmt}]"
TIMED = "{desc}{elapsed}"


def add_progress_argument(parser) -> None:
    parser.add_argument(
        "--no-progress",
        action="store_true",
        help=gettext_lazy("print no progress on stderr, however long the work takes"),
    )


def progress_for(command, options) -> Progress:
    """What the command counts its work with: quiet if asked, else drawn on its stderr."""
    if options.get("no_progress"):
        return QUIET
    return Shown(command.stderr._out, delay=_delay())


def _delay() -> float:
    value = os.environ.get(DELAY_VARIABLE)
    if value is None:
        return DELAY
    try:
        delay = float(value)
    except ValueError:
        delay = -1.0
    if not 0 <= delay < float("inf"):
        raise CommandError(
            _("%(variable)s must be a number of seconds (0 or more), not %(value)s")
            % {"variable": DELAY_VARIABLE, "value": repr(value)}
        )
    return delay


class _Lines:
    """tqdm redraws its line with a carriage return; a log file or the journal gets each drawing
    as a line of its own instead of one endless line."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> None:
        line = text.replace("\r", "").rstrip()
        if line:
            self.stream.write(line + "\n")

    def flush(self) -> None:
        self.stream.flush()


class _Bar(Meter):
    def __init__(self, bar: tqdm):
        self.bar = bar

    def advance(self, steps: int = 1) -> None:
        self.bar.update(steps)

    def reach(self, done: int, total: int | None = None) -> None:
        if total is not None and total != self.bar.total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)

    def alive(self) -> None:
        self.bar.update(0)


class Shown(Progress):
    """Each stage as a tqdm count on `stream`, once it has taken `delay` seconds."""

    def __init__(self, stream, *, delay: float = DELAY):
        self.stream, self.delay = stream, delay
        isatty = getattr(stream, "isatty", None)
        self.terminal = bool(isatty and isatty())

    @contextmanager
    def stage(self, what: str, *, unit: str = "", total: int | None = None, size: bool = False):
        bar = tqdm(
            total=total,
            file=self.stream if self.terminal else _Lines(self.stream),
            desc=_("%(stage)s:") % {"stage": what} + " ",
            unit=pgettext("bytes", "B") if size else f" {unit}",
            unit_scale=size,
            unit_divisor=1024,
            bar_format=TIMED if not unit and not size else COUNTED if total else UNCOUNTED,
            delay=self.delay,
            mininterval=TERMINAL_INTERVAL if self.terminal else LOG_INTERVAL,
            maxinterval=LOG_INTERVAL,
            ascii=None if self.terminal else True,
            dynamic_ncols=self.terminal,
            leave=True,
        )
        try:
            yield _Bar(bar)
        finally:
            bar.close()
