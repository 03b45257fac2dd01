"""Interactive explorers: anywidgets whose sliders work in Jupyter and on the static site.

Each explorer's JavaScript recomputes with ``measures.js``, the JS twin of
:mod:`dcglab`'s formulas, so the published book responds without a kernel.
"""

from dcglab.book.explorers.base import REGISTRY, Explorer
from dcglab.book.explorers.collection import CranfieldExplorer
from dcglab.book.explorers.comparing import PairedTestExplorer
from dcglab.book.explorers.conventions import (
    GainReversalExplorer,
    GradedBinaryExplorer,
    IdealSourceExplorer,
    LogBaseExplorer,
    UserModelExplorer,
)
from dcglab.book.explorers.core import (
    CumulativeGainExplorer,
    CutoffExplorer,
    DiscountExplorer,
    NdcgExplorer,
)
from dcglab.book.explorers.pooling import PoolExplorer
from dcglab.book.explorers.practice import CutoffChoiceExplorer, SwapExplorer
from dcglab.book.explorers.quiz import QuizExplorer  # noqa: F401  (importing registers the quiz explorer)

__all__ = [
    "REGISTRY",
    "CranfieldExplorer",
    "CumulativeGainExplorer",
    "CutoffChoiceExplorer",
    "CutoffExplorer",
    "DiscountExplorer",
    "Explorer",
    "GainReversalExplorer",
    "GradedBinaryExplorer",
    "IdealSourceExplorer",
    "LogBaseExplorer",
    "NdcgExplorer",
    "PairedTestExplorer",
    "PoolExplorer",
    "SwapExplorer",
    "UserModelExplorer",
]
