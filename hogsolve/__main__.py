"""``python -m hogsolve``: the hogsolve command."""
from .cli import program

program()
