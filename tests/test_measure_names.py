"""dcglab.evaluation.measure_names: trec_eval's and ir_measures' names, their refusals and
labels."""

import pytest

from dcglab.evaluation.measure_families import FAMILY
from dcglab.evaluation.measure_names import OFFICIAL, measure_specs, trec_order


def names(*given: str) -> list[str]:
    return [m.name for m in measure_specs(given)]


def test_official_is_trec_evals_default_set():
    got = names("official")
    assert got[:10] == ["num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map"] + [
        "Rprec",
        "bpref",
        "recip_rank",
        "iprec_at_recall_0.00",
    ]
    assert got[-9:] == [f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
    assert [m.name for m in measure_specs(["official"], runid=True)][0] == "runid"
    assert OFFICIAL[0] == "runid"


@pytest.mark.parametrize(
    ("given", "family", "k", "rel"),
    [
        ("nDCG@10", "ndcg_cut", 10, None),
        ("RR@10", "recip_rank", 10, None),
        ("AP@100", "map_cut", 100, None),
        ("AP", "map", None, None),
        ("R@1000", "recall", 1000, None),
        ("P(rel=2)@10", "P", 10, 2.0),
        ("Judged@10", "Judged", 10, None),
        ("Success@5", "success", 5, None),
        ("Rprec", "Rprec", None, None),
        ("Bpref(rel=2)", "bpref", None, 2.0),
        ("NumRet(rel=1)", "num_rel_ret", None, 1.0),
        ("NumQ", "num_q", None, None),
    ],
)
def test_ir_measures_names_keep_their_spelling(given, family, k, rel):
    (m,) = measure_specs([given])
    assert (m.name, m.family, m.k, m.rel) == (given, family, k, rel)


def test_ir_measures_parameters():
    (m,) = measure_specs(["nDCG(dcg='exp-log2')@10"])
    assert (m.family, m.k, m.gain) == ("ndcg_cut", 10, "exponential")
    (m,) = measure_specs(["nDCG(gains={0: 0, 1: 1, 2: 3})@5"])
    assert m.gain == {0.0: 0.0, 1.0: 1.0, 2.0: 3.0}
    (m,) = measure_specs(["IPrec@0.1"])
    assert (m.family, m.param) == ("iprec_at_recall", 0.1)


def test_trec_eval_parameters():
    assert names("P.5,7,3") == ["P_3", "P_5", "P_7"]
    assert names("recall.3.7") == ["recall_3"]  # trec_eval reads 3.7 with atol
    assert names("success") == ["success_1", "success_5", "success_10"]
    assert names("iprec_at_recall..10,.5") == ["iprec_at_recall_0.10", "iprec_at_recall_0.50"]
    assert names("P_5", "ndcg_cut_10") == ["P_5", "ndcg_cut_10"]  # output names read back


def test_a_cutoff_list_replaces_the_default_cutoffs_as_in_trec_eval():
    for given in (("P.7", "official"), ("official", "P.7")):
        assert [n for n in names(*given) if n.startswith("P_")] == ["P_7"]
    assert names("P.5", "P.10", "P") == ["P_5", "P_10"]  # merged; trec_eval keeps P.5


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ("P.5,5", "twice"),
        ("P.0", ">= 1"),
        ("P.a", "must be a number"),
        ("iprec_at_recall.0.5,0.5", "twice"),
        ("prefs", "dcglab does not compute"),
        ("qrels_jg", "dcglab does not compute"),
        ("set_F.x", "must be numbers"),
        ("utility.1,-1", "4 weights"),
        ("ndcg.p=0.5", "not p="),
        ("rbp_resid.1=2", "p= only"),
        ("map.5", "takes no parameter"),
        ("Rprec@10", "takes no cutoff"),
        ("P", None),
        ("Success", "needs a cutoff"),
        ("P(judged_only=True)@10", "judged_only"),
        ("P(gains={1: 2})@10", "takes cutoff, rel"),
        ("nDCG(dcg='exp')@10", "dcg must be one of"),
        ("RR@x", "integer"),
        ("bogus", "unknown measure 'bogus'"),
    ],
)
def test_refusals_name_the_measure(given, words):
    if words is None:  # bare P is trec_eval's P at its default cutoffs, not an error
        assert names(given)[0] == "P_5"
        return
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        measure_specs([given])


def test_runid_alone_is_no_value():
    with pytest.raises(ValueError, match="empty"):
        measure_specs(["runid"])


def test_order_and_families():
    given = measure_specs(["P.5", "iprec_at_recall.0.1", "bpref", "runid", "Judged@10"], runid=True)
    got = trec_order(given)
    assert [m.name for m in got] == ["runid", "bpref", "iprec_at_recall_0.10", "P_5", "Judged@10"]
    by_name = {m.name: m for m in given}
    assert by_name["iprec_at_recall_0.10"].family == "iprec_at_recall"
    assert measure_specs(["P(rel=2)@10"])[0].record is FAMILY["P"]
