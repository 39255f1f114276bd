"""``python -m hogsolve.cli``: the hogsolve command."""
import sys

from . import main

sys.exit(main())
