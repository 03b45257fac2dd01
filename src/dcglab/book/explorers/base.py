"""Common machinery of the explorers: an anywidget whose front end is bundled from
the JS twin of the formulas (:data:`TWIN`), the shared interface code (:data:`UI`:
controls, the rank strip, mounting, charts) and the explorer's own files.

Each explorer names its parameters (traits synced with the browser) and implements
:meth:`Explorer.compute` with :mod:`dcglab`. The browser tests move the sliders on
the static site and compare what the JavaScript shows with ``compute`` of the new
state, so the two sides cannot drift apart unnoticed.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Any, ClassVar

import anywidget
import traitlets as t

REGISTRY: dict[str, type[Explorer]] = {}


def int_list(default: list[int]) -> t.List:
    """A synced trait holding a list of integers (grades), with its default."""
    return t.List(t.Int(), default_value=list(default)).tag(sync=True)


@cache
def asset(name: str) -> str:
    """Text of a front-end file shipped in this package."""
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


TWIN = ("measures.js", "reversals.js")
"""The JS twin of the formulas, in the order they are concatenated."""
UI = ("ui.js", "ui_strip.js", "ui_mount.js", "ui_charts.js")
"""The interface code every explorer shares, in the order it is concatenated."""


def twin_script() -> str:
    """The JS twin of the formulas as one script (what tests/test_js_twin.py evaluates)."""
    return "\n".join(asset(n) for n in TWIN)


def bundle(*entries: str) -> str:
    """One ES module: the JS twin, the shared UI code, then the explorer's own files."""
    return "\n".join(asset(n) for n in (*TWIN, *UI, *entries))


class Explorer(anywidget.AnyWidget):
    """Base class: subclasses set ``name``, ``params`` and ``_esm`` and implement
    :meth:`compute`."""

    name: ClassVar[str] = ""
    params: ClassVar[tuple[str, ...]] = ()
    _css = asset("styles.css")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Only classes that declare a name: traitlets derives a subclass from each
        # instance's class (``add_traits``), which must not replace the explorer.
        if cls.__dict__.get("name"):
            REGISTRY[cls.name] = cls

    def __repr__(self) -> str:
        """A stable text form (no memory address), so stored outputs do not churn."""
        return f"{type(self).__name__}({self.state()})"

    def state(self) -> dict[str, Any]:
        """The current parameters, as the front end reports them in ``data-state``."""
        return {p: getattr(self, p) for p in self.params}

    @classmethod
    def compute(cls, state: dict[str, Any]) -> dict[str, float | None]:
        """The explorer's results for a state, computed by dcglab."""
        raise NotImplementedError

    def results(self) -> dict[str, float | None]:
        """The results for the current slider positions (readable from a live kernel)."""
        return self.compute(self.state())
