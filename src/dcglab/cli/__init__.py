"""The command line: ``dcglab QRELS RUN`` evaluates as trec_eval does
(:mod:`dcglab.cli.evaluate`), ``dcglab compare QRELS RUN...`` compares runs
(:mod:`dcglab.cli.compare`); :mod:`dcglab.cli.common` holds what both parsers share and
:mod:`dcglab.cli.process` sets the process up before the evaluator loads.

Nothing in the library imports this package: it sits on top of evaluation and statistics.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from dcglab.cli import process

__all__ = ["entry", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv``; without it, as the program, which first sets the
    process up (:func:`dcglab.cli.process.setup`). ``compare`` as the first argument runs
    :func:`dcglab.cli.compare.main`, anything else :func:`dcglab.cli.evaluate.main`."""
    if argv is None:
        process.setup()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["compare"]:
        from dcglab.cli.compare import main as compare

        return compare(argv[1:])
    from dcglab.cli.evaluate import main as evaluate

    return evaluate(argv)


def entry() -> None:
    """The program, as both entry points run it: :func:`main`, then an immediate exit.

    The interpreter's own shutdown (finalising modules and the evaluator's
    hundreds of megabytes of arrays) takes about a sixth of a second on a large
    run and changes nothing the user sees, so once the output is flushed the
    process ends at once (``os._exit``). With Spark loaded, the normal exit runs
    instead, so that pyspark's exit handler stops its Java process.
    """
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader left (``dcglab ... | head``): nothing to flush to
        code = code or 1
    if "pyspark" in sys.modules:
        sys.exit(code)
    os._exit(code)
