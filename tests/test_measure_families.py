"""dcglab.evaluation.measure_families: the table of families checked against trec_eval 10.0's
source."""

import re
from pathlib import Path

import pytest

from dcglab.evaluation.batch import binary
from dcglab.evaluation.measure_families import FAMILIES, OFFICIAL

SOURCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "trec_eval-10.0"


@pytest.fixture(scope="module")
def source(skip_or_fail) -> Path:
    if not SOURCE.is_dir():
        skip_or_fail(f"trec_eval's source is not in {SOURCE}")
    return SOURCE


def _c_list(text: str, start: str) -> list[str]:
    """The entries of a C initialiser list that begins at ``start``."""
    body = text[text.index(start) :]
    return re.findall(r"[\w.]+", body[body.index("{") + 1 : body.index("}")])


def _trec_families() -> list:
    """The families trec_eval computes too (it has their source file)."""
    return [f for f in FAMILIES if (SOURCE / f"m_{f.name}.c").is_file()]


def test_order_is_trec_evals_measure_table(source):
    table = _c_list((source / "measures.c").read_text(), "te_trec_measures[]")
    order = [name.removeprefix("te_meas_") for name in table]
    ours = [f.name for f in _trec_families()]
    assert ours == sorted(ours, key=order.index)


def test_official_is_trec_evals_off_names(source):
    off = _c_list((source / "measures.c").read_text(), "off_names[]")
    assert list(OFFICIAL) == [n.strip('"') for n in off if n != "NULL"]


def test_counts_summary_only_and_defaults_are_trec_evals(source):
    """A count is initialised as a long, a summary-only measure prints no query line,
    and the default cutoffs are the C arrays."""
    for f in _trec_families():
        text = (source / f"m_{f.name}.c").read_text()
        assert f.count == ("te_init_meas_s_long" in text), f.name
        assert f.summary_only == ("te_print_single_meas_empty" in text), f.name
        if f.params in ("cutoffs", "points"):
            start = text.index("cutoff_array[] = {")
            c = _c_list(text, "cutoff_array[] =")
            assert f.defaults == tuple(float(x) for x in c), (f.name, text[start : start + 80])


def test_every_family_has_its_kernel():
    for f in FAMILIES:
        if f.kernel == "binary":
            assert f.name in binary.KERNELS or f.name in binary.COUNT_KERNELS, f.name
        assert f.help, f.name
