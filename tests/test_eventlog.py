"""The rooms' event log: grouped commits, what waits for them, checkpoints off the event loop."""
import asyncio
import sqlite3

from hogsolve.util import eventlog
from hogsolve.util.eventlog import EventLog


def logged(path, room="r"):
    """What another connection (a restarted server) reads of ``room``."""
    other = EventLog(path)
    try:
        return [seq for seq, _ in other.commands(room)]
    finally:
        other.close()


def test_a_group_commits_once_at_the_end_of_the_loops_turn_and_then_sends(tmp_path):
    """Mistakes: an action run before its commands are committed (a client told of a move a
    restarted server never made), actions out of order, a group never committed."""
    path = tmp_path / "log.sqlite3"
    log = EventLog(path, group=True)
    log.add_room("r", 1)
    seen = []

    async def turn():
        log.append("r", 1, {"op": "say"})
        log.append("r", 2, {"op": "say"})
        log.after_commit(lambda: seen.append(("first", logged(path))))
        log.after_commit(lambda: seen.append(("second", logged(path))))
        assert seen == [] and logged(path) == []  # nothing sent, nothing on disk yet
        await asyncio.sleep(0)  # the loop's next turn commits
        await asyncio.sleep(0)
        log.after_commit(lambda: seen.append(("at once", logged(path))))  # nothing open: runs now
    asyncio.run(turn())
    assert seen == [("first", [1, 2]), ("second", [1, 2]), ("at once", [1, 2])]
    log.close()


def test_an_ungrouped_log_commits_each_append(tmp_path):
    """Mistake: grouping by default (a CLI or test appending outside an event loop)."""
    path = tmp_path / "log.sqlite3"
    log = EventLog(path)
    log.append("r", 1, {"op": "say"})
    assert logged(path) == [1]
    ran = []
    log.after_commit(lambda: ran.append(1))
    assert ran == [1]
    log.close()


def test_a_grouped_log_checkpoints_in_its_own_thread(tmp_path, monkeypatch):
    """Mistake: automatic checkpoints turned off with nothing in their place (every command then
    stays in the WAL file, which grows by a page or two a command for as long as the server
    runs).  The main file alone, copied without its WAL, holds what was checkpointed."""
    import shutil
    import time
    monkeypatch.setattr(eventlog, "CHECKPOINT_SECONDS", 0.01)
    path = tmp_path / "log.sqlite3"
    log = EventLog(path, group=True)
    assert log.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0  # not on the loop

    async def some():
        for seq in range(1, 301):
            log.append("r", seq, {"op": "say", "line": "x" * 40})
            await asyncio.sleep(0 if seq % 50 else 0.005)  # a commit a turn
    asyncio.run(some())
    deadline = time.monotonic() + 10
    while True:  # no more writes: the next checkpoint copies every frame into the main file
        shutil.copyfile(path, tmp_path / "main-only.sqlite3")
        with sqlite3.connect(tmp_path / "main-only.sqlite3") as db:
            try:
                rows = db.execute("SELECT COUNT(*) FROM commands").fetchone()[0]
            except sqlite3.DatabaseError:  # no schema there yet, or a copy taken mid-checkpoint
                rows = 0
        if rows == 300 or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert rows == 300
    log.close()
