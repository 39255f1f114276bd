"""Command line: ``hogsolve VERB [options]``.

Exit codes: 0 ok, 1 failure, 2 bad input (one line on stderr, no traceback).
Each verb lives in its own module, imported only when that verb runs (or
its ``--help`` is asked for), so one verb's dependencies never break another.
"""
from __future__ import annotations

import importlib
import sys
import threading
from typing import Dict, List, Optional, Tuple

from ..errors import HogsolveError
from ..util import interrupts
from ..version import __version__
from .common import Failure, Parser, UsageError, verb_environment

#: verb -> (module that defines ``setup_<verb>(parser) -> run``, one-line help)
VERBS: Dict[str, Tuple[str, str]] = {
    "rules": ("hogsolve.cli.rules", "list the built-in rulesets"),
    "solve": ("hogsolve.cli.solve", "solve rulesets exactly and write policy tables"),
    "play": ("hogsolve.cli.play", "play the optimal bot in the terminal"),
    "compare": ("hogsolve.cli.compare", "exact win rates of strategy A against strategy B"),
    "best-response": ("hogsolve.cli.best_response", "the strategy that beats SPEC by the most, exactly"),
    "regret": ("hogsolve.cli.regret", "where a strategy loses against optimal play"),
    "tournament": ("hogsolve.cli.tournament", "round robin of strategies with exact win rates"),
    "sweep": ("hogsolve.cli.sweep", "solve and summarise every ruleset of a grid of rule components"),
    "gui": ("hogsolve.cli.gui", "play the optimal bot and explore its policy in the browser"),
    "lab": ("hogsolve.cli.lab", "one strategy file against the optimum in the browser, live as you save it"),
    "plot": ("hogsolve.cli.plot", "draw the policy heatmap and win-probability surface (needs matplotlib)"),
    "doctor": ("hogsolve.cli.doctor", "what this machine enforces on a student's strategy file, tried for real"),
    "sibala": ("hogsolve.cli.sibala", "Sibala (十八啦): compare hands, exact odds, play the house"),
    "contest": ("hogsolve.cli.contest", "the course's contest as a server: submissions, a live leaderboard"),
    "sinbad": ("hogsolve.cli.sinbad",
               "SinbadHogBot: the real-time room, network bots, tournaments, terminal play, deal odds"),
}


def verb_setup(name: str):
    """The ``setup(parser) -> run`` function of a verb (imports its module)."""
    module = importlib.import_module(VERBS[name][0])
    return getattr(module, "setup_" + name.replace("-", "_"))


def build_parser(active: Optional[str] = None) -> Parser:
    """The parser with every verb listed; only ``active`` gets its full options."""
    parser = Parser(prog="hogsolve", description="Exact solver for Hog and its kin.")
    parser.add_argument("--version", action="version", version=f"hogsolve {__version__}")
    sub = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=Parser)
    for name, (_, help) in VERBS.items():
        p = sub.add_parser(name, help=help, description=help)
        if name == active:
            p.set_defaults(run=verb_setup(name)(p))
    return parser


def chosen_verb(argv: List[str]) -> Optional[str]:
    """The verb named on the command line, if any (the first word that is not an option)."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in VERBS else None
    return None


def tolerant_streams() -> None:
    """Standard output and error that replace what their encoding cannot show (a terminal or
    ``PYTHONIOENCODING=ascii`` without 十八啦) instead of ending in a traceback."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure") and getattr(stream, "errors", "strict") == "strict":
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError):
                pass


def program() -> None:
    """The ``hogsolve`` program: :func:`main`, then exit with its code, a late Ctrl-C or SIGTERM
    ignored (the run is over; see :func:`hogsolve.util.interrupts.ignore_until_exit`), and
    joblib's resource tracker kept from adding words after ``interrupted``."""
    interrupts.quiet_resource_tracker()
    sys.exit(main(exiting=True))


def main(argv: Optional[List[str]] = None, *, exiting: bool = False) -> int:
    """Run the command line; returns the exit code.  ``exiting``: the process ends after this
    (the program), so the signal handlers are not put back but the signals ignored."""
    argv = sys.argv[1:] if argv is None else list(argv)
    tolerant_streams()
    previous = interrupts.install() if threading.current_thread() is threading.main_thread() else None
    try:
        parser = build_parser(chosen_verb(argv))
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return 2
        with verb_environment():
            return int(args.run(args) or 0)
    except UsageError as exc:
        for line in str(exc).splitlines() or [""]:  # several problems (a rule file's): one line each
            print(f"error: {line}", file=sys.stderr)
        return 2
    except Failure as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except HogsolveError as exc:  # a deliberate error no verb turned into its own line: bad input (2) or not (1)
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2 if isinstance(exc, ValueError) else 1
    except KeyboardInterrupt as exc:
        interrupts.kill_children()
        print("interrupted", file=sys.stderr)
        return interrupts.exit_code(exc)
    except BrokenPipeError:
        return 0
    finally:
        if previous is not None:
            if exiting:
                interrupts.ignore_until_exit()
            else:
                interrupts.restore(previous)
