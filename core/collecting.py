"""Python's cycle collector kept out of the way of a bulk job.

An import makes millions of short-lived objects (records, rows, model instances) and almost no
reference cycles. With the collector's defaults it runs every 700 new objects and, every so often,
walks everything the process holds (Django, the file's parsed records): about a twentieth of a
small fair's import, for nothing found. Within `few_collections()` what the process held when it
began is set aside (gc.freeze) and the collector runs less often; afterwards both are as they were.
"""

import gc
import threading
from contextlib import contextmanager

# A collection every 20,000 new objects, not 700; the older generations as rarely, relatively.
THRESHOLD = (20_000, 20, 50)

# The collector is the process's, not a thread's: the first block in (a file's bytes read, then its
# records imported; two imports in two threads of a server) sets it, the last out puts it back as
# the first found it.
_lock = threading.Lock()
_within = 0
_before: tuple = ()


@contextmanager
def few_collections():
    global _within, _before
    with _lock:
        if not _within:
            _before = gc.get_threshold()
            gc.freeze()
            gc.set_threshold(*THRESHOLD)
        _within += 1
    try:
        yield
    finally:
        with _lock:
            _within -= 1
            if not _within:
                gc.set_threshold(*_before)
                gc.unfreeze()
