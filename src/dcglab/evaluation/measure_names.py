"""Measure names: trec_eval's and ir_measures', parsed into :class:`Measure` s.

trec_eval's syntax (``-m`` of trec_eval 10.0): a measure, optionally ``.`` and its
parameters: ``runid``, ``num_q``, ``num_ret``, ``num_rel``, ``num_rel_ret``,
``map``, ``gm_map``, ``Rprec``, ``bpref``, ``recip_rank``,
``iprec_at_recall[.X,...]``, ``P[.K,...]``, ``recall[.K,...]``,
``map_cut[.K,...]``, ``success[.K,...]``, ``ndcg``, ``ndcg.G=V,...`` (a gain table
for that measure), ``ndcg_cut[.K,...]``, and dcglab's ``dcg`` and ``dcg_cut.K``;
the set ``official`` names trec_eval's default measures. Output names are
trec_eval's (``ndcg_cut_10``, ``P_5``, ``iprec_at_recall_0.10``) and so is the
output order.

ir_measures' syntax: ``NAME(param=value,...)@CUTOFF`` with ``nDCG``, ``P``, ``R``,
``AP``, ``RR``, ``Rprec``, ``Bpref``, ``Success``, ``Judged``, ``IPrec``,
``NumQ``, ``NumRet``, ``NumRel``, ``NumRelRet``, ``ERR`` and ``RBP`` (and ``DCG``),
the parameters ``rel`` (the relevance level of that measure), ``cutoff``, for nDCG
``dcg`` (``'log2'`` or ``'exp-log2'``) and ``gains``, and for RBP ``p`` (its
persistence, default 0.8). Such a name is its own output name, spelled as given:
``per_query["nDCG@10"]``. ir_measures' ``RBP`` is not trec_eval's ``rbp``
(``rbp.p=0.9``), a measure of its own.

Each :class:`Measure` points to its family's record
(:data:`dcglab.evaluation.measure_families.FAMILIES`), which says how it is named, ordered,
summarised and printed, and which paths compute it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np

from dcglab.evaluation.measure_families import FAMILIES, FAMILY, OFFICIAL, SETS, Family

__all__ = [
    "OFFICIAL",
    "Family",
    "Measure",
    "measure_specs",
    "parse_measures",
    "is_ir_name",
    "trec_choice",
    "trec_order",
]

REFUSED_SETS = {
    "all_prefs": "the preference measures",
    "prefs": "the preference measures",
    "qrels_jg": "the judgment-group measures",
}
IR = re.compile(r"^(?P<name>[A-Za-z]+)(?:\((?P<params>[^()]*)\))?(?:@(?P<cut>[^@()]+))?$")
# ir_measures name: (family without a cutoff, family with one, parameters it takes)
IR_NAMES = {
    "nDCG": ("ndcg", "ndcg_cut", ("dcg", "gains")),
    "DCG": ("dcg", "dcg_cut", ("dcg", "gains")),
    "P": (None, "P", ("rel",)),
    "R": (None, "recall", ("rel",)),
    "AP": ("map", "map_cut", ("rel",)),
    "RR": ("recip_rank", "recip_rank", ("rel",)),
    "Rprec": ("Rprec", None, ("rel",)),
    "Bpref": ("bpref", None, ("rel",)),
    "Success": (None, "success", ("rel",)),
    "Judged": ("Judged", "Judged", ()),
    "IPrec": (None, "iprec_at_recall", ("rel",)),
    "NumQ": ("num_q", None, ()),
    "NumRet": ("num_ret", None, ("rel",)),
    "NumRel": ("num_rel", None, ("rel",)),
    "NumRelRet": ("num_rel_ret", None, ("rel",)),
    "ERR": ("ERR", "ERR", ()),
    "RBP": ("RBP", "RBP", ("p", "rel")),
}
RBP_P = 0.8
"""ir_measures' default persistence of ``RBP``."""
IR_DCG = {"log2": "linear", "exp-log2": "exponential"}

GainTable = str | dict[float, float]


