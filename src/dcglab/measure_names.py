"""trec_eval's measure names: parsing ``-m`` arguments and ordering the output.

``ndcg``, ``ndcg_cut.K[,K...]``, ``ndcg.G=V,...`` (a gain table for that
measure), ``dcg``, ``dcg_cut.K``, ``map``, ``recip_rank``, ``P.K`` and
``recall.K``, plus ``nDCG@K``, ``P@K``, ``R@K``, ``AP`` and ``RR``. Output names
are trec_eval's (``ndcg_cut_10``, ``P_5``), and so is the output order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

__all__ = ["DEFAULT_CUTS", "Measure", "measure_specs", "parse_measures", "trec_order"]

DEFAULT_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)  # trec_eval's default cutoffs
CUTS = r"\d+(?:\.\d*)?(?:,\d+(?:\.\d*)?)*"
MEASURE = re.compile(
    rf"^(?:(?P<cut>(?i:n?dcg))(?:_cut(?:[._](?P<cuts>{CUTS}))?|@(?P<at>\d+))"
    rf"|(?P<table>(?i:n?dcg))\.(?P<gains>[^=,]+=[^=,]+(?:,[^=,]+=[^=,]+)*)"
    rf"|(?P<plain>(?i:n?dcg)|map|recip_rank)"
    rf"|(?P<bin>P|recall)(?:[._](?P<bcuts>{CUTS}))?"
    rf"|(?P<short>P|R)@(?P<sat>\d+)|(?P<ir>AP|RR))$",
)
ORDER = ("map", "recip_rank", "P", "recall", "dcg", "ndcg", "ndcg_cut", "dcg_cut")


class Measure(NamedTuple):
    """One measure to compute: its output name (trec_eval's), family, cutoff and
    its own gain table (trec_eval's ``ndcg.G=V,...``), if any."""

    name: str
    family: str
    k: int | None
    gain: dict[float, float] | None = None


def _cutoffs(text: str | None, name: str) -> list[int]:
    """trec_eval's cutoff list: ``10,20,23.4`` is 10, 20 and 23 (truncated)."""
    if text is None:
        return list(DEFAULT_CUTS)
    out = []
    for c in text.split(","):
        k = int(float(c))
        if k < 1:
            raise ValueError(f"measure {name!r}: every cutoff must be >= 1, got {c!r}")
        out.append(k)
    return sorted(set(out))


def _gain_table(text: str, name: str) -> dict[float, float]:
    """trec_eval's ``1=3,2=9,4=4.5``: integer grades, numeric gains."""
    table: dict[float, float] = {}
    for item in text.split(","):
        grade, _, value = item.partition("=")
        try:
            g = int(grade)
            v = float(value)
        except ValueError:
            raise ValueError(
                f"measure {name!r}: expected GRADE=GAIN with an integer grade and a "
                f"numeric gain, got {item!r}"
            ) from None
        if not np.isfinite(v):
            raise ValueError(f"measure {name!r}: the gain of grade {g} is not finite: {value!r}")
        table[float(g)] = v
    return table


def measure_specs(names: Iterable[str]) -> list[Measure]:
    """Parse measure names (trec_eval's syntax and ``nDCG@K``, ``P@K``, ``R@K``, ``AP``, ``RR``).

    Examples
    --------
    >>> [m.name for m in measure_specs(["ndcg_cut.5,10", "P.5", "map", "nDCG@3", "ndcg.1=3,2=9"])]
    ['ndcg_cut_5', 'ndcg_cut_10', 'P_5', 'map', 'ndcg_cut_3', 'ndcg_1=3,2=9']
    """
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise ValueError(
            f"measures must be a list of measure names, got {names!r}; write [{names!r}]"
        )
    out: list[Measure] = []
    for name in names:
        if not isinstance(name, str):
            raise ValueError(f"measures: each measure is a name (str), got {name!r}")
        m = MEASURE.match(name.strip())
        if not m:
            raise ValueError(
                "measure must be ndcg, ndcg_cut.K[,K...], nDCG@K, dcg, dcg_cut.K, "
                f"ndcg.G=V[,G=V...], map, recip_rank, P.K, recall.K, P@K or R@K; got {name!r}"
            )
        if m["cut"]:
            kind = m["cut"].lower()
            for k in [int(m["at"])] if m["at"] else _cutoffs(m["cuts"], name):
                if k < 1:
                    raise ValueError(f"measure {name!r}: the cutoff must be >= 1")
                out.append(Measure(f"{kind}_cut_{k}", f"{kind}_cut", k))
        elif m["table"]:
            kind = m["table"].lower()
            out.append(Measure(f"{kind}_{m['gains']}", kind, None, _gain_table(m["gains"], name)))
        elif m["plain"]:
            kind = m["plain"].lower() if m["plain"].lower() in ("ndcg", "dcg") else m["plain"]
            out.append(Measure(kind, kind, None))
        elif m["bin"]:
            for k in _cutoffs(m["bcuts"], name):
                out.append(Measure(f"{m['bin']}_{k}", m["bin"], k))
        elif m["short"]:
            family = "P" if m["short"] == "P" else "recall"
            k = int(m["sat"])
            if k < 1:
                raise ValueError(f"measure {name!r}: the cutoff must be >= 1")
            out.append(Measure(f"{family}_{k}", family, k))
        else:
            family = "map" if m["ir"] == "AP" else "recip_rank"
            out.append(Measure(family, family, None))
    if not out:
        raise ValueError("measures is empty: name at least one measure")
    return list({m.name: m for m in out}.values())


def parse_measures(names: Iterable[str]) -> list[tuple[str, int | None]]:
    """Measure names as ``(output name, cutoff)`` pairs (see :func:`measure_specs`).

    Examples
    --------
    >>> parse_measures(["ndcg_cut.5,10", "ndcg", "nDCG@3", "dcg_cut.2"])
    [('ndcg_cut_5', 5), ('ndcg_cut_10', 10), ('ndcg', None), ('ndcg_cut_3', 3), ('dcg_cut_2', 2)]
    """
    return [(m.name, m.k) for m in measure_specs(names)]


def trec_order(names: Sequence[str]) -> list[str]:
    """trec_eval's output order: its measure table (``map``, ``recip_rank``, ``P``,
    ``recall``, ``dcg``, ``ndcg``, ``ndcg_cut``), cutoffs ascending, no repeats.

    Examples
    --------
    >>> trec_order(["ndcg_cut_10", "ndcg", "P_5", "ndcg_cut_5", "map", "ndcg"])
    ['map', 'P_5', 'ndcg', 'ndcg_cut_5', 'ndcg_cut_10']
    """

    def key(name: str) -> tuple[int, int]:
        m = re.match(r"^(n?dcg_cut|P|recall)_(\d+)$", name)
        if m:
            return ORDER.index(m[1]), int(m[2])
        family = name.split("_")[0] if name.startswith(("ndcg_", "dcg_")) else name
        return (ORDER.index(family) if family in ORDER else len(ORDER)), 0

    return sorted(dict.fromkeys(names), key=key)
