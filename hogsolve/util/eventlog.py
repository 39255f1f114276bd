"""An append-only log of commands per room, in SQLite (WAL), so a restarted server replays them.

One file holds every room: ``rooms`` (name, seed, created), ``commands``
(room, seq, the command as JSON; a room's seq runs 1, 2, 3 ... with no gap
and no repeat, enforced by the primary key) and ``games`` (each finished
game's scores, for ``history``).  Every append is committed before the
caller sends the command's effects anywhere: whatever anyone saw is on disk.
A busy server opens the log with ``group=True``: the appends of one turn of
its event loop share one commit (a commit costs far more than an insert), and
what it sends of them waits for that commit (:meth:`EventLog.after_commit`).
"""
from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Tuple

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (name TEXT PRIMARY KEY, seed INTEGER NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS commands (room TEXT NOT NULL, seq INTEGER NOT NULL, command TEXT NOT NULL,
                                     PRIMARY KEY (room, seq));
CREATE TABLE IF NOT EXISTS games (room TEXT NOT NULL, game INTEGER NOT NULL, finished REAL NOT NULL,
                                  totals TEXT NOT NULL, winners TEXT NOT NULL, PRIMARY KEY (room, game));
"""


#: Seconds between checkpoints of a grouped log (each copies the WAL into the file and syncs it).
CHECKPOINT_SECONDS = 1.0


class EventLog:
    """The log file (created if missing); one connection, used from one thread.  With ``group``,
    appends wait for :meth:`commit`, which runs by itself at the end of the event loop's turn, and
    checkpoints (a sync to disk: up to 15 ms) run in a thread of their own, off the event loop."""

    def __init__(self, path: Path, group: bool = False):
        self.path, self.group = Path(path), group
        self.waiting: List[Callable[[], None]] = []  # to run once the open transaction commits
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit survives a killed process
        self.db.executescript(SCHEMA)
        self.stopping = threading.Event()
        if group:
            self.db.execute("PRAGMA wal_autocheckpoint=0")
            threading.Thread(target=self._checkpoints, daemon=True, name="eventlog-checkpoints").start()

    def _checkpoints(self) -> None:
        """Copy the WAL into the file every :data:`CHECKPOINT_SECONDS` until closed."""
        db = sqlite3.connect(str(self.path), isolation_level=None)
        try:
            while not self.stopping.wait(CHECKPOINT_SECONDS):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")  # never waits for the writer
                except sqlite3.OperationalError:
                    pass  # busy: the next one copies it
        finally:
            db.close()

    def add_room(self, name: str, seed: int) -> None:
        """Record a new room and its seed."""
        self.db.execute("INSERT INTO rooms VALUES (?, ?, ?)", (name, seed, time.time()))

    def append(self, room: str, seq: int, command: dict) -> None:
        """Commit ``command`` as the room's ``seq``-th (an IntegrityError if that seq exists); in a
        group, at the next :meth:`commit`."""
        if self.group and not self.db.in_transaction:
            self.db.execute("BEGIN")
            asyncio.get_running_loop().call_soon(self.commit)
        self.db.execute("INSERT INTO commands VALUES (?, ?, ?)", (room, seq, json.dumps(command)))

    def after_commit(self, action: Callable[[], None]) -> None:
        """Run ``action`` once every append so far is committed: at once when it is, else right
        after the commit, in the order given."""
        if self.db.in_transaction or self.waiting:
            self.waiting.append(action)
        else:
            action()

    def commit(self) -> None:
        """Commit the open group, then run what waited for it."""
        if self.db.in_transaction:
            self.db.execute("COMMIT")
        waiting, self.waiting = self.waiting, []
        for action in waiting:
            action()

    def finish_game(self, room: str, game: int, totals: Dict[str, int], winners: List[str]) -> None:
        """Record a finished game's scores."""
        self.db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?)",
                        (room, game, time.time(), json.dumps(totals), json.dumps(winners)))

    def rooms(self) -> List[Tuple[str, int]]:
        """Every room's (name, seed), oldest first."""
        return list(self.db.execute("SELECT name, seed FROM rooms ORDER BY created, name"))

    def commands(self, room: str) -> Iterator[Tuple[int, dict]]:
        """The room's commands in order, as (seq, command)."""
        for seq, text in self.db.execute("SELECT seq, command FROM commands WHERE room = ? ORDER BY seq", (room,)):
            yield seq, json.loads(text)

    def history(self, room: Optional[str] = None) -> List[dict]:
        """Finished games (of one room, or all), oldest first."""
        query = "SELECT room, game, finished, totals, winners FROM games"
        rows = self.db.execute(query + (" WHERE room = ?" if room else "") + " ORDER BY finished",
                               (room,) if room else ())
        return [{"room": r, "game": g, "finished": f, "totals": json.loads(t), "winners": json.loads(w)}
                for r, g, f, t, w in rows]

    def close(self) -> None:
        """Close the file (and stop the checkpoints)."""
        self.stopping.set()
        self.db.close()
