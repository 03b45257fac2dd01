"""Test-wide settings that must hold however pytest is started.

The Cranfield copy beside the repository (../shared/data/cranfield) is used by the
tests and by the chapter notebooks that nbval executes (their kernels inherit this
environment), so that nothing is downloaded. Readers download the collection
instead (dcglab.collections.cranfield.fetch). An explicit DCGLAB_CRANFIELD_DIR wins.
"""

import os
from pathlib import Path

SHARED_CRANFIELD = Path(__file__).resolve().parent.parent / "shared" / "data" / "cranfield"
if SHARED_CRANFIELD.is_dir():
    os.environ.setdefault("DCGLAB_CRANFIELD_DIR", str(SHARED_CRANFIELD))
