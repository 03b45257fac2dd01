"""Spies for the tests that check which code path runs: a function replaced by
a wrapper that records each result."""

from __future__ import annotations


def spy(monkeypatch, module, name: str) -> list:
    """Replace ``module.name`` by a wrapper recording each call's result."""
    calls: list = []
    real = getattr(module, name)

    def wrapper(*args, **kwargs):
        out = real(*args, **kwargs)
        calls.append(out)
        return out

    monkeypatch.setattr(module, name, wrapper)
    return calls
