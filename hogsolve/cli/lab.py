"""``hogsolve lab FILE.py[:NAME]``: one strategy against the optimum in the browser, live as the file is saved."""
from __future__ import annotations

from pathlib import Path

from .common import UsageError, add_sandbox_option, int_in_range, ip_address, listening, positive_seconds, settle_rules


def setup_lab(p):
    """``hogsolve lab``: serve the strategy lab of one file."""
    from ..strategy.userfile import DEFAULT_TIMEOUT
    p.add_argument("file", metavar="FILE.py[:NAME]",
                   help="the strategy: a Python file and its function (default final_strategy), in any form "
                        "compare accepts (a Hog strategy of two arguments, a Feral Hogs strategy, a roll-or-hold "
                        "function, an agent)")
    p.add_argument("--rules", default=None, metavar="NAME",
                   help="the game (a ruleset, a semester such as sp23, a rule file, pig, piglet, two-dice-pig, "
                        "big-pig; default: the semester the course's proj01.ok beside the file names, else su18)")
    p.add_argument("--goal", type=int_in_range(1, what="the goal"), default=None, help="another goal")
    p.add_argument("--port", type=int_in_range(0, 65535, what="the port"), default=8062,
                   help="port (default 8062; 0: any free port)")
    p.add_argument("--host", type=ip_address, default=None, metavar="ADDRESS",
                   help="serve the local network on this address, behind an access token; the lab page is "
                        "then off unless --lab-on-network is given too")
    p.add_argument("--lab-on-network", action="store_true",
                   help="with --host: offer the lab page on the network too (behind the access token)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    add_sandbox_option(p)
    p.add_argument("--strategy-timeout", type=positive_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"time limit for each run of the file (default {DEFAULT_TIMEOUT:g}); a correct but slow "
                        "strategy needs more")

    def run(args):
        from ..api import resolve
        from ..errors import HogsolveError
        from ..gui.lab import Lab
        from ..gui.server import serve
        from ..strategy.semester import DEFAULT_RULES
        path, _, name = args.file.rpartition(":") if args.file.rpartition(":")[0].endswith(".py") \
            else (args.file, "", "final_strategy")
        if not path.endswith(".py"):
            raise UsageError(f"the lab runs a Python file (FILE.py or FILE.py:NAME), got {args.file!r}")
        if not name.isidentifier():
            raise UsageError(f"{name!r} is not a function name")
        if not Path(path).is_file():
            raise UsageError(f"no such file: {path}")
        if args.host is not None and not args.lab_on_network:
            raise UsageError("with --host the lab would show your file to the network: add --lab-on-network "
                             "to offer it there (behind the access token), or leave --host out")
        settle_rules(args, [Path(path)])
        try:
            _, rules = resolve(args.rules or DEFAULT_RULES, args.goal)
            lab = Lab(path, name, rules, timeout=args.strategy_timeout)
        except (HogsolveError, OSError) as error:
            raise UsageError(str(error)) from None
        with listening(args.host, args.port):
            serve(rules.name, args.port,
                  open_browser=not args.no_browser, host=args.host, page="lab", lab=lab,
                  announce=lambda line: print(line, flush=True))
        return 0
    return run