class Measure(NamedTuple):
    """One measure to compute.

    ``name`` is its output name (trec_eval's, or the ir_measures name as written);
    ``family`` what it computes; ``k`` its cutoff (``None``: the whole ranking);
    ``gain`` its own gain (trec_eval's ``ndcg.G=V,...``, ir_measures'
    ``dcg='exp-log2'``), if any; ``rel`` its own relevance level (ir_measures'
    ``rel=2``), if any; ``param`` the recall point of ``iprec_at_recall``, the
    multiple of ``Rprec_mult`` or the persistence ``p`` of ``rbp`` and ``RBP``; ``args`` the
    numbers a ``"values"`` family takes (``utility.1,-1,0,0``), if given.
    """

    name: str
    family: str
    k: int | None
    gain: GainTable | None = None
    rel: float | None = None
    param: float | None = None
    args: tuple[float, ...] | None = None

    @property
    def record(self) -> Family:
        """Its family's record in :data:`FAMILIES`."""
        return FAMILY[self.family]

    @property
    def order_key(self) -> tuple[int, float]:
        """Its place in trec_eval's output order: its family's, then its cutoff
        or recall point."""
        return FAMILIES.index(self.record), self.param if self.param is not None else self.k or 0


def _fail(name: str, why: str) -> ValueError:
    return ValueError(f"measure {name!r}: {why}")


def _cutoff(text: str, name: str, read: Callable[[str], int], kind: str) -> int:
    """One cutoff of measure ``name``, ``read`` from its text: ``kind`` (what ``read``
    accepts) and >= 1, or an error naming the measure and the text."""
    try:
        k = read(text)
    except ValueError:
        raise _fail(name, f"a cutoff must be {kind}, got {text!r}") from None
    if k < 1:
        raise _fail(name, f"every cutoff must be >= 1, got {text!r}")
    return k


def _cutoffs(text: str | None, name: str, default: Sequence[int]) -> list[int]:
    """trec_eval's cutoff list: ``10,20,23.4`` is 10, 20 and 23 (truncated, as
    ``atol`` reads it), sorted; each >= 1 and none twice, or trec_eval refuses."""
    if text is None:
        return list(default)
    out = [_cutoff(c, name, lambda c: int(float(c)), "a number") for c in text.split(",")]
    if len(set(out)) < len(out):
        raise _fail(name, "a cutoff is given twice (trec_eval refuses duplicate cutoffs)")
    return sorted(out)


def _numbers(text: str, name: str) -> list[float]:
    """A comma list of numbers, or an error naming the measure."""
    try:
        return [float(x) for x in text.split(",")]
    except ValueError:
        raise _fail(name, f"parameters must be numbers, got {text!r}") from None


def _points(text: str | None, name: str, default: Sequence[float]) -> list[float]:
    """Recall points (``iprec_at_recall.0.1,0.5``) or multiples of R
    (``Rprec_mult.0.2,1``), sorted."""
    if text is None:
        return list(default)
    out = _numbers(text, name)
    if any(not np.isfinite(x) or x < 0 for x in out):
        raise _fail(name, f"recall points must be finite and >= 0, got {text!r}")
    if len(set(out)) < len(out):
        raise _fail(name, "a recall point is given twice (trec_eval refuses it)")
    return sorted(out)


def _gain_table(text: str, name: str) -> dict[float, float]:
    """trec_eval's ``1=3,2=9,4=4.5``: integer grades, numeric gains."""
    table: dict[float, float] = {}
    for item in text.split(","):
        grade, _, value = item.partition("=")
        try:
            g = int(grade)
            v = float(value)
        except ValueError:
            raise _fail(
                name, f"expected GRADE=GAIN with an integer grade and a numeric gain, got {item!r}"
            ) from None
        if not np.isfinite(v):
            raise _fail(name, f"the gain of grade {g} is not finite: {value!r}")
        table[float(g)] = v
    return table


LISTS = tuple(f.name for f in FAMILIES if f.trec and f.params in ("cutoffs", "points"))
"""The families named with a list of cutoffs or recall points (``P.5,10``)."""
TAKES = tuple(f.name for f in FAMILIES if f.trec and f.params != "none")
"""The trec_eval families that take parameters."""


