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

    By default it keeps them for some seconds: after reading the benchmark's 5M
    lines the process held about 470 MB where the table needs about 140 MB, and
    the peak (810-850 MB, varying with timing) was above twice trec_eval's.
    With this it is 530 MB, at a cost of about 0.1 s. It must run before polars
    is imported, which is why :mod:`dcglab` imports :func:`dcglab.evaluate`
    lazily; a setting made by the user is kept, and other allocators ignore it.
    """
    os.environ.setdefault("_RJEM_MALLOC_CONF", "dirty_decay_ms:0,muzzy_decay_ms:0")


keep_freed_memory()
return_polars_memory()

from .cli import main  # noqa: E402

sys.exit(main())
