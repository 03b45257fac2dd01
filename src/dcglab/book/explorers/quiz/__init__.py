"""Self-check quizzes: a loader and validator for the question banks, and the explorer
that asks their questions and checks the reader's answers in the browser, with no kernel.

A bank is one YAML file per quiz in ``dcglab/book/quizzes/`` (``building.yaml``, ...),
written without Python (CONTRIBUTING.md, "Quiz bank"). Each question has an ``id``, a ``kind``
(``arithmetic`` or ``conceptual``), the section that teaches it (``taught_in``), a
``prompt`` and an ``explanation``, an ``answer`` *expression*, optional ``choices`` (each
with the ``feedback`` a reader who picks it when it is wrong gets), optional ``mistakes``
(named rules, :data:`MISTAKES`, that turn the answer expression into the value a common
mistake gives, with feedback), an optional ``explorer`` state for a "load into the
explorer" link, and its ``numbers``: one set of inputs per number set (set 1 is the
book's, and carries the answer ``key`` an instructor expects).

Templates. In prompts, explanations and feedback, ``{name}`` is an input, written as the
book writes it (a list of grades as ``(3, 0, 2)``), and ``{name|filter|filter:arg}`` passes
it through :data:`FILTERS`. In expressions, a string ``"$name|filter"`` is the raw value.
``{answer}``, ``{p0}``, ``{p1}``, ... (the values of the ``quotes`` expressions) and, in a
mistake's feedback, ``{value}`` are filled in by the page with the numbers it computes.

Expression kinds (``m``), each a call of one library function:

====================  ==========================================================
``cg``                :func:`dcglab.cg` (``grades``, ``k``)
``weight``            the discount of rank ``rank``: :meth:`dcglab.Discount.weights`
``dcg``, ``idcg``     :func:`dcglab.dcg`, :func:`dcglab.idcg` (``grades``/``judged``, ``k``,
                      ``gain``, ``discount``)
``ndcg``              :func:`dcglab.ndcg` (``judged`` may be ``None``), IDCG = 0 scores 0
``ap``, ``rbp``       :func:`dcglab.formulas.usermodels.average_precision`,
:func:`~dcglab.formulas.usermodels.rbp`
``err``               :func:`dcglab.formulas.usermodels.err` (``grades``, ``max_grade``,
                      3 if absent)
``mean_ndcg``         :func:`dcglab.mean_ndcg` with a ``policy`` for IDCG = 0
``swap``              entry ``(i, j)`` of :func:`dcglab.formulas.ltr.swap_deltas`
``compare``           choice index: 0 if ``a`` > ``b``, 1 if ``a`` < ``b``, 2 if they tie
``both``              choice index from two comparisons ``[a1, b1]`` and ``[a2, b2]``
``match``             choice index of the one ``options`` expression equal to ``value``
``fixed``             a choice whose answer is a fact, not a computation
====================  ==========================================================

The front end (``quiz.js``) evaluates every expression with ``measures.js``;
:func:`evaluate_expression` evaluates the same expressions with :mod:`dcglab`, and
tests/test_quiz.py requires the two to agree within 1e-12.
"""

from dcglab.book.explorers.quiz.bank import (
    BANKS,
    KINDS,
    TOLERANCE,
    BankError,
    link_hash,
    load_bank,
    quiz_data,
    quiz_names,
)
from dcglab.book.explorers.quiz.expressions import (
    CHOICE_ANSWER_KINDS,
    OPERATIONS,
    TIE,
    evaluate_expression,
)
from dcglab.book.explorers.quiz.mistakes import MISTAKES
from dcglab.book.explorers.quiz.widget import QuizExplorer
from dcglab.book.explorers.quiz.wording import FILTERS, fill, render, resolve

__all__ = [
    "BANKS",
    "CHOICE_ANSWER_KINDS",
    "FILTERS",
    "KINDS",
    "MISTAKES",
    "OPERATIONS",
    "TIE",
    "TOLERANCE",
    "BankError",
    "QuizExplorer",
    "evaluate_expression",
    "fill",
    "link_hash",
    "load_bank",
    "quiz_data",
    "quiz_names",
    "render",
    "resolve",
]
