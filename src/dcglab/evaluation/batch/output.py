"""The command line's output: trec_eval's lines, or one row per query as CSV or JSON.

trec_eval's format is ``measure<TAB>query<TAB>value``, the measure name padded to
22 characters, values with four decimals and counts as integers; each query's
lines come first (``-q``), then the summary under ``all``.
"""

from __future__ import annotations

import csv
import io
import json
import math

from .result import BatchResult

__all__ = ["render"]


def _is_count(result: BatchResult, name: str) -> bool:
    """Whether the measure is a count (printed as an integer)."""
    m = result.measures.get(name)
    return m is not None and m.record.count


def _per_query(result: BatchResult, cols: list[str]) -> list[str]:
    """The columns printed per query: all but the summary-only measures (``gm_map``...)."""
    return [
        c for c in cols if c not in result.measures or not result.measures[c].record.summary_only
    ]


def _table(result: BatchResult, cols: list[str]) -> list[tuple[str, list[float], bool]]:
    """The per-query columns: name, values and whether they are counts."""
    return [(c, result.values[c].tolist(), _is_count(result, c)) for c in _per_query(result, cols)]


def _value(v: float, count: bool) -> int | float | None:
    """A value for CSV and JSON: counts as integers, NaN (a skipped query) as ``None``."""
    if math.isnan(v):
        return None
    return int(v) if count else float(v)


def _cell(v: object) -> str:
    """A CSV field: the text JSON would write for the same value (``repr`` of a float)."""
    return "" if v is None else v if isinstance(v, str) else repr(v)


def _rows(result, means, cols, per_q, runid) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    if per_q:
        table = _table(result, cols)
        rows += [
            {"qid": str(q), **{c: _value(v[i], count) for c, v, count in table}}
            for i, q in enumerate(result.qids)
        ]
    if means is not None:
        tag = {} if runid is None else {"runid": runid}
        summary = {c: _value(means[c], _is_count(result, c)) for c in cols}
        rows.append({"qid": "all", **tag, **summary})
    return rows


def _trec_line(name: str, qid: str, v: float, count: bool) -> str:
    text = f"{int(v)}" if count else f"{v:6.4f}"
    return f"{name:<22}\t{qid}\t{text}\n"


def render(
    result: BatchResult,
    means: dict[str, float] | None,
    fmt: str,
    per_q: bool,
    runid: str | None = None,
) -> str:
    """The results in trec_eval's format (each query's lines, then ``all``), or CSV / JSON.

    ``means`` is ``None`` for no summary (trec_eval ``-n``); ``runid`` is the
    run's tag, printed first in the summary when given. Counts print as integers.
    A query skipped under ``--zero-idcg skip`` has no line (CSV: an empty field,
    JSON: ``null``). The measures whose family's record is summary-only (``gm_map``,
    ``num_q``, ``runid``) appear in the summary only; the order is trec_eval's
    (:meth:`dcglab.batch.result.BatchResult.ordered`).
    """
    cols = result.ordered()
    if fmt in ("csv", "json"):
        rows = _rows(result, means, cols, per_q, runid)
        if fmt == "json":
            return json.dumps(rows) + "\n"
        header = ["qid", *(["runid"] if runid is not None and means is not None else []), *cols]
        text = io.StringIO()
        writer = csv.DictWriter(text, header, lineterminator="\n")
        writer.writeheader()
        writer.writerows({k: _cell(v) for k, v in r.items()} for r in rows)
        return text.getvalue()
    lines = []
    if per_q:
        table = _table(result, cols)
        lines += [
            _trec_line(c, str(q), v[i], count)
            for i, q in enumerate(result.qids)
            for c, v, count in table
            if not math.isnan(v[i])
        ]
    if means is not None:
        if runid is not None:
            lines.append(f"{'runid':<22}\tall\t{runid}\n")
        lines += [_trec_line(c, "all", means[c], _is_count(result, c)) for c in cols]
    return "".join(lines)
