"""``python -m dcglab``: the same entry as the ``dcglab`` console script,
:func:`dcglab.cli.entry` (which sets the process up, :mod:`dcglab.process`)."""

from .cli import entry

entry()
