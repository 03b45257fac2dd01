"""``python -m dcglab``: the same entry as the ``dcglab`` console script,
:func:`dcglab.batch.cli.entry` (which sets the process up, :mod:`dcglab.process`)."""

from .batch.cli import entry

entry()
