"""``python -m dcglab``: the same entry as the ``dcglab`` console script, :func:`dcglab.cli.main`
(which sets the process up, :mod:`dcglab.process`)."""

import sys

from .cli import main

sys.exit(main())
