"""Text forms of a :class:`dcglab.statistics.comparison.Comparison`: terminal, Markdown, LaTeX,
CSV, JSON.

The three table forms show the same two tables: the mean of each run on each
measure, and one row per pair of runs with the difference, both confidence
intervals, :math:`d_z` and the corrected p-values, followed by notes that state
the settings and what each mark means. A dagger (†) marks a difference whose
p-value (one test, after its correction) is at most :math:`\\alpha`; with a
baseline it also marks the mean of each run that differs so from the baseline.
Markdown and LaTeX set the highest mean of each measure in bold. A statistic that
is undefined for a pair (the t-test of two runs that tie on every query) is
shown as "—". p-values have one format: ``digits - 1`` decimals, and below
that ``< 0.001`` (for ``digits=4``). CSV and JSON carry every column of
:attr:`~dcglab.statistics.comparison.Comparison.pairs` at 12 significant digits (an
undefined value is empty in CSV, ``null`` in JSON).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping
from typing import Any, Protocol


class Comparison(Protocol):
    """What the formatter reads of a :class:`dcglab.statistics.comparison.Comparison`."""

    means: Any
    pairs: Any
    scores: Mapping[str, Any]
    settings: Mapping[str, Any]


__all__ = ["TESTS", "render"]

LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                 "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                 "^": r"\textasciicircum{}"}  # fmt: skip

TESTS = {"t": "p_t_holm", "randomization": "p_rand_holm", "tukey": "p_tukey"}
"""The tests whose p-value can mark a difference as significant, and that p-value's
column of :attr:`~dcglab.statistics.comparison.Comparison.pairs` (after the correction
for multiple comparisons)."""
DAGGER = "†"
UNDEFINED = "—"
TEST_NAMES = {
    "t": "paired t-test, Holm-adjusted over the pairs of each measure",
    "randomization": "paired randomization test, Holm-adjusted over the pairs of each measure",
    "tukey": "randomised Tukey HSD over all runs",
}


def _num(x: Any) -> Any:
    """A float at 12 significant digits (stored and exchanged numbers carry no more);
    NaN (an undefined statistic) as ``None``."""
    if isinstance(x, float):
        return None if math.isnan(x) else float(f"{x:.12g}")
    return x


def _p(x: float, digits: int) -> str:
    """A p-value with ``digits - 1`` decimals; one too small for them as ``< 0.001``
    (for ``digits=4``); "—" when undefined."""
    if math.isnan(x):
        return UNDEFINED
    smallest = 10.0 ** -(digits - 1)
    return f"< {smallest:.{digits - 1}f}" if x < smallest else f"{x:.{digits - 1}f}"


class _Cell(str):
    """A table cell's text, with the marks the rich formats show: ``bold`` (the
    best mean of a measure) and ``dagger`` (significant)."""

    bold: bool = False
    dagger: bool = False


def _cell(text: str, *, bold: bool = False, dagger: bool = False) -> _Cell:
    cell = _Cell(text)
    cell.bold, cell.dagger = bold, dagger
    return cell


def _significant(c: Comparison, alpha: float, test: str) -> dict[tuple[str, str, str], bool]:
    """(measure, run_a, run_b) → whether the pair's ``test`` p-value is at most ``alpha``."""
    column = TESTS[test]
    return {
        (r.measure, r.run_a, r.run_b): bool(getattr(r, column) <= alpha)
        for r in c.pairs.itertuples()
    }


def _mean_rows(c: Comparison, digits: int, significant: dict) -> list[list]:
    """The means table's rows: the best mean of each measure bold (every run whose
    shown value equals the best shown value), and with a baseline a dagger on a
    mean that differs significantly from the baseline's."""
    baseline = c.settings.get("baseline")
    rows = []
    for run, row in c.means.iterrows():
        cells: list[Any] = [run]
        for measure, value in row.items():
            shown = f"{value:.{digits}f}"
            best = f"{c.means[measure].max():.{digits}f}"
            marked = baseline is not None and significant.get((measure, run, baseline), False)
            cells.append(_cell(shown, bold=shown == best, dagger=marked))
        rows.append(cells)
    return rows


