"""Unit tests of dcglab.collections.cranfield.models: BIM, TF-IDF and BM25 scores derived by
hand."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from cranfield_kit import PLAIN, tiny

from dcglab.collections import cranfield as cf


def by_doc(index: cf.Index, model: str, config: cf.Config) -> list[float]:
    return cf.scores(index, model, config)[0].tolist()


def test_bim_rsj_weights_by_hand():
    index = cf.Index.build(tiny(), PLAIN)
    config = replace(PLAIN, bim_idf="rsj", bim_query="unique")
    w_wing = math.log((4 - 3 + 0.5) / (3 + 0.5))  # n = 3 of N = 4: negative
    w_lift = math.log((4 - 1 + 0.5) / (1 + 0.5))
    # document 1 holds lift twice: BIM counts it once
    assert by_doc(index, "bim", config) == pytest.approx([w_wing + w_lift, w_wing, 0, w_wing])
    assert by_doc(index, "bim", replace(config, bim_idf="rsj+")) == pytest.approx([w_lift, 0, 0, 0])
    twice = cf.Index.build(tiny("lift lift wing"), PLAIN)
    assert by_doc(twice, "bim", replace(config, bim_query="tf"))[0] == pytest.approx(
        w_wing + 2 * w_lift
    )


def test_tfidf_cosine_by_hand():
    index = cf.Index.build(tiny(), PLAIN)
    config = replace(PLAIN, tfidf_tf="raw", tfidf_idf="plain+1", tfidf_query="binary")
    i_wing, i_lift, i_drag = math.log(4 / 3) + 1, math.log(4) + 1, math.log(4 / 2) + 1
    q = math.sqrt(2)
    s1 = (i_wing + 2 * i_lift) / (q * math.hypot(i_wing, 2 * i_lift))
    s2 = i_wing / (q * math.hypot(i_wing, i_drag))
    assert by_doc(index, "tfidf", config) == pytest.approx([s1, s2, 0, s2])
    smooth = replace(config, tfidf_idf="smooth", tfidf_tf="log", tfidf_query="tf-idf")
    j_wing, j_lift = math.log(5 / 4) + 1, math.log(5 / 2) + 1
    d1 = (j_wing, (1 + math.log(2)) * j_lift)
    expected = (j_wing * d1[0] + j_lift * d1[1]) / (math.hypot(j_wing, j_lift) * math.hypot(*d1))
    assert by_doc(index, "tfidf", smooth)[0] == pytest.approx(expected)


def test_bm25_by_hand():
    index = cf.Index.build(tiny(), PLAIN)
    k1, b = 1.2, 0.75
    config = replace(PLAIN, bm25_k1=k1, bm25_b=b, bm25_idf="lucene", bm25_query="unique")
    avgdl = (3 + 2 + 1 + 2) / 4

    def part(tf, dl, n):
        idf = math.log(1 + (4 - n + 0.5) / (n + 0.5))
        return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))

    s1 = part(1, 3, 3) + part(2, 3, 1)
    s2 = part(1, 2, 3)
    assert by_doc(index, "bm25", config) == pytest.approx([s1, s2, 0, s2])
    twice = cf.Index.build(tiny("lift lift wing"), PLAIN)
    assert by_doc(twice, "bm25", replace(config, bm25_query="tf"))[0] == pytest.approx(
        part(1, 3, 3) + 2 * part(2, 3, 1)
    )


def test_lucene_length_matches_smallfloat():
    # SmallFloat.byte4ToInt(SmallFloat.intToByte4(n)), Lucene 8+
    got = cf.lucene_length(np.array([0, 1, 23, 24, 39, 40, 41, 100, 1000])).tolist()
    assert got == [0, 1, 23, 24, 39, 40, 40, 96, 984]
