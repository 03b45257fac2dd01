"""trec_eval 10.0 as the oracle: build the real binary, generate cases, run both tools.

The binary is built from the unmodified source in
``../shared/reference/trec_eval-10.0`` (``make`` in a temporary copy). A
:class:`Case` is a qrels text, a run text and trec_eval options; :func:`cases`
draws them with hypothesis, with the twists that have separated dcglab from
trec_eval before, alone and together:

* scores that differ only below float32 precision (trec_eval 10.0 compares
  doubles), heavy ties (broken by docno), scientific notation, negative scores;
* negative and fractional grades (trec_eval reads a grade with ``atol``, so
  ``2.5`` is 2, and a negative grade is in the pool but unjudged);
* qrels queries missing from the run (trec_eval exits with status 4 unless
  ``-c``), run queries missing from the qrels (ignored);
* long and odd docnos and qids (compared byte by byte, as ``strcmp`` does);
* unsorted lines, ``#`` comment lines, blank run lines, extra run fields, tabs
  and runs of spaces;
* every option dcglab shares with trec_eval: ``-q -c -J -M -l -n``.

:func:`trec_eval` runs the binary, :func:`dcglab` runs our command line in this
process (fast enough for hundreds of cases per test run), and
:func:`dcglab_subprocess` runs ``python -m dcglab`` as a user would.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

SOURCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "trec_eval-10.0"

MEASURES = [
    "map",
    "recip_rank",
    "P",
    "P.1,3,7",
    "recall",
    "recall.2,5",
    "ndcg",
    "ndcg_cut",
    "ndcg_cut.1,3,6",
    "ndcg.1=2,2=5,3=9",
    "ndcg.0=1,2=7",
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "gm_map",
    "Rprec",
    "bpref",
    "map_cut",
    "map_cut.1,4",
    "success",
    "success.2,3",
    "all_trec",
    "set",
    "iprec_at_recall",
    "iprec_at_recall.0.2,0.5",
    "relstring",
    "relstring.3",
    "infAP",
    "gm_bpref",
    "Rprec_mult",
    "Rprec_mult.0.5,1.5",
    "utility",
    "utility.2,-1,3,0.5",
    "11pt_avg",
    "11pt_avg.0.2,0.5,0.8",
    "binG",
    "G",
    "G.1=3.2,2=3.5,3=3.4",
    "ndcg.1=0.5",
    "ndcg.1=3.5,2=9.0,4=7.0",
    "ndcg_rel",
    "ndcg_rel.1=0.5,2=3",
    "Rndcg",
    "Rndcg.1=3.2,2=3.5,3=3.4",
    "relative_P",
    "relative_P.1,4",
    "set_P",
    "set_relative_P",
    "set_recall",
    "set_map",
    "set_F",
    "set_F.0.5",
    "set_F.-1",
    "num_nonrel_judged_ret",
    "rbp",
    "rbp.p=0.5",
    "rbp.p=0.8,1=0.5,2=2",
    "rbp_resid",
    "rbp_resid.p=0.5",
    "unj",
    "unj.1,3",
]
"""Measures dcglab prints as trec_eval does (trec_eval's ``-m`` syntax), with
every parameter form each takes."""

RBP_UNSAFE = ("ndcg", "ndcg_cut", "dcg", "ndcg_rel", "G", "11pt_avg", "iprec_at_recall")
"""Measures after which trec_eval's rbp reads other values for the ``min`` and
``max`` it leaves uninitialised (``m_rbp.c``): its rbp then depends on them
(README). Where rbp is drawn, these are left out."""


def build_trec_eval(dest: Path) -> Path:
    """Copy trec_eval's source into ``dest`` (writable, whatever the source's
    permissions), build it with ``make`` and return the binary's path."""
    tree = dest / "trec_eval-10.0"
    tree.mkdir(parents=True)
    for path in SOURCE.iterdir():
        if path.is_file():
            shutil.copyfile(path, tree / path.name)
    subprocess.run(["make", "-s"], cwd=tree, check=True, capture_output=True, text=True)
    return tree / "trec_eval"


@dataclass(frozen=True)
class Case:
    """One evaluation: file texts and the options common to both tools."""

    qrels: str
    run: str
    options: tuple[str, ...] = ()
    measures: tuple[str, ...] = ("ndcg",)
    notes: tuple[str, ...] = field(default=(), compare=False)

    def argv(self, folder: Path) -> list[str]:
        """Options, ``-m`` measures and the two file paths (written into ``folder``)."""
        q, r = folder / "qrels.txt", folder / "run.txt"
        q.write_text(self.qrels)
        r.write_text(self.run)
        meas = [arg for m in self.measures for arg in ("-m", m)]
        return [*self.options, *meas, str(q), str(r)]


@dataclass(frozen=True)
class Outcome:
    """A finished run of either tool."""

    status: int
    stdout: str
    stderr: str


