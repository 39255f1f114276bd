import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import os

from hypothesis import settings

# In CI, property tests draw the same examples every run: a red CI is then a
# real failure of this commit, never a new random draw.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")

# The default tier runs three workers on two cores: one BLAS thread each, or they fight over the cores.
from threadpoolctl import threadpool_limits  # noqa: E402

threadpool_limits(1)

# Every test process keeps its own cache (tables, student files, failures): never the user's.
import atexit  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

_CACHE = tempfile.mkdtemp(prefix="hogsolve-test-cache-")
os.environ["HOGSOLVE_CACHE"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)

# ... and its own data folder (the SinbadHogBot rooms' event log of `hogsolve gui` and `sinbad serve`).
_DATA = tempfile.mkdtemp(prefix="hogsolve-test-data-")
os.environ["HOGSOLVE_DATA"] = _DATA
atexit.register(shutil.rmtree, _DATA, ignore_errors=True)
