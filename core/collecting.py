"""Python's cycle collector kept out of the way of a bulk job.

An import makes millions of short-lived objects (records, rows, model instances) and almost no
reference cycles. With the collector's defaults it runs every 700 new objects and, every so often,
walks everything the process holds (Django, the file's parsed records): about a twentieth of a
small fair's import, for nothing found. Within `few_collections()` what the process held when it
began is set aside (gc.freeze) and the collector runs less often; afterwards both are as they were.
"""

import gc
from contextlib import contextmanager

# A collection every 20,000 new objects, not 700; the older generations as rarely, relatively.
THRESHOLD = (20_000, 20, 50)


_depth = 0  # within a few_collections() already (a file's bytes read, then its records imported)


@contextmanager
def few_collections():
    global _depth
    if _depth:
        yield
        return
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*THRESHOLD)
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        gc.set_threshold(*before)
        gc.unfreeze()
