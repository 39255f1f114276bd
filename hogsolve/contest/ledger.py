"""A contest served to a course: its roster, entries and scored pairs in one SQLite file (WAL).

Every accepted submission is committed before the server answers; each pair's exact win rate
is committed as it finishes, keyed by the two tables' digests, so a killed server resumes with
every pair it recorded and scores only the rest (a pair is recorded once: the key says so).
Tokens are kept as SHA-256 hashes and compared in constant time.  Identical tables share their
pairs.  The standings are :class:`~hogsolve.contest.roundrobin.TournamentResult`'s, so they
equal ``hogsolve tournament`` on the same tables digit for digit.
"""
from __future__ import annotations

import csv
import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ..errors import InputError
from .roundrobin import TournamentResult, table_digest

SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS roster (name TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS entries (owner TEXT PRIMARY KEY, team TEXT NOT NULL, digest TEXT NOT NULL,
                                    submitted REAL NOT NULL, shape TEXT NOT NULL, cells BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS pairs (a TEXT NOT NULL, b TEXT NOT NULL, first REAL NOT NULL, second REAL NOT NULL,
                                  PRIMARY KEY (a, b));
CREATE TABLE IF NOT EXISTS scored (n INTEGER NOT NULL);
"""

#: The longest team name (characters).
NAME_CHARS = 40


class ContestClosed(InputError):
    """A submission after the deadline, or while the contest is frozen (the server answers 423)."""


class NotAllowed(InputError):
    """A token the roster does not hold, or a staff call without the staff token (401/403)."""


def token_hash(token: str) -> str:
    """The hash a token is kept as."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_table(game: Any, cells: Any) -> np.ndarray:
    """A submitted table (nested lists of whole numbers) as the game's table, or InputError in one
    line naming what is wrong and the first bad cell: the shape (the game's decision table:
    Hog's ``goal x goal``, or with both memories under a history rule; a roll-or-hold game's
    ``goal x goal x goal`` of 1 to roll and 0 to hold) and each cell's range."""
    shape = tuple(game.decision_table_shape)
    accepted = {shape, shape[:2]} if len(shape) == 4 else {shape}  # under memories: one table for all of them
    try:
        array = np.array(cells, dtype=object)
    except (ValueError, TypeError):
        array = None
    if array is None or array.shape not in accepted:
        got = "ragged lists" if array is None else f"{array.shape}"
        raise InputError(f"a table for {game.name} at goal {game.goal} has the shape {shape}, not {got}")
    flat = array.reshape(-1)
    whole = np.array([type(x) is int for x in flat])  # no bool, float, NaN, string or None
    low, high = game.table_cells
    if whole.all():
        values = flat.astype(np.int64)
        bad = (values < low) | (values > high)
    else:
        values, bad = None, ~whole
    if bad.any():
        at = tuple(int(i) for i in np.unravel_index(int(np.flatnonzero(bad)[0]), array.shape))
        what = flat[int(np.flatnonzero(bad)[0])]
        shown = json.dumps(what) if isinstance(what, (str, int, float, type(None))) else type(what).__name__
        raise InputError(f"cell {list(at)} holds {shown[:40]}; each cell is a whole number from {low} to {high}")
    assert values is not None
    table = values.reshape(array.shape)
    if table.shape != shape:  # one table for every memory
        table = np.broadcast_to(table[..., None, None], shape)
    return np.ascontiguousarray(table, dtype=np.int8)


def check_team(name: Any) -> str:
    """A team name: one line of printable text, at most :data:`NAME_CHARS` characters."""
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_CHARS or not name.isprintable():
        raise InputError(f"a team name is one line of at most {NAME_CHARS} printable characters")
    return name.strip()


class Ledger:
    """The contest's file (created if missing): one connection, shared by the server's threads
    under a lock."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.RLock()
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # an acknowledged submission survives a crash of the machine
        self.db.executescript(SCHEMA)
        if self.db.execute("SELECT COUNT(*) FROM scored").fetchone()[0] == 0:
            self.db.execute("INSERT INTO scored VALUES (0)")

    # -- settings ----------------------------------------------------------------

    def setting(self, key: str, default: Optional[str] = None) -> Optional[str]:
        """A stored setting (rules, goal, deadline, frozen, staff token hash)."""
        with self.lock:
            row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set(self, key: str, value: str) -> None:
        """Store a setting."""
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    # -- people ------------------------------------------------------------------

    def enrol(self, names: Sequence[str]) -> Dict[str, str]:
        """A fresh secret token for each name not yet on the roster (``{name: token}``); the
        roster keeps only their hashes."""
        made = {}
        with self.lock:
            self.db.execute("BEGIN")
            for name in names:
                if self.db.execute("SELECT 1 FROM roster WHERE name = ?", (name,)).fetchone():
                    continue
                token = secrets.token_urlsafe(18)
                self.db.execute("INSERT INTO roster VALUES (?, ?)", (name, token_hash(token)))
                made[name] = token
            self.db.execute("COMMIT")
        return made

    def owner_of(self, token: Any) -> str:
        """The roster name whose token this is (every hash compared, in constant time each)."""
        if not isinstance(token, str) or not token:
            raise NotAllowed("a submission needs the token you were given")
        given = token_hash(token)
        with self.lock:
            rows = self.db.execute("SELECT name, token_hash FROM roster").fetchall()
        owner = None
        for name, kept in rows:
            if hmac.compare_digest(given, kept):
                owner = name
        if owner is None:
            raise NotAllowed("this token is not on the contest's roster")
        return owner

    def is_staff(self, token: Any) -> bool:
        """Whether ``token`` is the staff token (compared in constant time)."""
        kept = self.setting("staff_token_hash")
        return isinstance(token, str) and kept is not None and hmac.compare_digest(token_hash(token), kept)

    # -- entries -----------------------------------------------------------------

    def submit(self, owner: str, team: str, table: np.ndarray, game: Any, now: Optional[float] = None) -> dict:
        """Keep ``table`` as ``owner``'s one entry (replacing an earlier one), committed before this
        returns; ContestClosed after the deadline or while frozen."""
        now = time.time() if now is None else now
        deadline = self.setting("deadline")
        if self.setting("frozen") == "1":
            raise ContestClosed("the contest is frozen by its staff: no submissions now")
        if deadline is not None and now > float(deadline):
            raise ContestClosed("the contest's deadline has passed")
        digest = table_digest(table, game)
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?)",
                            (owner, team, digest, now, json.dumps(list(table.shape)),
                             np.ascontiguousarray(table, dtype=np.int8).tobytes()))
        return {"owner": owner, "team": team, "digest": digest}

    def remove(self, owner: str) -> bool:
        """Take ``owner``'s entry out (its pairs stay, keyed by table: they cost nothing)."""
        with self.lock:
            return self.db.execute("DELETE FROM entries WHERE owner = ?", (owner,)).rowcount > 0

    def entries(self, tables: bool = True) -> List[dict]:
        """Every entry, oldest first: owner, team, digest, submitted time and (with ``tables``)
        its table; without, nothing of the tables is read (a Feral Hogs table is over a megabyte,
        and the standings need only the digests)."""
        cells = "shape, cells" if tables else "NULL, NULL"
        with self.lock:
            rows = self.db.execute(f"SELECT owner, team, digest, submitted, {cells} FROM entries "
                                   "ORDER BY submitted, owner").fetchall()
        return [{"owner": o, "team": t, "digest": d, "submitted": s,
                 **({"table": np.frombuffer(c, dtype=np.int8).reshape(json.loads(shape))} if tables else {})}
                for o, t, d, s, shape, c in rows]

    # -- pairs -------------------------------------------------------------------

    def known(self, digests: Sequence[str]) -> Dict[Tuple[int, int], Tuple[float, float]]:
        """The recorded pairs among entries with these ``digests`` (in their order), as
        :func:`~hogsolve.contest.roundrobin.round_robin` takes them: ``{(i, j): (P(i wins | i
        first), P(i wins | j first))}``, i < j."""
        with self.lock:
            rows = self.db.execute("SELECT a, b, first, second FROM pairs").fetchall()
        stored = {(a, b): (first, second) for a, b, first, second in rows}
        found = {}
        for i in range(len(digests)):
            for j in range(i + 1, len(digests)):
                a, b = digests[i], digests[j]
                if (a, b) in stored:
                    found[(i, j)] = stored[(a, b)]
                elif (b, a) in stored:
                    first, second = stored[(b, a)]
                    found[(i, j)] = (1.0 - second, 1.0 - first)
        return found

    def record(self, pairs: Sequence[Tuple[str, str, float, float]]) -> int:
        """Commit finished pairs ``(digest_a, digest_b, first, second)``; a pair already recorded
        (either way round) is not recorded again.  Returns how many were new."""
        new = 0
        with self.lock:
            self.db.execute("BEGIN")
            for a, b, first, second in pairs:
                if self.db.execute("SELECT 1 FROM pairs WHERE (a = ? AND b = ?) OR (a = ? AND b = ?)",
                                   (a, b, b, a)).fetchone():
                    continue
                self.db.execute("INSERT INTO pairs VALUES (?, ?, ?, ?)", (a, b, first, second))
                new += 1
            self.db.execute("UPDATE scored SET n = n + ?", (new,))
            self.db.execute("COMMIT")
        return new

    def scored(self) -> int:
        """Pairs scored over the contest's whole life, restarts included."""
        with self.lock:
            return int(self.db.execute("SELECT n FROM scored").fetchone()[0])

    def close(self) -> None:
        """Close the file."""
        with self.lock:
            self.db.close()


def past_contest(path: Path, threshold: float = 0.5) -> Tuple[str, TournamentResult]:
    """A finished contest from its file, as a round robin's standings: the course's published
    leaderboard format (JSON ``{"teams": [...], "winrate_mat": [[...]]}``, row i's win rate
    against column j) or hogsolve's own (``tournament --out``'s CSV).  ``(title, result)``;
    InputError in one line for a file of neither kind."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the past contest {path}: {exc}") from None
    if path.suffix.lower() == ".csv":
        rows = list(csv.DictReader(text.splitlines()))
        names = list(dict.fromkeys([r.get("a", "") for r in rows] + [r.get("b", "") for r in rows]))
        index = {n: k for k, n in enumerate(names)}
        first = np.full((len(names), len(names)), np.nan)
        try:
            for r in rows:
                i, j = index[r["a"]], index[r["b"]]
                first[i, j], first[j, i] = float(r["a_wins_moving_first"]), 1.0 - float(r["a_wins_moving_second"])
            rules = rows[0]["rules"] if rows else path.stem
        except (KeyError, ValueError):
            raise InputError(f"{path} is not a tournament --out file (rules, a, b, a_wins_moving_first, ...)") from None
        return path.stem, TournamentResult(rules, names, first, threshold)
    try:
        data = json.loads(text)
        names = [str(t) for t in data["teams"]]
        rate = np.array([[np.nan if x is None else float(x) for x in row] for row in data["winrate_mat"]])
    except (ValueError, KeyError, TypeError):
        raise InputError(f"{path} is not a leaderboard file (JSON with teams and winrate_mat)") from None
    if rate.shape != (len(names), len(names)):
        raise InputError(f"{path}: winrate_mat is {rate.shape}, not {len(names)} x {len(names)}")
    np.fill_diagonal(rate, np.nan)
    return path.stem, TournamentResult(path.stem, names, rate, threshold)  # rate + rate.T = 1: first = rate