def _values(f: Family, params: str | None, name: str) -> Measure:
    """A ``"values"`` family's measure: ``utility.1,-1,0,0`` (output ``utility_1,-1,0,0``)."""
    if params is None:
        return Measure(f.name, f.name, None)
    args = _numbers(params, name)
    if f.name == "utility" and len(args) != 4:
        raise _fail(name, "utility takes 4 weights (trec_eval cannot evaluate other counts)")
    if not all(np.isfinite(args)):
        raise _fail(name, f"parameters must be finite, got {params!r}")
    return Measure(f.output_name(params), f.name, None, args=tuple(args))


def _pairs(f: Family, params: str, name: str) -> Measure:
    """A gain table ``G=V,...``; ``rbp`` and ``rbp_resid`` also take ``p=P``."""
    items = params.split(",")
    p = [i for i in items if i.partition("=")[0] == "p"]
    if p and f.name not in ("rbp", "rbp_resid"):
        raise _fail(name, f"{f.name} takes a gain table GRADE=GAIN,..., not p=")
    persistence = None
    if p:
        persistence = _numbers(p[-1].partition("=")[2], name)[0]
        if not 0 < persistence < 1:
            raise _fail(name, f"p must be between 0 and 1, got {p[-1]!r}")
    rest = ",".join(i for i in items if i not in p)
    if rest and f.name == "rbp_resid":
        raise _fail(name, "rbp_resid takes p= only")
    table = _gain_table(rest, name) if rest else None
    return Measure(f.output_name(params), f.name, None, table, param=persistence)


def _split(name: str) -> tuple[str, str | None]:
    """A trec_eval name's measure and parameter text: ``P.5,10`` is ``P`` and
    ``5,10``; an output name such as ``P_5`` or ``ndcg_cut_10`` is accepted too."""
    head, _, tail = name.rpartition("_")
    if tail[:1].isdigit() and head.lower() in (f.lower() for f in LISTS):
        return head, tail
    family, dot, params = name.partition(".")
    return (family, params) if dot else (name, None)


def _trec(name: str) -> list[Measure] | None:
    """A name in trec_eval's syntax, or ``None`` if it is not one."""
    family, params = _split(name)
    lower = family.lower()
    if lower in FAMILY and FAMILY[lower].kernel == "dcg":  # NDCG_CUT.10 is read too
        family = lower
    f = FAMILY.get(family)
    if f is None or not f.trec:
        return None
    if f.params == "gains" and params is not None and "=" in params:
        return [_pairs(f, params, name)]
    if f.params == "values":
        return [_values(f, params, name)]
    if f.params in ("none", "gains"):
        if params is not None:
            raise _fail(name, f"{family} takes no parameter")
        return [Measure(family, family, None)]
    if f.params == "cutoffs":
        cuts = _cutoffs(params, name, f.defaults)
        return [Measure(f.output_name(k), family, k) for k in cuts]
    points = _points(params, name, f.defaults)
    return [Measure(f.output_name(x), family, None, param=x) for x in points]


def _ir_params(text: str | None, name: str) -> dict[str, object]:
    """``rel=2, dcg='exp-log2'`` as a dict of Python literals."""
    if not text:
        return {}
    bad = _fail(name, f"parameters must be NAME=VALUE, ... with literal values, got {text!r}")
    try:
        call = ast.parse(f"f({text})", mode="eval").body
        if not isinstance(call, ast.Call) or call.args or any(k.arg is None for k in call.keywords):
            raise bad
        return {str(k.arg): ast.literal_eval(k.value) for k in call.keywords}
    except (SyntaxError, ValueError):
        raise bad from None


def _ir_cutoff(text: object, family: str, name: str) -> tuple[int | None, float | None]:
    """The cutoff ``k`` (or, for ``IPrec@r``, the recall point) written after ``@``."""
    if text is None:
        return None, None
    if FAMILY[family].params == "points":
        return None, _points(str(text), name, ())[0]
    return _cutoff(str(text), name, int, "an integer"), None


def _ir_gain(params: dict, name: str) -> GainTable | None:
    """The gain of ``dcg=`` (ir_measures' ``'exp-log2'``) or ``gains={grade: gain}``."""
    gain: GainTable | None = None
    if "dcg" in params:
        if params["dcg"] not in IR_DCG:
            raise _fail(name, f"dcg must be one of {tuple(IR_DCG)}, got {params['dcg']!r}")
        gain = IR_DCG[params["dcg"]]
    if "gains" in params:
        table = params["gains"]
        if gain == "exponential" or not isinstance(table, Mapping):
            raise _fail(name, "gains must be a mapping {grade: gain}, without dcg='exp-log2'")
        try:
            gain = {float(g): float(v) for g, v in table.items()}
        except (TypeError, ValueError):
            raise _fail(name, f"gains must map numbers to numbers, got {table!r}") from None
    return gain


