"""``python -m dcglab``: the same entry as the ``dcglab`` console script,
:func:`dcglab.cli.entry` (which sets the process up, :mod:`dcglab.cli.process`)."""

from dcglab.cli import entry

entry()
