"""The batch evaluator: TREC files (or tables) in, every query's measures out.

The pipeline, one module a step:

=================  ===========================================================
module             what it does
=================  ===========================================================
``inputs``         resolves a source (path, ``-``, pipe, compressed file,
                   bytes, DataFrame) to what the reader takes
``tokens``         the TREC text format: lines, fields, whitespace, comments,
                   numbers, read by a compiled tokenizer into numpy columns
``reader``         qrels and runs read into checked tables (every path's
                   reader: the engines read text and DataFrames through it)
``codes``          ids coded as integers in byte order, and trec_eval's ranking
``blocks``         the padded ``queries × documents`` layout
``matching``       each retrieved document matched with its judgment by hash
``levels``         grades to gains, once for every path
``preparation``    :func:`prepare`: the two tables as padded arrays, in named
                   steps (:class:`Prepared`)
``scoring``        :func:`compute` and :func:`evaluate`: gains, discounts,
                   ideal and the measures on the padded arrays
``binary``         trec_eval's binary measures on the same arrays
``result``         :class:`BatchResult`: values per query, means in trec_eval's
                   order
``output``         trec_eval's output lines, CSV and JSON
``cli``            the command line (``dcglab``, ``python -m dcglab``)
=================  ===========================================================

The conventions every step applies are one checked value,
:class:`dcglab.evaluation.options.Conventions`. Names are loaded on first use, so that the
command line loads only what it uses; nothing here imports polars or pandas.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "BatchResult",
    "Conventions",
    "Prepared",
    "compute",
    "evaluate",
    "level_gains",
    "measure_list",
    "measure_specs",
    "prepare",
    "read_qrels",
    "read_run",
    "sortable_bits",
]

_HOMES = {
    "BatchResult": ".result",
    "Conventions": "..options",
    "Prepared": ".preparation",
    "compute": ".scoring",
    "evaluate": ".scoring",
    "level_gains": ".levels",
    "measure_list": ".scoring",
    "measure_specs": "..measure_names",
    "prepare": ".preparation",
    "read_qrels": ".reader",
    "read_run": ".reader",
    "sortable_bits": ".codes",
}
"""The module that defines each public name."""


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name], __name__), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
