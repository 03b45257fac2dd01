"""The quiz explorer: the widget that asks a bank's questions and checks the reader's
answers in the browser (``quiz.js``), with no kernel."""

from __future__ import annotations

from typing import Any

import traitlets as t

from dcglab.book.explorers.base import Explorer, bundle
from dcglab.book.explorers.quiz.bank import load_bank, quiz_data


class QuizExplorer(Explorer):
    """A self-check quiz: questions answered with a number or a choice, checked in the
    browser by ``measures.js``; a slider picks the number set (1 is the book's)."""

    name = "quiz"
    params = ("quiz", "variant")
    _esm = bundle("quiz.js")
    quiz = t.Unicode("building").tag(sync=True)
    variant = t.Int(1).tag(sync=True)
    content = t.Dict().tag(sync=True)

    def __init__(self, quiz: str = "building", **kwargs: Any) -> None:
        super().__init__(quiz=quiz, content=quiz_data(quiz), **kwargs)

    @t.validate("variant")
    def _check_variant(self, proposal: Any) -> int:
        v, top = proposal["value"], quiz_data(self.quiz)["variants"]
        if not 1 <= v <= top:
            raise t.TraitError(f"variant must be a number set from 1 to {top}, got {v}")
        return v

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        """The right answers of the quiz's questions in the number set ``state["variant"]``:
        ``{"q1": ..., "q2": ...}`` (choice answers are option indices)."""
        out: dict[str, float | None] = {}
        for n, q in enumerate(load_bank(state["quiz"])["questions"]):
            variants = q["variants"]
            out[f"q{n + 1}"] = variants[min(state["variant"], len(variants)) - 1]["answer"]
        return out