def trec_eval(binary: Path, case: Case, folder: Path) -> Outcome:
    """Run the trec_eval binary on ``case``."""
    done = subprocess.run(
        [str(binary), *case.argv(folder)], capture_output=True, text=True, timeout=60
    )
    return Outcome(done.returncode, done.stdout, done.stderr)


def dcglab(case: Case, folder: Path, extra: tuple[str, ...] = ()) -> Outcome:
    """Run ``dcglab.cli.evaluate.main`` in this process on ``case`` (``extra`` options first)."""
    from dcglab.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([*extra, *case.argv(folder)])
        except SystemExit as exc:  # argparse errors
            status = exc.code if isinstance(exc.code, int) else 2
    return Outcome(int(status or 0), out.getvalue(), err.getvalue())


def dcglab_subprocess(case: Case, folder: Path, extra: tuple[str, ...] = ()) -> Outcome:
    """Run ``python -m dcglab`` on ``case`` in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-m", "dcglab", *extra, *case.argv(folder)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONWARNINGS": "error::RuntimeWarning"},
    )
    return Outcome(done.returncode, done.stdout, done.stderr)


def first_difference(ours: str, theirs: str) -> str:
    """A short description of the first line where two outputs differ."""
    a, b = ours.splitlines(), theirs.splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}: dcglab {x!r} vs trec_eval {y!r}"
    return f"dcglab has {len(a)} lines, trec_eval {len(b)}"


def leniency(case: Case) -> str | None:
    """The README's leniency that applies to ``case``, or ``None``.

    One is generated: a query whose judgments are all negative, which trec_eval
    10.0 cannot evaluate (it exits with status 4, "Can't calculate measure", or,
    when the query is not the first of the qrels, crashes);
    dcglab scores it as a query without relevant documents. Grades are read as
    trec_eval reads them, with ``atol`` (``-0.5`` is 0).
    """
    grades: dict[str, list[int]] = {}
    for line in case.qrels.splitlines():
        fields = line.split()
        if len(fields) == 4 and not line.startswith("#"):
            grades.setdefault(fields[0], []).append(int(float(fields[3])))
    run_qids = {line.split()[0] for line in case.run.splitlines() if line.split()}
    if "-c" not in case.options and set(grades) - run_qids:
        return None  # a qrels query without run lines: both tools must refuse
    if any(max(g) < 0 for g in grades.values()):
        return "a query whose judgments are all negative is evaluated (trec_eval exits 4)"
    return None


def agree(ours: Outcome, theirs: Outcome, case: Case) -> None:
    """The oracle's verdict on one case: where trec_eval prints results, the same
    bytes; where it refuses the input, a refusal (one line on stderr, status 2);
    where a README leniency applies (:func:`leniency`), results."""
    lenient = leniency(case)
    if lenient and theirs.status != 0:  # trec_eval exits 4, or crashes, on these
        assert ours.status == 0, f"README leniency ({lenient}) not honoured: {ours.stderr}"
        return
    # a crash where no leniency applies (an all-negative query beside a qrels query
    # without run lines: trec_eval fails on the first before refusing the second) is
    # a refusal: dcglab must refuse too, cleanly
    if theirs.status == 0:
        assert ours.status == 0, (
            f"dcglab refused what trec_eval 10.0 evaluates: {ours.stderr.strip()}\n{case}"
        )
        assert ours.stdout == theirs.stdout, (
            f"{first_difference(ours.stdout, theirs.stdout)}\n{case}"
        )
        return
    assert ours.status == 2, (
        f"trec_eval 10.0 refused this ({theirs.stderr.strip()!r}, status {theirs.status}) "
        f"but dcglab exited {ours.status}:\n{ours.stdout[:300]}\n{case}"
    )
    lines = ours.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dcglab"), ours.stderr


# ------------------------------------------------------------------ generators

QIDS = ["1", "2", "10", "301", "q1", "Q1", "q-7.b", "topic_with_a_rather_long_identifier_042"]
"""Query ids whose byte order differs from their numeric order."""

DOC_STEMS = ["d", "D", "doc", "AP880212-", "FT911-", "x/y.z_", "LA" + "0" * 30, "Ü"]
"""Docno stems: case, punctuation, long, and one non-ASCII (UTF-8 bytes)."""

GRADES = {
    "plain": st.sampled_from(["0", "1", "2", "3"]),
    "negative": st.sampled_from(["-1", "-2", "0", "1", "2"]),
    "fractional": st.sampled_from(["0.5", "1.5", "2.75", "-0.5", "-1.5", "3.0", "1"]),
}


@st.composite
def docnos(draw, n: int) -> list[str]:
    """``n`` distinct docnos from mixed stems and numbers (``d1``, ``d01``, ``D1`` ...)."""
    stems = draw(st.lists(st.sampled_from(DOC_STEMS), min_size=1, max_size=3, unique=True))
    pool = {f"{s}{i:0{w}d}" for s in stems for i in range(n + 3) for w in (1, 2)}
    return draw(st.lists(st.sampled_from(sorted(pool)), min_size=n, max_size=n, unique=True))


@st.composite
def scores(draw, n: int, kind: str) -> list[str]:
    """``n`` score texts of one ``kind``: plain decimals, ties, float32-close, scientific."""
    if kind == "ties":
        values = draw(st.lists(st.sampled_from([1.0, 2.0, 0.5, -1.0]), min_size=n, max_size=n))
        return [draw(st.sampled_from([f"{v:g}", f"{v:.3f}", f"{v}"])) for v in values]
    if kind == "close":  # equal as float32, distinct as double
        base = draw(st.sampled_from([0.7, 12.25, -3.5, 1e-3]))
        steps = draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n))
        return [repr(base + s * abs(base) * 1e-10) for s in steps]
    if kind == "scientific":
        values = draw(
            st.lists(st.floats(-1e6, 1e6, allow_nan=False, width=64), min_size=n, max_size=n)
        )
        return [draw(st.sampled_from([f"{v:.6e}", f"{v:E}", f"{v:.3g}"])) for v in values]
    values = draw(st.lists(st.floats(-50, 50, allow_nan=False), min_size=n, max_size=n))
    return [f"{v:.{draw(st.integers(0, 12))}f}" for v in values]


def _sep(draw, messy: bool) -> str:
    return draw(st.sampled_from([" ", "\t", "  ", " \t "])) if messy else " "


@st.composite
def cases(draw, measures: list[str] | None = None) -> Case:
    """A random qrels/run pair with random twists and trec_eval options."""
    measures = MEASURES if measures is None else measures
    notes: list[str] = []
    grade_kind = draw(st.sampled_from(sorted(GRADES)))
    score_kind = draw(st.sampled_from(["plain", "ties", "close", "scientific"]))
    messy = draw(st.booleans())
    qids = draw(st.lists(st.sampled_from(QIDS), min_size=1, max_size=4, unique=True))
    qrels_lines: list[str] = []
    run_lines: list[str] = []
    for qid in qids:
        n = draw(st.integers(1, 9))
        docs = draw(docnos(n + 3))
        in_run = draw(st.booleans()) or qid == qids[0]
        in_qrels = draw(st.booleans()) or qid == qids[0]
        if in_qrels:
            judged = draw(
                st.lists(st.sampled_from(docs), min_size=1, max_size=len(docs), unique=True)
            )
            for d in judged:
                g = draw(GRADES[grade_kind])
                qrels_lines.append(_sep(draw, messy).join([qid, "0", d, g]))
        if in_run:
            retrieved = docs[:n]
            texts = draw(scores(n, score_kind))
            for rank, (d, s) in enumerate(zip(retrieved, texts), 1):
                fields = [qid, "Q0", d, str(rank), s, "run_tag"]
                if messy and draw(st.booleans()):
                    fields.append("extra field")
                run_lines.append(_sep(draw, messy).join(fields))
        if not in_run:
            notes.append(f"{qid} only in qrels")
        if not in_qrels:
            notes.append(f"{qid} only in run")
    qrels_lines = draw(st.permutations(qrels_lines))
    run_lines = draw(st.permutations(run_lines))
    if messy:
        # trec_eval skips one '#' line at a time in qrels, so comments there stand alone
        # and never as the last line, where trec_eval 10.0 reads past the end (a crash)
        at = draw(st.integers(0, len(qrels_lines) - 1))
        qrels_lines.insert(at, "# a comment in the qrels")
        for text in draw(st.lists(st.sampled_from(["# comment", "", "   ", "#"]), max_size=3)):
            run_lines.insert(draw(st.integers(0, len(run_lines))), text)
    options: list[str] = []
    if draw(st.booleans()):
        options.append("-q")
    if draw(st.booleans()):
        options.append("-c")
    if draw(st.booleans()):
        options.append("-J")
    if draw(st.booleans()):
        options.append(f"-M{draw(st.integers(0, 6))}")
    if draw(st.booleans()):
        options.append(f"-l{draw(st.integers(0, 3))}")
    if draw(st.integers(0, 9)) == 0:
        options.append("-n")
    # a name may repeat: trec_eval keeps the first parameters given (-m P.5 -m P.10)
    chosen = draw(st.lists(st.sampled_from(measures), min_size=1, max_size=4))
    if any(m.split(".")[0] == "rbp" for m in chosen):
        chosen = [m for m in chosen if m.split(".")[0] not in RBP_UNSAFE] or ["rbp"]
    notes += [f"grades {grade_kind}", f"scores {score_kind}", "messy" if messy else "tidy"]
    return Case(
        qrels="\n".join(qrels_lines) + "\n",
        run="\n".join(run_lines) + "\n",
        options=tuple(options),
        measures=tuple(chosen),
        notes=tuple(notes),
    )