def _ir_base(name: str) -> tuple[str, re.Match] | None:
    """The ir_measures measure a name refers to (case-insensitive, ``NDCG`` too)."""
    m = IR.match(name)
    bare = m is not None and m["params"] is None and m["cut"] is None
    if not m or (bare and (name not in IR_NAMES or name == "P")):
        return None
    base = m["name"] if m["name"] in IR_NAMES else m["name"].upper()
    base = {"NDCG": "nDCG"}.get(base, base)
    return (base, m) if base in IR_NAMES else None


def _ir(name: str) -> Measure | None:
    """A name in ir_measures' syntax, or ``None`` if it is not one."""
    found = _ir_base(name)
    if found is None:
        return None
    base, m = found
    plain, cut, allowed = IR_NAMES[base]
    params = _ir_params(m["params"], name)
    if "judged_only" in params:
        raise _fail(name, "judged_only per measure is not supported; use judged_only=True (-J)")
    cutoff = params.pop("cutoff", None)
    for key in params:
        if key not in allowed:
            takes = ", ".join(("cutoff", *allowed)) if cut else ", ".join(allowed) or "nothing"
            raise _fail(name, f"{base} takes {takes}; got {key}=")
    text = m["cut"] if m["cut"] is not None else cutoff
    if text is not None and cut is None:
        raise _fail(name, f"{base} takes no cutoff")
    if text is None and plain is None:
        raise _fail(name, f"{base} needs a cutoff, e.g. {base}@10")
    family = cut if text is not None else plain
    k, point = _ir_cutoff(text, family, name)
    rel = params.get("rel")
    if rel is not None and (isinstance(rel, bool) or not isinstance(rel, (int, float))):
        raise _fail(name, f"rel must be a number, got {rel!r}")
    if base == "NumRet" and rel is not None:
        family = "num_rel_ret"
    if base == "RBP":
        point = _persistence(params.get("p", RBP_P), name)
    gain = _ir_gain(params, name)
    return Measure(name, family, k, gain, None if rel is None else float(rel), point)


def _persistence(p: object, name: str) -> float:
    """RBP's ``p=``: a number strictly between 0 and 1, or an error naming the measure."""
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p < 1:
        raise _fail(name, f"p (RBP's persistence) must be a number between 0 and 1, got {p!r}")
    return float(p)


def is_ir_name(m: Measure) -> bool:
    """Whether ``m`` was named in ir_measures' syntax (``RR@10``, ``AP``, ``Judged@5``).

    Examples
    --------
    >>> [is_ir_name(m) for m in measure_specs(["RR@10", "recip_rank", "AP", "P.5"])]
    [True, False, True, False]
    """
    return "@" in m.name or "(" in m.name or m.name in IR_NAMES


def _parse(name: str) -> list[Measure]:
    if name in SETS:
        return [m for n in SETS[name] for m in _parse(n)]
    if name in REFUSED_SETS:
        raise _fail(
            name,
            f"trec_eval's set {name!r} holds {REFUSED_SETS[name]}, which dcglab does not "
            "compute; ask for its measures one by one, or use 'official' or 'all_trec'",
        )
    found = _ir(name)
    if found is not None:
        return [found]
    measures = _trec(name)
    if measures is None:
        raise ValueError(
            f"unknown measure {name!r}: use trec_eval's names (official, map, P.10, "
            "ndcg_cut.10, bpref, ...) or ir_measures' (nDCG@10, RR@10, AP@100, "
            "P(rel=2)@10, Judged@10, ...)"
        )
    return measures


def _flat_names(names: Iterable[str]) -> list[str]:
    """The names given, stripped, with ``official`` expanded; refuses a bare string."""
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise ValueError(
            f"measures must be a list of measure names, got {names!r}; write [{names!r}]"
        )
    flat: list[str] = []
    for name in names:
        if not isinstance(name, str):
            raise ValueError(f"measures: each measure is a name (str), got {name!r}")
        flat += SETS.get(name.strip(), [name.strip()])
    return flat


