"""Tests of dcglab.collections.cranfield.search: the recorded result of
scripts/cranfield_search.py."""

from __future__ import annotations

import csv

import pytest
from cranfield_kit import ROOT, collection

from dcglab.book.article import ARTICLE_TABLE
from dcglab.collections import cranfield as cf
from dcglab.collections.cranfield import search


@pytest.fixture(scope="module")
def col(skip_or_fail) -> cf.Collection:
    return collection(skip_or_fail)


RESULTS = ROOT / "scripts" / "cranfield_search_results.csv"


def result_rows(view: str) -> list[dict]:
    with open(RESULTS, newline="") as f:
        return [r for r in csv.DictReader(f) if r["view"] == view]


def config_of(row: dict) -> cf.Config:
    names = set(cf.Config.__dataclass_fields__) - {"fields", "bm25_k1", "bm25_b"}
    return cf.Config(
        fields=tuple(row["fields"].split("+")),
        bm25_k1=float(row["bm25_k1"]),
        bm25_b=float(row["bm25_b"]),
        **{k: row[k] for k in names},
    )


def test_default_config_is_the_searchs_closest():
    best = result_rows("top")[0]
    assert best["rank"] == "1" and best["minus_one"] == "nonrelevant"
    assert config_of(best) == cf.Config()


@pytest.mark.slow  # indexes and ranks the whole collection
@pytest.mark.parametrize("view", ["top", "standard"])
def test_configuration_reproduces_the_recorded_figures(col, view, capsys):
    row = result_rows(view)[0]
    config = config_of(row)
    index = cf.Index.build(col, config)
    per = {
        (m, g): cf.ndcg_by_query(col, cf.rank(index, m), 10, g)
        for m in cf.MODELS
        for g in ("graded", "binary")
    }
    article = ARTICLE_TABLE
    with capsys.disabled():
        print(f"\nCranfield nDCG@10, {view} configuration: computed (article)")
    diffs = []
    for m, g in per:
        got = cf.mean(per[m, g])
        with capsys.disabled():
            print(f"  {m:5s} {g:6s} {got:.4f} ({article[m][g]:.3f})")
        assert got == pytest.approx(float(row[f"{m}_{g}"]), abs=5e-7)  # CSV has 6 decimals
        diffs.append(abs(got - article[m][g]))
    assert max(diffs) == pytest.approx(float(row["max_diff"]), abs=1e-6)
    changes = cf.direction_changes(
        (per["tfidf", "graded"], per["bm25", "graded"]),
        (per["tfidf", "binary"], per["bm25", "binary"]),
    )
    with capsys.disabled():
        print(
            f"  BM25 vs TF-IDF changes direction: strict {len(changes.strict)}, "
            f"lenient {len(changes.lenient)} (article {article['changes']})"
        )
    assert len(changes.strict) == int(row["changes_strict"])
    assert len(changes.lenient) == int(row["changes_lenient"])
    if view == "top":
        # what the report states: every mean within 0.0011 of the article, count 7 versus 6
        assert max(diffs) < 0.0011
        assert abs(len(changes.strict) - article["changes"]) == 1


@pytest.mark.parametrize("reading", ["nonrelevant", "as-code-4", "as-code-1", "literal"])
def test_gain_tables_change_only_code_minus_one(reading):
    tables = search.gain_tables(reading)
    assert {c: g for c, g in tables["graded"].items() if c != -1} == {1: 4, 2: 3, 3: 2, 4: 1}
    assert {c: g for c, g in tables["binary"].items() if c != -1} == {1: 1, 2: 1, 3: 1, 4: 1}
    assert (tables["graded"][-1], tables["binary"][-1]) == search.MINUS_ONE[reading]


def test_literal_reading_of_minus_one_is_five_minus_the_code():
    # graded gain 5 - code: code 1 gains 4, so code -1 read literally gains 6
    assert search.gain_tables("literal")["graded"][-1] == 5 - (-1)


def test_sklearn_stop_list_is_registered_on_request():
    words = pytest.importorskip("sklearn.feature_extraction.text").ENGLISH_STOP_WORDS
    search.register_sklearn_stop_words()
    assert cf.STOP_LISTS["sklearn"] == frozenset(words) and len(words) == 318
    assert search.STOPWORDS[-1] == "sklearn"
