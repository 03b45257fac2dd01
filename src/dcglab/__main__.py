"""``python -m dcglab``: see :mod:`dcglab.cli`."""

import os
import sys


def keep_freed_memory() -> None:
    """Ask glibc's allocator to reuse freed memory instead of returning it.

    The evaluator makes many short-lived arrays of tens of megabytes; by default
    glibc maps each one afresh and unmaps it when freed, so the kernel zeroes
    and faults in every page again (about a quarter of a second of system time
    on the benchmark's 5M lines). Raising the mmap and trim thresholds lets
    freed blocks be reused. Only the command line does this (a library does not
    change its host's allocator); elsewhere than glibc it does nothing.
    """
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 1 << 30)  # M_MMAP_THRESHOLD: 1 GiB
        libc.mallopt(-1, 1 << 31)  # M_TRIM_THRESHOLD: 2 GiB
    except (OSError, AttributeError):
        pass


def return_polars_memory() -> None:
    """Ask polars' allocator (jemalloc) to return freed pages at once.

    polars keeps freed pages for half a second or more: after reading the
    benchmark's 5M lines the process held about 470 MB where the table needs
    about 140 MB, and the peak (730-850 MB, varying with timing) was near twice
    trec_eval's. With no decay it is about 600 MB, at a cost of about 0.1 s.
    polars reads ``_RJEM_MALLOC_CONF`` when first imported (appending it to its
    own defaults, and leaving the result in the environment of child
    processes), so this must run before, which is why :mod:`dcglab` imports
    :func:`dcglab.evaluate` lazily. Other options already set are kept; the
    last value of an option wins. Other allocators ignore the variable.
    """
    before = os.environ.get("_RJEM_MALLOC_CONF")
    ours = "dirty_decay_ms:0,muzzy_decay_ms:0"
    os.environ["_RJEM_MALLOC_CONF"] = f"{before},{ours}" if before else ours


keep_freed_memory()
return_polars_memory()

from .cli import main  # noqa: E402

sys.exit(main())