def _merged(flat: list[str]) -> list[Measure]:
    """The measures of the names, in order. As in trec_eval, a measure named
    without cutoffs defers to a list given for it (``-m official -m P.7`` prints
    ``P_7`` only); several lists are merged (:func:`trec_choice` keeps the first,
    as trec_eval does)."""
    chosen: dict[str, list[str]] = {}
    for name in flat:
        family, params = _split(name)
        if params is not None and family in LISTS:
            chosen.setdefault(family, []).append(name)
    out: list[Measure] = []
    done: set[str] = set()
    for name in flat:
        family = _split(name)[0]
        if family in done:
            continue
        if family in chosen:
            done.add(family)
            out += [m for given in chosen[family] for m in _parse(given)]
        else:
            out += _parse(name)
    return out


def trec_choice(names: Iterable[str]) -> list[str]:
    """The names as trec_eval reads repeated ``-m`` options: of the parameter
    lists given for one measure only the first counts, and the measure named
    without parameters defers to it (``-m P.5 -m P.10`` is ``P.5``; ``-m ndcg -m
    ndcg.1=2`` is ``ndcg.1=2``); sets are expanded.

    Examples
    --------
    >>> trec_choice(["P.5", "map", "P.10", "ndcg", "ndcg.1=2"])
    ['P.5', 'map', 'ndcg.1=2']
    """
    flat = _flat_names(names)
    first: dict[str, str] = {}
    for name in flat:
        family, params = _split(name)
        if params is not None and family in TAKES:
            first.setdefault(family, name)
    out: list[str] = []
    for name in flat:
        chosen = first.get(_split(name)[0], name)
        if chosen not in out:
            out.append(chosen)
    return out


def measure_specs(names: Iterable[str], *, runid: bool = False) -> list[Measure]:
    """Parse measure names (trec_eval's syntax or ir_measures').

    ``runid`` (part of ``official``) is a line of the command line's output, not a
    value: it is dropped unless ``runid=True``. Several cutoff lists for one
    measure are merged (:func:`trec_choice` keeps the first, as trec_eval does).

    Examples
    --------
    >>> [m.name for m in measure_specs(["ndcg_cut.5,10", "P.5", "map", "nDCG@3",
    ...                                 "ndcg.1=3,2=9", "P(rel=2)@10"])]
    ['ndcg_cut_5', 'ndcg_cut_10', 'P_5', 'map', 'nDCG@3', 'ndcg_1=3,2=9', 'P(rel=2)@10']
    """
    out = _merged(_flat_names(names))
    if not runid:
        out = [m for m in out if m.record.kernel != "tag"]
    if not out:
        raise ValueError("measures is empty: name at least one measure")
    return list({m.name: m for m in out}.values())


def parse_measures(names: Iterable[str]) -> list[tuple[str, int | None]]:
    """Measure names as ``(output name, cutoff)`` pairs (see :func:`measure_specs`).

    Examples
    --------
    >>> parse_measures(["ndcg_cut.5,10", "ndcg", "nDCG@3", "dcg_cut.2"])
    [('ndcg_cut_5', 5), ('ndcg_cut_10', 10), ('ndcg', None), ('nDCG@3', 3), ('dcg_cut_2', 2)]
    """
    return [(m.name, m.k) for m in measure_specs(names)]


def trec_order(measures: Iterable[Measure]) -> list[Measure]:
    """trec_eval's output order: its measure table (``runid``, ``num_q``, ...,
    ``map``, ``gm_map``, ..., ``P``, ``recall``, ``ndcg``, ``ndcg_cut``, ...),
    cutoffs ascending, each output name once.

    Examples
    --------
    >>> given = measure_specs(["ndcg_cut.10", "ndcg", "P.5", "ndcg_cut.5", "map", "bpref"])
    >>> [m.name for m in trec_order(given)]
    ['map', 'bpref', 'P_5', 'ndcg', 'ndcg_cut_5', 'ndcg_cut_10']
    """
    unique = {m.name: m for m in measures}
    return sorted(unique.values(), key=lambda m: m.order_key)
