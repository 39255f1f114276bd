import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# Some machines set PYTHONDONTWRITEBYTECODE (this one and CI's do): then every test worker
# rewrites the assertions of every test module again (about 6 s each) and every `hogsolve`
# the tests start compiles the package from source.  The test run writes bytecode for the
# tests and for the hogsolve processes it starts (student files still run without it: the
# sandbox sets the variable for them itself).  Loaded before the workers start, so they inherit it.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

from hypothesis import settings  # noqa: E402  (after the bytecode settings above, which it must see)

# No property test has a deadline: Hypothesis's per-example time limit is a timing assertion, and
# on a busy machine it failed tests whose code was right (DeadlineExceeded in the default tier).
# In CI, property tests also draw the same examples every run: a red CI is then a real failure of
# this commit, never a new random draw.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "default")

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

# In CI a missing optional dependency that a test needs (the rl extra, Dask, Playwright,
# matplotlib) fails the run instead of skipping it: the test extra installs them all, so a
# skip there would hide a broken install.  Elsewhere the tests that need them skip.
import importlib  # noqa: E402

import pytest  # noqa: E402


def _import_or_fail(modname: str, minversion=None, reason=None, **kwargs):
    """pytest.importorskip as CI runs it: an ImportError is a failure, with what to install."""
    try:
        module = importlib.import_module(modname)
    except ImportError as exc:
        raise ImportError(f"CI needs {modname} (pip install -e '.[test]' installs it): {exc}") from exc
    if minversion is not None:
        return _importorskip(modname, minversion=minversion, reason=reason, **kwargs)
    return module


_importorskip = pytest.importorskip
if os.environ.get("CI"):
    pytest.importorskip = _import_or_fail
