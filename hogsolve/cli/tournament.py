"""``hogsolve tournament ENTRY...``: a round robin with exact win rates, in any game (the Hog
contest: student files, results file, report)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from ..errors import HogsolveError
from .common import (Failure, UsageError, add_jobs_option, add_strategy_options, cap_jobs, converged_or_fail,
                     every_game, game_of, output_file, respond, spec_help, strategy_of, unproven, write_or_fail)


def setup_tournament(p):
    """``hogsolve tournament ENTRY...``: a round robin with exact win rates, in any game."""
    p.add_argument("specs", nargs="+", metavar="ENTRY",
                   help="a folder of student files (every *.py in it, each with final_strategy), a FILE.py, "
                        "or " + spec_help("a strategy"))
    add_strategy_options(p)
    add_jobs_option(p)
    p.add_argument("--threshold", type=float, default=0.5, metavar="RATE",
                   help="a pair is won above this win rate; ties count as losses (default 0.5; the CS 61A "
                        "contest used 0.500001)")
    p.add_argument("--out", type=Path, metavar="RESULTS.csv",
                   help="write every pair's win rates here as they finish; a rerun resumes from it")
    p.add_argument("--report", type=Path, metavar="RESULTS.html",
                   help="also write the tournament as one self-contained HTML page (standings a reader can sort, "
                        "the win-rate heatmap, each entry against the optimum, the skipped entries)")
    p.add_argument("--names", choices=("folder", "path", "anonymous"), default="path",
                   help="how entries are named in the standings, the results file and the report: path (as given, "
                        "the default), folder (a student's folder, students/alice/hog.py as alice) or anonymous "
                        "(entry 1, entry 2, ... in the order given)")
    p.add_argument("--title", default="Hog contest", metavar="TEXT", help="the report page's title")
    p.add_argument("--backend", choices=("local", "dask"), default="local",
                   help="local worker processes (--jobs) or a Dask cluster (--scheduler; "
                        "pip install 'hogsolve[dask]')")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="the Dask scheduler's address")
    p.add_argument("--json", action="store_true", help="machine-readable output")

    return every_game(tournament)


def tournament(args) -> int:
    """Load every entry (student files in parallel, a broken one skipped), play the round robin
    with the results file, print the standings."""
    from ..contest.entries import ContestError, ResultsFile, find_entries
    from ..util.interrupts import thread_map
    from ..util.progress import progress
    from ..contest.roundrobin import table_digest
    if not 0 <= args.threshold < 1:
        raise UsageError(f"--threshold must be from 0 to below 1, got {args.threshold}")
    if args.backend == "dask" and not args.scheduler:
        raise UsageError("--backend dask needs --scheduler tcp://HOST:PORT")
    try:
        left_out: list = []  # a second file beside an entry (hog_old.py beside hog.py): no skipped student
        entries, skipped = find_entries(args.specs, left_out=left_out)
    except ContestError as exc:
        raise UsageError(str(exc)) from None
    family, rules = game_of(args)
    if args.out is not None:
        output_file(args.out)
    if getattr(args, "report", None) is not None:
        output_file(args.report, ".html", "--report")

    def load(entry):
        name, spec, is_file = entry
        try:
            return strategy_of(spec, family, rules, args)
        except (UsageError, Failure) as exc:
            if not is_file:
                raise
            skipped.append((name, str(exc)))
            return None
    jobs = cap_jobs(args.jobs)
    loaded = thread_map(load, entries, jobs)  # each file runs in its own interpreter
    shown = entry_names([name for name, _, _ in entries], args.names)
    names = [shown[k] for k, policy in enumerate(loaded) if policy is not None]
    policies = [policy for policy in loaded if policy is not None]
    tables = [family.table_of(policy, rules) for policy in policies]
    if len(policies) < 2:
        raise UsageError(f"hogsolve tournament: {len(policies)} usable strateg{'y' if len(policies) == 1 else 'ies'};"
                         " a round robin needs at least two")
    results = None
    known = {}
    if args.out is not None:
        results = ResultsFile(args.out, rules, names, [table_digest(t, rules) for t in tables])
        try:
            known = results.known()
        except (ContestError, OSError) as exc:
            raise UsageError(str(exc)) from None
        if results.ignored:
            print(f"{args.out}: {results.ignored} unreadable row(s) ignored; those pairs run again", file=sys.stderr)
        if known:
            print(f"resuming: {len(known)} of {len(names) * (len(names) - 1) // 2} pairs read from {args.out}",
                  file=sys.stderr)
    try:
        result = converged_or_fail(lambda: family.tournament(
            policies, rules, names=names, jobs=jobs, backend=args.backend, scheduler=args.scheduler,
            threshold=args.threshold, known=known, on_pair=results.append if results else None,
            progress=lambda it, n: progress(it, n, "tournament")), "tournament")
    except HogsolveError as exc:
        raise UsageError(str(exc)) from None
    if results is not None:
        write_or_fail(lambda: results.finish(result), args.out)
    left_out.sort()
    renamed = {name: shown[k] for k, (name, _, _) in enumerate(entries) if shown[k] != name}
    skipped = sorted((renamed.get(name, name), why.replace(name, renamed[name]) if name in renamed else why)
                     for name, why in skipped)
    folder_entry = {str(Path(name).parent): shown[k] for k, (name, _, is_file) in enumerate(entries) if is_file}
    if args.names != "path":  # named as the entry beside it is: ann/hog_old.py, never a path
        left_out = [(f"{folder_entry[str(Path(name).parent)]}/{Path(name).name}",
                     f"{folder_entry[str(Path(name).parent)]}'s entry is another file in its folder")
                    for name, _ in left_out]
    record = {**result.to_dict(), "skipped": [{"entry": name, "reason": why} for name, why in skipped],
              "left_out": [{"file": name, "reason": why} for name, why in left_out]}
    if args.report is not None:
        from ..contest.report import against_optimal, write_report
        by_name = dict(zip(names, policies))
        against = against_optimal([by_name[row["strategy"]] for row in record["ranking"]], family, rules)
        write_or_fail(lambda: write_report(args.report, record, goal=int(rules.goal), against_optimal=against,
                                           title=args.title), args.report)

    def show():
        show_tournament(rules, result)
        for name, why in skipped:
            print(f"skipped {name}: {why}")
        for name, why in left_out:
            print(f"left out {name} (not a student: {why})")
    return respond(args, record, show, not_proven=unproven(*policies))


def entry_names(names: list, style: str) -> list:
    """The names entries are shown by: as given (``path``), by a student's folder (``folder``:
    students/alice/hog.py is alice; a spec or a lone file keeps its name) or ``anonymous``
    (entry 1, entry 2, ...); a name that would repeat keeps its path."""
    if style == "anonymous":
        return [f"entry {k + 1}" for k in range(len(names))]
    if style == "path":
        return list(names)
    folders = [Path(n).parent.name if n.endswith(".py") and Path(n).parent.name else n for n in names]
    return [f if folders.count(f) == 1 else n for f, n in zip(folders, names)]



def show_tournament(rules, result) -> None:
    """The text of ``hogsolve tournament``: the standings (a tied rank shows ``=``), and
    each pairing's win rate as columns when there are at most ten strategies."""
    n, order, rate = len(result.names), result.order, result.rate
    ranks, wins, losses, mean = result.ranks, result.wins, result.losses, result.mean_win_rate
    tied = np.bincount(ranks) > 1
    width = max(len(s) for s in result.names + ["strategy"])
    print(f"Round robin ({rules.name}, goal {rules.goal}, {n} strategies), exact win rates (both seatings "
          f"averaged); a pair is won above "
          f"{result.threshold:g}, ties count as losses:")
    columns = n <= 10
    head = f"{'rank':>4}  {'strategy':{width}}  {'wins':>4}  {'losses':>6}  {'mean':>8}"
    print(head + ("  " + "  ".join(f"{k + 1:>8}" for k in range(n)) if columns else ""))
    for i in order:
        rank = ("=" if tied[ranks[i]] else "") + str(ranks[i])
        cells = "  " + "  ".join(f"{'-':>8}" if j == i else f"{rate[i, j]:8.6f}" for j in order) if columns else ""
        print(f"{rank:>4}  {result.names[i]:{width}}  {wins[i]:>4}  {losses[i]:>6}  {mean[i]:8.6f}{cells}")
    for i, j, exact in result.settled:
        print(f"{result.names[i]} vs {result.names[j]}: within rounding of the threshold, settled exactly: "
              f"{exact.numerator / exact.denominator:.12f}{' (exactly 1/2)' if exact == 0.5 else ''}")