def _tables(c: Comparison, digits: int, alpha: float, test: str):
    """Header and rows of the means table and of the pairs table, and the notes."""
    f = f"{{:.{digits}f}}".format
    level = f"{c.settings['confidence']:.0%}"
    significant = _significant(c, alpha, test)
    mean_head = ["run", *c.means.columns]
    mean_rows = _mean_rows(c, digits, significant)
    pair_head = ["measure", "A", "B", "mean A − B", f"{level} CI (t)", f"{level} CI (bootstrap)",
                 "d_z", "p t-test (Holm)", "p randomization (Holm)", "p Tukey HSD"]  # fmt: skip
    pair_rows = [
        [r.measure, r.run_a, r.run_b,
         _cell(f(r.difference), dagger=significant[(r.measure, r.run_a, r.run_b)]),
         f"[{f(r.t_low)}, {f(r.t_high)}]", f"[{f(r.boot_low)}, {f(r.boot_high)}]",
         UNDEFINED if math.isnan(r.d_z) else f"{r.d_z:.2f}", _p(r.p_t_holm, digits),
         _p(r.p_rand_holm, digits), _p(r.p_tukey, digits)]
        for r in c.pairs.itertuples()
    ]  # fmt: skip
    s = c.settings
    against = f" against {s['baseline']}" if s.get("baseline") is not None else ""
    notes = [
        f"{s['queries']} queries (missing: {s['missing']}, dropped {len(s['dropped'])}); "
        f"{s['n_resamples']} resamples, seed {s['seed']}; d_z = mean difference / sd of "
        "the differences; Holm over the pairs of each measure",
        f"{DAGGER} p ≤ {alpha:g}{against}: {TEST_NAMES[test]}",
    ]
    if c.pairs["p_t"].isna().any():
        notes.append(
            f"{UNDEFINED} undefined: every query has the same difference (runs that tie on "
            "every query), so the t statistic and d_z have no value"
        )
    return mean_head, mean_rows, pair_head, pair_rows, notes


def _plain(x: Any) -> str:
    """A cell in the terminal table: its text, and a dagger where marked."""
    return f"{x}{DAGGER}" if getattr(x, "dagger", False) else str(x)


def _text(head: list, rows: list) -> str:
    rows = [[_plain(x) for x in row] for row in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = "  ".join
    out = [line(str(h).ljust(w) for h, w in zip(head, widths)).rstrip()]
    out.append(line("-" * w for w in widths))
    out += [line(str(x).ljust(w) for x, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(out)


def _md(x: Any) -> str:
    text = str(x).replace("|", r"\|")
    if getattr(x, "bold", False):
        text = f"**{text}**"
    if getattr(x, "dagger", False):
        text += f"<sup>{DAGGER}</sup>"
    return text


def _markdown(head: list, rows: list) -> str:
    out = ["| " + " | ".join(map(_md, head)) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_md(x) for x in row) + " |" for row in rows]
    return "\n".join(out)


def _tex(x: object) -> str:
    text = "".join(LATEX_SPECIAL.get(ch, ch) for ch in str(x))
    text = text.replace("−", "$-$").replace(UNDEFINED, "---").replace("<", "$<$")
    text = text.replace(DAGGER, r"$^{\dagger}$").replace("≤", r"$\leq$")
    if getattr(x, "bold", False):
        text = rf"\textbf{{{text}}}"
    if getattr(x, "dagger", False):
        text += r"$^{\dagger}$"
    return text


def _latex(head: list, rows: list, labels: int) -> str:
    """A booktabs tabular: ``labels`` left-aligned columns, then right-aligned numbers."""
    out = [r"\begin{tabular}{" + "l" * labels + "r" * (len(head) - labels) + "}",
           r"\toprule", " & ".join(_tex(h) for h in head) + r" \\", r"\midrule"]  # fmt: skip
    out += [" & ".join(_tex(x) for x in row) + r" \\" for row in rows]
    out += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(out)


def _csv(c: Comparison) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(c.pairs.columns)
    for row in c.pairs.itertuples(index=False):
        writer.writerow(["" if _num(x) is None else f"{x:.12g}" if isinstance(x, float) else x
                         for x in row])  # fmt: skip
    return buffer.getvalue().rstrip("\n")


def _json(c: Comparison) -> str:
    data = {
        "settings": dict(c.settings),
        "means": [{"run": r, **{m: _num(float(v)) for m, v in row.items()}}
                  for r, row in c.means.iterrows()],
        "pairs": [{k: _num(v) for k, v in row.items()} for row in c.pairs.to_dict("records")],
    }  # fmt: skip
    return json.dumps(data, indent=2, allow_nan=False)


def render(
    c: Comparison, fmt: str, digits: int = 4, *, alpha: float = 0.05, test: str = "t"
) -> str:
    """The comparison in one of :data:`dcglab.statistics.comparison.FORMATS` (marks as in
    :meth:`dcglab.statistics.comparison.Comparison.format`)."""
    if fmt == "csv":
        return _csv(c)
    if fmt == "json":
        return _json(c)
    mean_head, mean_rows, pair_head, pair_rows, notes = _tables(c, digits, alpha, test)
    if fmt == "latex":
        legend = [rf"\par\noindent{{\footnotesize {_tex(n)}}}" for n in notes]
        return "\n".join([_latex(mean_head, mean_rows, 1), "", _latex(pair_head, pair_rows, 3),
                          *legend])  # fmt: skip
    if fmt == "markdown":
        return "\n\n".join([_markdown(mean_head, mean_rows), _markdown(pair_head, pair_rows),
                            *(_md(n) for n in notes)])  # fmt: skip
    return "\n\n".join([_text(mean_head, mean_rows), _text(pair_head, pair_rows), "\n".join(notes)])
