"""What the Cranfield test modules share: the collection's folder, and a tiny collection.

The collection is read from ``DCGLAB_CRANFIELD_DIR`` or, when that is unset, from
``shared/data/cranfield`` beside the repository. Without it the tests that need it
skip with the reason, except under ``CI=true``, where they fail (``skip_or_fail`` in
``conftest.py``).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

from dcglab.collections import cranfield as cf

ROOT = Path(__file__).resolve().parents[1]


def folder(skip_or_fail) -> Path:
    """The folder holding the three Cranfield files, or a skip (a failure under CI)."""
    env = os.environ.get(cf.ENV_VAR)
    found = Path(env) if env else ROOT.parent / "shared" / "data" / "cranfield"
    if not all((found / name).is_file() for name in cf.FILES):
        skip_or_fail(
            f"Cranfield files not found in {found}; set {cf.ENV_VAR} to a folder holding "
            "cran.all.1400, cran.qry and cranqrel"
        )
    return found


@functools.cache
def _load(found: Path) -> cf.Collection:
    return cf.load(found)


def collection(skip_or_fail) -> cf.Collection:
    """The whole collection, parsed once per test session."""
    return _load(folder(skip_or_fail))


TINY_DOCS = ["wing lift lift", "wing drag", "heat", "wing drag"]
"""Four abstracts small enough to score by hand; documents 2 and 4 are identical."""


def tiny(query: str = "lift wing", qrels=None) -> cf.Collection:
    """:data:`TINY_DOCS` and one query; documents 1, 2 and 3 judged with codes 2, -1 and 1."""
    docs = tuple(cf.Document(i + 1, "", "", "", text) for i, text in enumerate(TINY_DOCS))
    return cf.Collection(docs, (query,), (1,), qrels or {1: {1: 2, 2: -1, 3: 1}})


PLAIN = cf.Config(fields=("abstract",), stopwords="none", stemmer="none")
"""Abstracts only, no stop words, no stemming: the tiny collection's words as written."""
