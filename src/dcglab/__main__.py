"""``python -m dcglab``: see :mod:`dcglab.cli`."""

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


keep_freed_memory()

from .cli import main  # noqa: E402

sys.exit(main())
