"""``hogsolve gui``: every game in the browser, on 127.0.0.1 or the local network."""
from __future__ import annotations

from pathlib import Path

from .common import UsageError, int_in_range, ip_address, listening, load_rules


def setup_gui(p):
    """``hogsolve gui``: serve the web app."""
    from ..hog.rules import rulesets
    p.add_argument("--rules", default="su18", metavar="NAME",
                   help=f"game selected at first ({', '.join(rulesets())}, a semester such as sp23, pig, "
                        "piglet, two-dice-pig, big-pig or sibala; default su18)")
    p.add_argument("--rules-file", type=Path, metavar="FILE.toml", action="append", default=[],
                   help="a ruleset described as data, offered in the page too (repeat for more)")
    p.add_argument("--port", type=int_in_range(0, 65535, what="the port"), default=8061,
                   help="port (default 8061; 0: any free port)")
    p.add_argument("--host", type=ip_address, default=None, metavar="ADDRESS",
                   help="serve the local network on this address (0.0.0.0: every interface); prints a join "
                        "link with an access token, and refuses requests without it (default: 127.0.0.1 only)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")

    def run(args):
        from ..gui.games import Catalog
        from ..gui.server import serve
        rule_files = {}
        for path in args.rules_file:
            rules = load_rules("", rules_file=path)
            name = rules.name if Catalog().canonical(rules.name) is None else f"{path.stem}-file"
            if name in rule_files:
                raise UsageError(f"two rule files are both named {name}")
            rule_files[name] = rules
        if Catalog(rule_files).canonical(args.rules) is None:
            load_rules(args.rules)  # explains the unknown name
        with listening(args.host, args.port):
            serve(args.rules, args.port, open_browser=not args.no_browser, host=args.host, rule_files=rule_files,
                  announce=lambda line: print(line, flush=True))
        return 0
    return run
