"""Interactive explorers: anywidgets whose sliders work in Jupyter and on the static site.

Each explorer's JavaScript recomputes with ``measures.js``, the JS twin of
:mod:`dcglab`'s formulas, so the published book responds without a kernel.
"""

from .base import REGISTRY, Explorer
from .collection import CranfieldExplorer
from .comparing import PairedTestExplorer
from .conventions import (
    GainReversalExplorer,
    GradedBinaryExplorer,
    IdealSourceExplorer,
    LogBaseExplorer,
    UserModelExplorer,
)
from .core import CumulativeGainExplorer, CutoffExplorer, DiscountExplorer, NdcgExplorer
from .pooling import PoolExplorer
from .practice import CutoffChoiceExplorer, SwapExplorer
from .quiz import QuizExplorer  # noqa: F401  (importing registers the quiz explorer)

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
