"""``python -m hogsolve.cli``: the hogsolve command."""
from . import program

program()
