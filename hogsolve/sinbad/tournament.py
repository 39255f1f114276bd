"""Seeded simulated games between bots, and their statistics.

Each game seats ``players`` bots, cycling through the lineup of bot kinds in
a seeded random seat order.  Bots act one at a time, in a seeded random
order; a round where 20 turns per player pass with no trade and no hog
stalls (see :mod:`.seats`).  A bot kind's win rate is its wins per seat it
occupied, with a 95% Wilson confidence interval.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Dict, List, Sequence

from ..util.plain import plain
from ..util.stats import wilson_interval
from .bots import BOTS
from .room import Room
from .seats import Seats
from ..util.interrupts import InWorker, quiet_worker_starts


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """How one bot game ended: seat names and kinds, winners, totals, rounds played."""

    names: List[str]
    kinds: List[str]
    winners: List[str]
    totals: Dict[str, int]
    rounds: int

    def to_dict(self) -> dict:
        """The record as plain JSON values."""
        return plain(dataclasses.asdict(self))


def play_game(kinds: Sequence[str], seed: int, *, max_turns_per_round: int = 5000,
              observer=None) -> GameRecord:
    """One game between bots of ``kinds``; returns winners and totals by seat name."""
    rng = random.Random(seed)
    names = [f"{k}{i}" for i, k in enumerate(kinds)]
    bots = {n: BOTS[k](n, random.Random(rng.random())) for n, k in zip(names, kinds)}
    room = Room(names, seed=rng.randrange(2 ** 32))
    seats = Seats(room, bots, max_turns=max_turns_per_round, observer=observer)
    seats.deliver(room.start())
    seats.new_round()
    while not room.game.over:
        seats.step(rng.choice(names))
    return GameRecord(names, list(kinds), list(room.game.winners), dict(room.game.totals), room.game.rounds)


@dataclasses.dataclass(frozen=True)
class Standing:
    """A bot kind's seats, wins (shared wins count as fractions) and win rate."""
    kind: str
    seats: int
    wins: float

    @property
    def win_rate(self) -> float:
        """Wins per seat."""
        return self.wins / self.seats

    @property
    def interval(self):
        """95% Wilson interval of the win rate (a shared win counts as a fraction)."""
        return wilson_interval(self.win_rate, self.seats)

    def to_dict(self) -> dict:
        """The standing as plain JSON values."""
        return {"bot": self.kind, "seats": self.seats, "wins": self.wins, "win_rate": self.win_rate,
                "ci95": list(self.interval)}


def lineup_for(game: int, lineup: Sequence[str], players: int, seed: int) -> List[str]:
    """The seeded seat order of game ``game``: the lineup cycled over the seats, shuffled."""
    seats = [lineup[i % len(lineup)] for i in range(players)]
    random.Random(f"{seed}-{game}").shuffle(seats)
    return seats


def standings(results: Sequence[GameRecord]) -> List[Standing]:
    """Win rate per bot kind; a shared win counts as a fraction."""
    seats: Dict[str, int] = {}
    wins: Dict[str, float] = {}
    for r in results:
        for name, kind in zip(r.names, r.kinds):
            seats[kind] = seats.get(kind, 0) + 1
            if name in r.winners:
                wins[kind] = wins.get(kind, 0.0) + 1 / len(r.winners)
    table = [Standing(k, seats[k], wins.get(k, 0.0)) for k in seats]
    return sorted(table, key=lambda s: -s.win_rate)


def run_tournament(lineup: Sequence[str], players: int, games: int, seed: int, jobs: int = 1,
                   progress=None) -> List[GameRecord]:
    """Play ``games`` seeded games (in parallel with joblib when jobs > 1)."""
    from joblib import Parallel, delayed
    if jobs > 1:
        quiet_worker_starts()
    play = InWorker(play_game) if jobs > 1 else play_game  # workers leave a terminal's Ctrl-C to us
    tasks = (delayed(play)(lineup_for(g, lineup, players, seed), seed * 1_000_003 + g)
             for g in range(games))
    results = Parallel(n_jobs=jobs, return_as="generator", batch_size=8)(tasks)
    if progress is not None:
        results = progress(results, games)
    return list(results)
