"""Free memory given back to the system between games: the box runs for months in one process.

Between games the box frees what a game and the dice learning held (a game's log, frames, the learned
dice's working arrays), but the C allocator (glibc's ``malloc``) keeps freed memory in its heap for
reuse, and a heap whose free space is scattered among live objects grows a little with every game
(``companion bench soak``: 20 games with learning grew the resident memory by 15-30 MB, never given
back). ``malloc_trim(0)`` returns every free page of the heap to the system (glibc manual, "Memory
Allocation Tunables"; ``man 3 malloc_trim``). It takes a few milliseconds, so the box calls it at the
seams where nothing waits on it: after the reader is built (the learning's arrays freed) and after a
game ends. Off glibc (musl, macOS) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from functools import lru_cache

log = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def _malloc_trim():
    """glibc's ``malloc_trim`` (int (size_t pad)), or None where the C library has none."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        trim = libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def give_back_free_memory() -> bool:
    """Return the C heap's free pages to the system (glibc's ``malloc_trim(0)``); True when it could be
    asked (glibc), False elsewhere. Never raises."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
