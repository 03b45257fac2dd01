"""Test collections and judging: the Cranfield collection and its retrieval models
(:mod:`.cranfield`), pooling (:mod:`.pooling`) and reading judgments for a ranking
(:mod:`.judgments`).
"""
