"""The conventions table (:mod:`dcglab.evaluation.options`): one check and one message per option,
on every path (the default path, DuckDB, Spark and the command line)."""

from __future__ import annotations

import dataclasses
from functools import partial

import pytest

from dcglab.cli import main
from dcglab.evaluation.batch import compute, evaluate, prepare
from dcglab.evaluation.options import OPTIONS, Conventions, OptionError
from dcglab.formulas.discounts import Discount

QRELS = "q1 0 d1 2\nq1 0 d2 1\nq2 0 d3 1\n"
RUN = "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq2 Q0 d3 1 1.0 t\n"

# (option, bad value as Python passes it, the same value as typed on the command
# line, or None where the command line has no such option: -c and -J are flags)
BAD = [
    ("gain", "cubic", "cubic"),
    ("gain", "exponential:1", "exponential:1"),
    ("discount", "rbp:2", "rbp:2"),
    ("discount", "log:x", "log:x"),
    ("discount", "cosine", "cosine"),
    ("ideal", "best", "best"),
    ("ties", "random", "random"),
    ("zero_idcg", "nan", "nan"),
    ("negative_grades", "zero", "zero"),
    ("score_precision", "float64", "float64"),
    ("fractional_grades", "round", "round"),
    ("relevance_level", 1.5, "1.5"),
    ("relevance_level", -1, "-1"),
    ("relevance_level", "abc", "abc"),
    ("max_docs", -1, "-1"),
    ("max_docs", 2.5, "2.5"),
    ("max_docs", "ten", "ten"),
    ("missing", "drop", None),
    ("judged_only", "yes", None),
    ("corrected", "yes", None),
    ("ir_measures", 1, None),
]
IDS = [f"{name}={value!r}" for name, value, _ in BAD]


@pytest.fixture
def files(tmp_path):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(QRELS)
    run.write_text(RUN)
    return qrels, run


def message(path, files, name: str, value: object) -> str:
    with pytest.raises(OptionError) as err:
        path(*files, ["ndcg_cut.10"], **{name: value})
    return str(err.value)


def test_the_message_names_the_option_and_the_value():
    for name, value, _ in BAD:
        with pytest.raises(OptionError) as err:
            Conventions(**{name: value})
        text = str(err.value)
        assert text.startswith(f"{name} ") and repr(value) in text, text
        assert "\n" not in text
        assert text.count(repr(value)) == 1, text  # the value is named once, not per layer


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"discount": "log:1"}, "discount 'log:1': base must be greater than 1 (a base <= 1 "
                                "gives no decreasing discount), got 1.0"),
        ({"gain": "exponential:1"}, "gain 'exponential:1': the exponential base must be a "
                                    "finite number > 1, got '1'"),
    ],
)  # fmt: skip
def test_what_is_wrong_inside_a_value_follows_its_name_once(options, expected):
    with pytest.raises(OptionError) as err:
        Conventions(**options)
    assert str(err.value) == expected


@pytest.mark.parametrize(("name", "value", "typed"), BAD, ids=IDS)
def test_duckdb_gives_the_default_paths_message(files, require, name, value, typed):
    require("duckdb")
    from dcglab.evaluation.engines import evaluate as engine_evaluate

    expected = message(evaluate, files, name, value)
    assert message(engine_evaluate, files, name, value) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("name", "value", "typed"), BAD, ids=IDS)
def test_spark_gives_the_default_paths_message(files, require, name, value, typed):
    require("pyspark")
    from dcglab.evaluation.engines import evaluate as engine_evaluate

    expected = message(evaluate, files, name, value)
    assert message(partial(engine_evaluate, engine="spark"), files, name, value) == expected


@pytest.mark.parametrize(
    ("name", "value", "typed"),
    [b for b in BAD if b[2] is not None],
    ids=[i for i, b in zip(IDS, BAD) if b[2] is not None],
)
def test_the_command_line_gives_the_same_message_under_its_flag(files, capsys, name, value, typed):
    expected = message(evaluate, files, name, value)
    flag = OPTIONS[name].flag
    assert main([*map(str, files), "-m", "ndcg_cut.10", flag, typed]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"dcglab: error: {flag}{expected[len(name) :]}\n"


def test_every_option_has_a_field_and_a_checked_default():
    assert [f.name for f in dataclasses.fields(Conventions)] == list(OPTIONS)
    c = Conventions()
    for name, option in OPTIONS.items():
        assert getattr(c, name) == option.check(option.default)


def test_values_are_normalised_once():
    c = Conventions(ideal="qrels-cut", discount="rbp:0.5", max_docs=10.0, relevance_level=2)
    assert (c.ideal, c.discount, c.max_docs, c.relevance_level) == (
        "judged",
        Discount("geometric", p=0.5),
        10,
        2.0,
    )
    assert type(c.max_docs) is int
    assert Conventions.of(c) is c
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.ties = "average"  # type: ignore[misc]


def test_an_unknown_keyword_is_a_type_error_listing_the_options(files):
    with pytest.raises(TypeError, match="unknown option 'tie'; the options are gain, "):
        evaluate(*files, ["ndcg"], tie="trec")


def test_compute_refuses_a_reading_option_that_prepare_did_not_use(files):
    p = prepare(*files, max_docs=1)
    assert compute(p, ["ndcg"], zero_idcg="zero").values["ndcg"].shape == (2,)
    with pytest.raises(ValueError, match=r"max_docs=2: max_docs is applied when the tables"):
        compute(p, ["ndcg"], max_docs=2)


def test_a_conventions_value_gives_what_its_keywords_give(files):
    kw = {"zero_idcg": "zero", "max_docs": 1, "gain": "exponential", "discount": "ln"}
    by_value = evaluate(*files, ["ndcg", "ndcg_cut.1"], conventions=Conventions(**kw))
    by_keywords = evaluate(*files, ["ndcg", "ndcg_cut.1"], **kw)
    for name in ("ndcg", "ndcg_cut_1"):
        assert by_value.values[name].tolist() == by_keywords.values[name].tolist()
    assert by_value.values["ndcg"][0] < 1  # q1 cut at its first document: max_docs applied


def test_conventions_may_be_the_trec_eval_mapping_or_a_value_and_nothing_else(files):
    """``conventions=TREC_EVAL`` gives what ``**TREC_EVAL`` gives (keywords still win);
    a value of another type is a TypeError naming the parameter, before any reading."""
    from dcglab.evaluation.presets import TREC_EVAL

    measures = ["ndcg", "map", "P.1"]
    by_keywords = evaluate(*files, measures, **TREC_EVAL)
    for conventions in (TREC_EVAL, dict(TREC_EVAL), Conventions.of(TREC_EVAL)):
        result = evaluate(*files, measures, conventions=conventions)
        assert result.means() == by_keywords.means()
    cut = evaluate(*files, ["ndcg"], conventions=TREC_EVAL, max_docs=1)
    same = evaluate(*files, ["ndcg"], **{**TREC_EVAL, "max_docs": 1})
    assert cut.values["ndcg"].tolist() == same.values["ndcg"].tolist()
    for wrong in ("trec_eval", 1, ["zero_idcg"]):
        with pytest.raises(TypeError, match=r"^conventions must be a Conventions or a mapping"):
            evaluate("no such file", "no such run", measures, conventions=wrong)
    with pytest.raises(TypeError, match="unknown option 'tie'"):
        evaluate(*files, measures, conventions={"tie": "trec"})
