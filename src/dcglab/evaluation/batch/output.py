"""The command line's output: trec_eval's lines, or one row per query as CSV or JSON.

trec_eval's format is ``measure<TAB>query<TAB>value``, the measure name padded to
22 characters, values with four decimals (NaN as C prints it, ``-nan``), counts as
integers and text (``relstring``) in single quotes; each query's lines come first
(``-q``), then the summary under ``all``.
"""

from __future__ import annotations

import csv
import io
import json
import math

from dcglab.evaluation.batch.result import BatchResult

__all__ = ["render"]


def _kind(result: BatchResult, name: str) -> str:
    """How a measure's values print: ``"count"``, ``"text"``, ``"skip"`` (a DCG
    measure, whose NaN marks a query left out) or ``"value"`` (NaN is ``-nan``)."""
    m = result.measures.get(name)
    if m is None:
        return "skip"
    if m.record.count:
        return "count"
    if m.record.aggregate == "text":
        return "text"
    return "skip" if m.record.kernel == "dcg" else "value"


def _summarised(result: BatchResult, cols: list[str]) -> list[str]:
    """The columns with a summary (``all``) value: all but the text ones."""
    return [c for c in cols if _kind(result, c) != "text"]


def _per_query(result: BatchResult, cols: list[str]) -> list[str]:
    """The columns printed per query: all but the summary-only measures (``gm_map``...)."""
    return [
        c for c in cols if c not in result.measures or not result.measures[c].record.summary_only
    ]


def _table(result: BatchResult, cols: list[str]) -> list[tuple[str, list, str]]:
    """The per-query columns: name, values and how they print (:func:`_kind`)."""
    return [(c, result.values[c].tolist(), _kind(result, c)) for c in _per_query(result, cols)]


def _value(v: float | str, kind: str) -> int | float | str | None:
    """A value for CSV and JSON: counts as integers, text as it is, NaN (a skipped
    query, or trec_eval's ``-nan``) as ``None``."""
    if isinstance(v, str):
        return v
    if math.isnan(v):
        return None
    return int(v) if kind == "count" else float(v)


def _cell(v: object) -> str:
    """A CSV field: the text JSON would write for the same value (``repr`` of a float)."""
    return "" if v is None else v if isinstance(v, str) else repr(v)


def _rows(result, means, cols, per_q, runid) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    if per_q:
        table = _table(result, cols)
        rows += [
            {"qid": str(q), **{c: _value(v[i], kind) for c, v, kind in table}}
            for i, q in enumerate(result.qids)
        ]
    if means is not None:
        tag = {} if runid is None else {"runid": runid}
        summary = {c: _value(means[c], _kind(result, c)) for c in _summarised(result, cols)}
        rows.append({"qid": "all", **tag, **summary})
    return rows


def _texts(values: list, kind: str) -> list[str | None]:
    """A column's values as :func:`_trec_line` prints them (``None``: a skipped
    query, no line), formatted a column at a time."""
    if kind == "text":
        return [f"'{v}'" for v in values]
    if kind == "count":
        return [f"{int(v)}" for v in values]
    nan = None if kind == "skip" else f"{'-nan':>6}"
    return [f"{v:6.4f}" if v == v else nan for v in values]


def _trec_line(name: str, qid: str, v: float | str, kind: str) -> str:
    """One line as trec_eval prints it (``%-22s\t%s\t%6.4f``; NaN as ``-nan``)."""
    if kind == "text":
        text = f"'{v}'"
    elif kind == "count":
        text = f"{int(v)}"
    else:
        text = f"{'-nan':>6}" if math.isnan(v) else f"{v:6.4f}"  # type: ignore[arg-type]
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
    JSON: ``null``); trec_eval's NaN prints ``-nan`` (CSV and JSON: empty,
    ``null``). Text measures (``relstring``) have no summary. The measures whose
    family's record is summary-only (``gm_map``, ``num_q``, ``runid``) appear in
    the summary only; the order is trec_eval's
    (:meth:`dcglab.evaluation.batch.result.BatchResult.ordered`).
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
        heads = [f"{c:<22}\t" for c, _, _ in table]
        columns = [_texts(v, kind) for _, v, kind in table]
        for q, row in zip(result.qids, zip(*columns)):
            lines += [f"{h}{q}\t{t}\n" for h, t in zip(heads, row) if t is not None]
    if means is not None:
        if runid is not None:
            lines.append(f"{'runid':<22}\tall\t{runid}\n")
        lines += [
            _trec_line(c, "all", means[c], _kind(result, c)) for c in _summarised(result, cols)
        ]
    return "".join(lines)
