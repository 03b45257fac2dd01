"""Hypothesis strategies shared by the property tests of the formula modules.

Preconditions are stated with ``assume`` in the tests, so an example that does not
meet them is discarded and replaced rather than passing without a check (hypothesis
fails a test whose examples are almost all discarded). The settings profile is in
``conftest.py``.
"""

from hypothesis import strategies as st

grades = st.lists(st.integers(0, 4), min_size=1, max_size=12)
"""A ranked list of integer grades 0..4, one to twelve documents."""

gains = st.sampled_from(["linear", "exponential"])
bases = st.floats(1.1, 100, allow_nan=False)
"""Logarithm bases above 1."""


def has_relevant(g):
    """Whether a list holds a document of positive grade (so IDCG > 0)."""
    return any(x > 0 for x in g)
