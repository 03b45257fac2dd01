"""Unit tests of dcglab.collections.cranfield.retrieval: the index, its configuration, ranking and
ties."""

from __future__ import annotations

from dataclasses import replace

import pytest
from cranfield_kit import PLAIN, tiny

from dcglab.collections import cranfield as cf
from dcglab.collections.cranfield import index as index_module


def test_rank_retrieves_matching_documents_with_documented_ties():
    index = cf.Index.build(tiny(), PLAIN)
    # documents 2 and 4 are identical; document 3 shares no term with the query
    assert cf.rank(index, "bm25", config=PLAIN)[1] == [1, 2, 4]
    assert cf.rank(index, "bm25", config=replace(PLAIN, ties="docid-desc"))[1] == [1, 4, 2]
    assert cf.rank(index, "bm25", top=1, config=PLAIN)[1] == [1]


def test_config_validation():
    with pytest.raises(ValueError, match="Config.bm25_idf"):
        cf.Config(bm25_idf="bm25")
    with pytest.raises(ValueError, match="Config.fields"):
        cf.Config(fields=("body",))
    index = cf.Index.build(tiny(), PLAIN)
    with pytest.raises(ValueError, match="tokenisation|stemmer"):
        cf.scores(index, "bm25", cf.Config())


def test_progress_bar_option(monkeypatch, capsys):
    monkeypatch.setattr(index_module, "PROGRESS_DELAY", 0.0)  # show the bar however quick
    index = cf.Index.build(tiny(), PLAIN, progress=True)
    assert cf.rank(index, "bm25", config=PLAIN, progress=True)[1] == [1, 2, 4]
    err = capsys.readouterr().err
    assert "indexing Cranfield" in err and "100%" in err
    assert "ranking (bm25)" in err
    cf.rank(cf.Index.build(tiny(), PLAIN), "bm25", config=PLAIN)  # progress=False: no bar
    assert capsys.readouterr().err == ""
