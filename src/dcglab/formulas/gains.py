"""Gain functions: how much a document of a given relevance grade is worth.

A *gain* maps each relevance grade to a non-negative number. Three kinds are
supported, named by a :data:`GainSpec`:

``"linear"``
    :math:`g(r) = r`, the form closest to Järvelin and Kekäläinen (2002).
``"exponential"``
    :math:`g(r) = 2^r - 1`, popularised by Burges et al. (2005).
a mapping ``{grade: gain}``
    any explicit table, for example Cranfield's ``5 - grade``.

Every other module calls :func:`gain_values`; this is the one place where a
grade becomes a gain.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping, Sequence

import numpy as np

GainSpec = str | Mapping[float, float]
"""``"linear"``, ``"exponential"``, ``"exponential:a"`` (gain ``a**r - 1``), or a mapping."""


class GainError(ValueError):
    """A grade without a usable gain (not a finite non-negative number, or absent from
    a mapping), with that grade (``grade``; ``None`` when the whole gain
    specification is at fault)."""

    def __init__(self, message: str, grade: float | None = None) -> None:
        super().__init__(message)
        self.grade = grade


def as_numbers(values: object, name: str) -> np.ndarray:
    """``values`` as a float array, refusing strings (``"3"`` is not a grade) and
    values too large for a float, with a message that names the argument."""
    arr = np.asarray(values, dtype=object) if not isinstance(values, np.ndarray) else values
    if arr.dtype.kind in "USO" and any(isinstance(x, (str, bytes)) for x in arr.ravel()):
        raise ValueError(f"{name} must be numbers, not strings: got {reprlib.repr(values)}")
    try:
        return np.asarray(values, dtype=float)
    except OverflowError:
        big = reprlib.repr(values)
        raise ValueError(f"{name} holds a number too large for a float: {big}") from None
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers, got {reprlib.repr(values)}") from None


def as_grades(grades: Sequence[float] | np.ndarray, name: str = "grades") -> np.ndarray:
    """Return ``grades`` as a 1-D float array, rejecting NaN and empty input.

    Parameters
    ----------
    grades : sequence of float
        Relevance grades in rank order.
    name : str
        Argument name used in error messages.

    Returns
    -------
    numpy.ndarray
        A 1-D ``float64`` copy of the grades.

    Raises
    ------
    ValueError
        If the input is empty, not one-dimensional, holds strings, or contains
        NaN, infinite or too large values.

    Examples
    --------
    >>> as_grades([3, 2, 0]).tolist()
    [3.0, 2.0, 0.0]
    >>> as_grades(["3", "2"])
    Traceback (most recent call last):
    ...
    ValueError: grades must be numbers, not strings: got ['3', '2']
    """
    arr = as_numbers(grades, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty: a ranking needs at least one grade")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values: {arr.tolist()}")
    return arr


def linear_gain(grades: np.ndarray) -> np.ndarray:
    r"""Linear gain :math:`g(r) = r`.

    Examples
    --------
    >>> linear_gain(np.array([3.0, 0.0])).tolist()
    [3.0, 0.0]
    """
    return np.asarray(grades, dtype=float).copy()


def exponential_gain(grades: np.ndarray, a: float = 2.0) -> np.ndarray:
    r"""Exponential gain :math:`g(r) = a^r - 1` (Burges et al. use :math:`a = 2`).

    With :math:`a = 2` grades 0, 1, 2, 3 are worth 0, 1, 3, 7.

    Examples
    --------
    >>> exponential_gain(np.array([0.0, 1.0, 2.0, 3.0])).tolist()
    [0.0, 1.0, 3.0, 7.0]
    """
    return np.power(float(a), np.asarray(grades, dtype=float)) - 1.0


def mapped_gain(grades: np.ndarray, mapping: Mapping[float, float]) -> np.ndarray:
    """Gain read from an explicit table ``{grade: gain}``.

    Raises
    ------
    ValueError
        If a grade is missing from the table, or a grade or gain of the table is
        not a number, or a gain is negative, infinite or NaN.

    Examples
    --------
    >>> mapped_gain(np.array([1.0, 4.0, -1.0]), {1: 4, 2: 3, 3: 2, 4: 1, -1: 0}).tolist()
    [4.0, 1.0, 0.0]
    """
    keys = as_numbers(list(mapping.keys()), "gain mapping: the grades")
    values = as_numbers(list(mapping.values()), "gain mapping: the gains")
    table = dict(zip(keys.tolist(), values.tolist()))
    for grade, value in table.items():
        if not np.isfinite(value) or value < 0:
            raise GainError(
                f"gain mapping must give finite non-negative gains: grade {grade:g} has gain "
                f"{value}",
                grade,
            )
    missing = sorted({float(g) for g in grades} - table.keys())
    if missing:
        raise GainError(f"gain mapping has no entry for grade(s) {missing}", missing[0])
    return np.array([table[float(g)] for g in grades], dtype=float)


def _exponential_base(param: str) -> float:
    """The base ``a`` of ``"exponential:a"`` (2 when omitted): a finite number > 1."""
    try:
        a = float(param) if param else 2.0
    except ValueError:
        a = float("nan")
    if not (np.isfinite(a) and a > 1):
        raise ValueError(f"the exponential base must be a finite number > 1, got {param!r}")
    return a


def parse_gain(gain: GainSpec) -> tuple[str, float | Mapping[float, float] | None]:
    """Split a :data:`GainSpec` into its kind and parameter.

    ``"exponential:3"`` means :math:`3^r - 1`.

    Examples
    --------
    >>> parse_gain("exponential:3")
    ('exponential', 3.0)
    """
    if isinstance(gain, Mapping):
        return "mapping", gain
    if not isinstance(gain, str):
        raise ValueError(f"gain must be 'linear', 'exponential' or a mapping, got {gain!r}")
    kind, _, param = gain.partition(":")
    if kind == "linear" and not param:
        return "linear", None
    if kind == "exponential":
        try:
            return "exponential", _exponential_base(param)
        except ValueError as exc:
            raise GainError(f"gain={gain!r}: {exc}") from exc
    raise ValueError(f"gain must be 'linear', 'exponential' or a mapping, got {gain!r}")


def gain_values(grades: Sequence[float] | np.ndarray, gain: GainSpec = "linear") -> np.ndarray:
    r"""Map relevance grades to gains.

    Parameters
    ----------
    grades : sequence of float
        Relevance grades.
    gain : str or mapping, default ``"linear"``
        ``"linear"`` (:math:`r`), ``"exponential"`` (:math:`2^r - 1`),
        ``"exponential:a"`` (:math:`a^r - 1`) or a mapping ``{grade: gain}``.

    Returns
    -------
    numpy.ndarray
        One gain per grade.

    Raises
    ------
    ValueError
        If grades are empty, NaN, or negative under a formula gain (a mapping
        may give any grade, including Cranfield's ``-1``, a gain).
    GainError
        If a grade's gain is not a finite number (``2^1100 - 1`` overflows);
        the error's ``grade`` is the first such grade.

    Examples
    --------
    >>> gain_values([3, 2, 1, 0], "exponential").tolist()
    [7.0, 3.0, 1.0, 0.0]
    """
    arr = as_grades(grades)
    kind, param = parse_gain(gain)
    if kind == "mapping":
        return mapped_gain(arr, param)  # type: ignore[arg-type]
    if np.any(arr < 0):
        raise ValueError(
            f"grades must be >= 0 for {kind} gain, got {arr[arr < 0].tolist()}; "
            "use a gain mapping to give negative codes a gain"
        )
    if kind == "linear":
        return linear_gain(arr)
    with np.errstate(over="ignore"):  # reported below, with the grade
        out = exponential_gain(arr, param)  # type: ignore[arg-type]
    bad = np.flatnonzero(~np.isfinite(out))
    if len(bad):
        grade = float(arr[bad[0]])
        raise GainError(
            f"gain={gain!r}: grade {grade:g} has gain {out[bad[0]]}, not a finite number", grade
        )
    return out
