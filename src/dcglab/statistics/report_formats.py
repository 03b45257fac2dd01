"""Text forms of a :class:`dcglab.comparison.Comparison`: terminal, Markdown, LaTeX, CSV, JSON.

The three table forms show the same two tables: the mean of each run on each
measure, and one row per pair of runs with the difference, both confidence
intervals, :math:`d_z` and the Holm-adjusted and Tukey p-values, followed by a
line that states the settings. CSV and JSON carry every column of
:attr:`~dcglab.comparison.Comparison.pairs` at 12 significant digits.
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .comparison import Comparison

__all__ = ["render"]

LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                 "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                 "^": r"\textasciicircum{}"}  # fmt: skip


def _num(x: Any) -> Any:
    """A float at 12 significant digits (stored and exchanged numbers carry no more)."""
    return float(f"{x:.12g}") if isinstance(x, float) else x


def _p(x: float, digits: int) -> str:
    """A p-value with ``digits - 1`` decimals, or in scientific notation when smaller."""
    return f"{x:.{digits - 1}f}" if x >= 10 ** -(digits - 1) else f"{x:.1e}"


def _tables(c: Comparison, digits: int) -> tuple[list, list, list, list, str]:
    """Header and rows of the means table and of the pairs table, and the settings line."""
    f = f"{{:.{digits}f}}".format
    level = f"{c.settings['confidence']:.0%}"
    mean_head = ["run", *c.means.columns]
    mean_rows = [[run, *(f(v) for v in row)] for run, row in c.means.iterrows()]
    pair_head = ["measure", "A", "B", "mean A − B", f"{level} CI (t)", f"{level} CI (bootstrap)",
                 "d_z", "p t-test (Holm)", "p randomization (Holm)", "p Tukey HSD"]  # fmt: skip
    pair_rows = [
        [r.measure, r.run_a, r.run_b, f(r.difference), f"[{f(r.t_low)}, {f(r.t_high)}]",
         f"[{f(r.boot_low)}, {f(r.boot_high)}]", f"{r.d_z:.2f}", _p(r.p_t_holm, digits),
         _p(r.p_rand_holm, digits), _p(r.p_tukey, digits)]
        for r in c.pairs.itertuples()
    ]  # fmt: skip
    s = c.settings
    note = (
        f"{s['queries']} queries (missing: {s['missing']}, dropped {len(s['dropped'])}); "
        f"{s['n_resamples']} resamples, seed {s['seed']}; d_z = mean difference / sd of "
        "the differences; Holm over the pairs of each measure"
    )
    return mean_head, mean_rows, pair_head, pair_rows, note


def _text(head: list, rows: list) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = "  ".join
    out = [line(str(h).ljust(w) for h, w in zip(head, widths)).rstrip()]
    out.append(line("-" * w for w in widths))
    out += [line(str(x).ljust(w) for x, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(out)


def _markdown(head: list, rows: list) -> str:
    out = ["| " + " | ".join(map(str, head)) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(x).replace("|", r"\|") for x in row) + " |" for row in rows]
    return "\n".join(out)


def _tex(x: object) -> str:
    return "".join(LATEX_SPECIAL.get(ch, ch) for ch in str(x)).replace("−", "$-$")


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
        writer.writerow([f"{x:.12g}" if isinstance(x, float) else x for x in row])
    return buffer.getvalue().rstrip("\n")


def _json(c: Comparison) -> str:
    data = {
        "settings": dict(c.settings),
        "means": [{"run": r, **{m: _num(float(v)) for m, v in row.items()}}
                  for r, row in c.means.iterrows()],
        "pairs": [{k: _num(v) for k, v in row.items()} for row in c.pairs.to_dict("records")],
    }  # fmt: skip
    return json.dumps(data, indent=2)


def render(c: Comparison, fmt: str, digits: int = 4) -> str:
    """The comparison in one of :data:`dcglab.comparison.FORMATS`."""
    if fmt == "csv":
        return _csv(c)
    if fmt == "json":
        return _json(c)
    mean_head, mean_rows, pair_head, pair_rows, note = _tables(c, digits)
    if fmt == "latex":
        return "\n".join([_latex(mean_head, mean_rows, 1), "", _latex(pair_head, pair_rows, 3),
                          "% " + note])  # fmt: skip
    table = _markdown if fmt == "markdown" else _text
    return "\n\n".join([table(mean_head, mean_rows), table(pair_head, pair_rows), note])
