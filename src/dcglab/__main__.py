"""``python -m dcglab``: see :mod:`dcglab.cli`."""

import sys

from .cli import main

sys.exit(main())
