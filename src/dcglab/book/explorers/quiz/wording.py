"""Wording of the quizzes: templates filled with a question's inputs.

In prompts, explanations and feedback, ``{name}`` is an input, written as the book writes
it (a list of grades as ``(3, 0, 2)``), and ``{name|filter|filter:arg}`` passes it through
:data:`FILTERS`. In expressions, a string ``"$name|filter"`` is the raw value
(:func:`resolve`). ``{answer}``, ``{p0}``, ``{p1}``, ... and ``{value}`` are the page's
own placeholders (:data:`RUNTIME`), filled by :func:`render` with the computed numbers.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from dcglab.formulas.gains import gain_values

Inputs = dict[str, Any]

#: Placeholders the page fills in; inputs may not use these names.
RUNTIME = re.compile(r"^(answer|value|p\d+)$")


def tup(values: list[int]) -> str:
    """Grades as the book writes a ranking: ``(3, 0, 2)``."""
    return "(" + ", ".join(str(v) for v in values) + ")"


def ranks(hits: list[int]) -> str:
    """Ranks in prose: ``rank 3``, ``ranks 2 and 5``, ``ranks 2, 4 and 5``."""
    if len(hits) == 1:
        return f"rank {hits[0]}"
    return "ranks " + ", ".join(map(str, hits[:-1])) + f" and {hits[-1]}"


def terms(grades: list[int], gain: str = "linear", base: str = "₂") -> str:
    """The DCG sum written out: ``3/log₂2 + 0/log₂3 + ...`` (gains, not computed values)."""
    gains = [int(x) for x in gain_values(grades, gain)]
    return " + ".join(f"{x}/log{base}{i + 2}" for i, x in enumerate(gains))


def rest(run: list[int], judged: list[int]) -> list[int]:
    """The run followed by the judged documents it did not retrieve (best first)."""
    left = Counter(judged) - Counter(run)
    return list(run) + sorted(left.elements(), reverse=True)


CODES = {1: "1", 2: "2", 3: "3", 4: "4", None: "not in the qrels"}

#: Filters a template applies with ``{name|filter}`` or ``{name|filter:arg}``; ``arg`` is a
#: whole number or the name of another input.
FILTERS: dict[str, Callable[..., Any]] = {
    "len": len,
    "plus": lambda x, n: x + n,
    "minus": lambda x, n: x - n,
    "complement": lambda x: round(1 - x, 12),
    "head": lambda g, n: list(g[: len(n) if isinstance(n, list) else n]),
    "item": lambda xs, n: xs[n],
    "reverse_head": lambda g, n: list(g[:n][::-1]) + list(g[n:]),
    "ideal": lambda g: sorted(g, reverse=True),
    "rest": rest,
    "exp_gains": lambda g: [int(x) for x in gain_values(g, "exponential")],
    "hits": lambda g: [i + 1 for i, x in enumerate(g) if x >= 1],
    "sum_terms": lambda g: " + ".join(map(str, g)),
    "terms": terms,
    "exp_terms": lambda g: terms(g, "exponential"),
    "ranks": ranks,
    "cranfield_grades": lambda codes: [0 if c is None else 5 - c for c in codes],
    "codes": lambda codes: ", ".join(CODES[c] for c in codes),
    "queries": lambda rs: "; ".join(f"q{n + 1}: {tup(r)}" for n, r in enumerate(rs)),
}

FIELD = re.compile(r"\{([A-Za-z_]\w*)((?:\|\w+(?::\w+)?)*)\}")


def _apply(name: str, chain: str, inputs: Inputs) -> Any:
    """The input ``name`` passed through the filters of ``chain`` (``|f|g:arg``)."""
    if name not in inputs:
        raise KeyError(f"the placeholder {name!r} is not an input ({sorted(inputs)})")
    value = inputs[name]
    for step in filter(None, chain.split("|")):
        fname, _, arg = step.partition(":")
        if fname not in FILTERS:
            raise KeyError(f"the filter {fname!r} is unknown ({sorted(FILTERS)})")
        if not arg:
            value = FILTERS[fname](value)
        else:
            value = FILTERS[fname](value, int(arg) if arg.isdigit() else inputs[arg])
    return value


def _written(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return tup(value)
    return str(value)


def fill(template: str, inputs: Inputs) -> str:
    """A template with its input placeholders written out; the page's own placeholders
    (``{answer}``, ``{value}``, ``{p0}``, ...) are left for the page.

    >>> fill("CG@{k} of {grades} is {answer}", {"grades": [3, 0], "k": 2})
    'CG@2 of (3, 0) is {answer}'
    """

    def one(m: re.Match[str]) -> str:
        if RUNTIME.match(m.group(1)) and not m.group(2):
            return m.group(0)
        return _written(_apply(m.group(1), m.group(2), inputs))

    return FIELD.sub(one, template)


def resolve(x: Any, inputs: Inputs) -> Any:
    """An expression (or explorer state) with its ``"$name|filter"`` strings replaced by
    the values they name."""
    if isinstance(x, dict):
        return {k: resolve(v, inputs) for k, v in x.items()}
    if isinstance(x, list):
        return [resolve(v, inputs) for v in x]
    if isinstance(x, str) and x.startswith("$"):
        name, _, chain = x[1:].partition("|")
        return _apply(name, "|" + chain if chain else "", inputs)
    return x


def _show(x: float) -> str:
    """A number as the page shows it: whole numbers plainly, others to three decimals."""
    r = round(x)
    return str(r) if abs(x - r) < 1e-9 else f"{x:.3f}"


def render(template: str, answer: float, quotes: list[float], value: float | None = None) -> str:
    """A template with the page's placeholders filled in (what quiz.js's ``explain`` does)."""
    out = re.sub(r"\{p(\d+)\}", lambda m: _show(quotes[int(m.group(1))]), template)
    out = out.replace("{answer}", _show(answer))
    return out.replace("{value}", _show(value)) if value is not None else out
