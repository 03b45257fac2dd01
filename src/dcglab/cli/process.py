"""Process set-up for the command line: allocator settings made before the evaluator loads.

polars is loaded only by the DuckDB and Spark engines' adapters; its allocator is
configured here all the same, before it could be imported.

Both entry points, the ``dcglab`` console script and ``python -m dcglab``, call
:func:`dcglab.cli.evaluate.main` without arguments, which calls :func:`setup` first; a
library user's process (or a test calling ``main([...])``) is left alone.
"""

from __future__ import annotations

import os

__all__ = [
    "JEMALLOC_OPTIONS",
    "keep_freed_memory",
    "return_polars_memory",
    "setup",
    "small_pages",
]

JEMALLOC_OPTIONS = "dirty_decay_ms:0,muzzy_decay_ms:0"
"""What :func:`return_polars_memory` adds to polars' jemalloc configuration."""


def keep_freed_memory() -> None:
    """Ask glibc's allocator to reuse freed memory instead of returning it.

    The evaluator makes many short-lived arrays of tens of megabytes; by default
    glibc maps each one afresh and unmaps it when freed, so the kernel zeroes
    and faults in every page again (about a quarter of a second of system time
    on the benchmark's 5M lines). Raising the mmap and trim thresholds lets
    freed blocks be reused. Elsewhere than glibc it does nothing.
    """
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 1 << 30)  # M_MMAP_THRESHOLD: 1 GiB
        libc.mallopt(-1, (1 << 31) - 1)  # M_TRIM_THRESHOLD: 2 GiB, the largest C int
    except (OSError, AttributeError):
        pass


def return_polars_memory() -> None:
    """Ask polars' allocator (jemalloc) to return freed pages at once.

    polars keeps freed pages for half a second or more, which nearly doubled
    the benchmark's peak memory. polars reads ``_RJEM_MALLOC_CONF`` when first
    imported (appending it to its own defaults, and leaving it in the
    environment of child processes), so this must run before. Options already
    set are kept (the last value of an option wins); other allocators ignore
    the variable.
    """
    before = os.environ.get("_RJEM_MALLOC_CONF")
    if before is not None and before.endswith(JEMALLOC_OPTIONS):
        return
    os.environ["_RJEM_MALLOC_CONF"] = f"{before},{JEMALLOC_OPTIONS}" if before else JEMALLOC_OPTIONS


def small_pages() -> None:
    """Ask numpy not to request transparent huge pages for its large arrays.

    numpy marks each array of 4 MiB or more for huge pages (``madvise``). When
    the machine's free memory is fragmented, as it is right after another large
    process ended, the kernel compacts memory to find each 2 MiB page while the
    evaluator waits: measured on the benchmark's 5M lines, twice the system time
    (1.1-1.3 s against 0.6 s) for the same output. numpy reads
    ``NUMPY_MADVISE_HUGEPAGE`` only when it loads, which is already done here, so
    its switch is used; a numpy without it is left as it is.
    """
    try:
        from numpy._core.multiarray import _set_madvise_hugepage
    except ImportError:
        return
    _set_madvise_hugepage(False)


def setup() -> None:
    """The allocator settings, for a process whose main work is one evaluation.

    Only the command line calls this: a library does not change its host's
    allocator. It must run before the evaluator (and, for an engine, polars) is
    imported, which is why :mod:`dcglab.cli.evaluate` imports the evaluator lazily.
    """
    keep_freed_memory()
    return_polars_memory()
    small_pages()
