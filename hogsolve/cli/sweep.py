"""``hogsolve sweep GRID.toml``: solve every ruleset of a grid and summarise each."""
from __future__ import annotations

from ..errors import HogsolveError

import sys
from pathlib import Path

from .common import UsageError, add_jobs_option, cap_jobs, emit_json, output_file, write_or_fail


def setup_sweep(p):
    """``hogsolve sweep GRID.toml [--out results.csv] [--jobs N | --backend dask --scheduler ADDR]``."""
    p.add_argument("grid", type=Path, metavar="GRID.toml",
                   help="base = a built-in ruleset; [grid] maps rule keys to lists of values")
    p.add_argument("--out", type=Path, metavar="RESULTS.csv",
                   help="write a row per ruleset as each finishes; a rerun resumes from it")
    add_jobs_option(p)
    p.add_argument("--backend", choices=("local", "dask"), default="local",
                   help="local worker processes (--jobs) or a Dask cluster (--scheduler)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="the Dask scheduler's address")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    return run


def run(args) -> int:
    """Load the grid, resume from --out, sweep, write the file and print the table."""
    from ..util.progress import progress
    from ..util.resumable import ResumableCsv, ResumableCsvError
    from ..contest.sweeps import MEASURES, GridError, load_grid, sweep_rulesets
    if args.backend == "dask" and not args.scheduler:
        raise UsageError("--backend dask needs --scheduler tcp://HOST:PORT")
    try:
        keys, grid = load_grid(args.grid)
    except GridError as exc:
        raise UsageError(str(exc)) from None
    names = [rules.name for _, rules in grid]
    columns = ["ruleset"] + keys + MEASURES
    results = {}
    out = None
    if args.out is not None:
        output_file(args.out)
        out = ResumableCsv(args.out, columns, ("ruleset",))
        try:
            done = out.rows()
        except ResumableCsvError as exc:
            raise UsageError(str(exc)) from None
        index = {name: i for i, name in enumerate(names)}
        results = {index[name]: _parse(row) for (name,), row in done.items() if name in index}
        if results:
            print(f"resuming: {len(results)} of {len(grid)} rulesets read from {args.out}", file=sys.stderr)

    def row_of(i: int, measures: dict) -> dict:
        return {"ruleset": names[i], **{k: grid[i][0][k] for k in keys}, **{k: _text(measures[k]) for k in MEASURES}}
    try:
        fresh = sweep_rulesets([rules for _, rules in grid], jobs=cap_jobs(args.jobs), backend=args.backend,
                      scheduler=args.scheduler, skip=results,
                      on_row=(lambda i, m: out.append(row_of(i, m))) if out else None,
                      progress=lambda it, n: progress(it, n, "sweep", plain_every=30.0))
    except HogsolveError as exc:
        raise UsageError(str(exc)) from None
    results.update(fresh)
    rows = [row_of(i, results[i]) for i in range(len(grid))]
    if out is not None:
        write_or_fail(lambda: out.rewrite(rows), args.out)
    if args.json:
        emit_json({"grid": str(args.grid), "keys": keys, "rulesets": [
            {"ruleset": r["ruleset"], **{k: grid[i][0][k] for k in keys}, **results[i]} for i, r in enumerate(rows)]})
        return 0
    widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in keys}
    print(f"{len(rows)} rulesets from {args.grid} (P = first player's win probability under optimal play; "
          "turns = expected turns between optimal players; zero = share of states where 0 dice is optimal; "
          "vs 4 = optimal's win rate against always_roll:4)")
    print("  ".join(f"{c:{widths[c]}}" for c in keys) + f"  {'P':>8}  {'open':>4}  {'turns':>6}  {'zero':>6}  "
          f"{'vs 4':>8}")
    for r, i in zip(rows, range(len(rows))):
        m = results[i]
        flag = "" if m["proven"] else "  (not proven: see hogsolve solve)"
        print("  ".join(f"{str(r[c]):{widths[c]}}" for c in keys)
              + f"  {m['first_player_win_probability']:8.6f}  {m['opening_move']:>4}  {m['expected_turns']:6.2f}  "
                f"{m['zero_dice_share']:6.3f}  {m['win_rate_vs_always_roll_4']:8.6f}{flag}")
    return 0


def _text(value) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def _parse(row: dict) -> dict:
    """Measures read back from a results row."""
    return {"proven": row["proven"] == "True",
            "first_player_win_probability": float(row["first_player_win_probability"]),
            "opening_move": int(row["opening_move"]), "expected_turns": float(row["expected_turns"]),
            "zero_dice_share": float(row["zero_dice_share"]),
            "win_rate_vs_always_roll_4": float(row["win_rate_vs_always_roll_4"])}
