"""``hogsolve gui``: the browser game and policy explorer on 127.0.0.1."""
from __future__ import annotations

from .common import UsageError, int_in_range, load_rules


def setup_gui(p):
    """``hogsolve gui``: serve the browser game on 127.0.0.1."""
    from ..hog.rules import rulesets
    p.add_argument("--rules", default="su18", metavar="NAME",
                   help=f"ruleset selected at first ({', '.join(rulesets())}; default su18)")
    p.add_argument("--port", type=int_in_range(0, 65535, what="the port"), default=8061,
                   help="port on 127.0.0.1 (default 8061; 0: any free port)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")

    def run(args):
        from ..gui.server import serve
        load_rules(args.rules)
        try:
            serve(args.rules, args.port, open_browser=not args.no_browser,
                  announce=lambda line: print(line, flush=True))
        except OSError as exc:
            raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}; choose another "
                             "--port, or --port 0 for any free one") from None
        return 0
    return run
