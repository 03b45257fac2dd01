"""Tests of dcglab.book.article: every figure the article prints is what the package computes."""

import numpy as np

from dcglab.book.article import FIGURES


def test_every_article_figure_comes_out():
    wrong = [(f.key, f.published, f.formatted()) for f in FIGURES if not f.matches()]
    assert wrong == []


def test_article_figures_cover_chapters_one_to_four():
    chapters = {f.chapter for f in FIGURES}
    assert {1, 2, 3, 4} <= chapters
    assert len({f.key for f in FIGURES}) == len(FIGURES)


def test_figure_check_can_fail():
    from dcglab.book.article import Figure

    assert not Figure("x", "0.962", "test", lambda: 0.9608, 3).matches()
    assert Figure("x", "0.961", "test", lambda: 0.9608, 3).matches()
    assert np.isclose(Figure("x", "29", "t", lambda: 28.9, 2).compute(), 28.9)
