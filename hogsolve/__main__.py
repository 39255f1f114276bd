"""``python -m hogsolve``: the hogsolve command."""
import sys

from .cli import main

sys.exit(main())
