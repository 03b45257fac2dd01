"""From a ranked list of document ids and the judgments (qrels) to grades.

Judgments are usually incomplete: some retrieved documents were never judged.
Two conventions are common:

``"zero"`` (default)
    an unjudged document counts as grade 0, as trec_eval, ranx and ir_measures do;
``"condense"``
    unjudged documents are removed before scoring (a *condensed list*, Sakai 2007),
    so the documents below them move up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

Unjudged = Literal["zero", "condense"]


def run_grades(
    docs: Sequence[str], qrels: Mapping[str, float], unjudged: Unjudged = "zero"
) -> list[float]:
    """Grades of a ranked list of document ids under a convention for unjudged ones.

    Raises
    ------
    ValueError
        If a document id occurs twice, the list is empty, or the convention is unknown.

    Examples
    --------
    >>> qrels = {"a": 3, "b": 0, "c": 2}
    >>> run_grades(["x", "a", "c"], qrels)
    [0, 3, 2]
    >>> run_grades(["x", "a", "c"], qrels, unjudged="condense")
    [3, 2]
    """
    if unjudged not in ("zero", "condense"):
        raise ValueError(f"unjudged must be 'zero' or 'condense', got {unjudged!r}")
    if not docs:
        raise ValueError("docs is empty: a ranking needs at least one document")
    seen: set[str] = set()
    dupes = sorted({d for d in docs if d in seen or seen.add(d)})
    if dupes:
        raise ValueError(f"docs lists document id(s) more than once: {dupes}")
    if unjudged == "condense":
        return [qrels[d] for d in docs if d in qrels]
    return [qrels.get(d, 0) for d in docs]
