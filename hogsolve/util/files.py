"""Files written so that a crash never leaves half of one, and plain array encodings.

Writes go to a temporary name beside the target, are flushed to disk, then
renamed over it; arrays are stored as CSV grids or ``.npy`` bytes, never
pickled.
"""
from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path

import numpy as np


def sha256(data: bytes) -> str:
    """Hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def grid_csv(grid: np.ndarray, fmt) -> bytes:
    """A goal x goal grid as CSV: header row of opponent scores, first column the mover's."""
    g = grid.shape[1]
    out = io.StringIO()
    out.write("score\\opponent_score," + ",".join(str(o) for o in range(g)) + "\n")
    for s, row in enumerate(grid):
        out.write(f"{s}," + ",".join(fmt(x) for x in row) + "\n")
    return out.getvalue().encode()


#: The largest input text file hogsolve reads (rule files, sweep grids): far above any real one.
TEXT_LIMIT = 1_000_000


def read_text_file(path, limit: int = TEXT_LIMIT) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes.  Anything else (a device such
    as /dev/zero, a FIFO that would block, a folder, a huge file) raises :class:`OSError` whose
    ``strerror`` says which, before reading more than ``limit`` bytes; undecodable bytes raise
    :class:`UnicodeDecodeError`."""
    import stat
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO's open must not wait
    except OSError:
        raise
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else \
                "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file"
            raise OSError(0, f"{kind}, not a regular file")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise OSError(0, f"larger than {limit:,} bytes")
    return data.decode("utf-8")


def read_grid_csv(path: Path, dtype) -> np.ndarray:
    """Inverse of :func:`grid_csv`."""
    lines = Path(path).read_text().strip().splitlines()
    rows = [line.split(",")[1:] for line in lines[1:]]
    return np.array(rows, dtype=dtype)


def npy_bytes(array: np.ndarray) -> bytes:
    """An array as .npy bytes (never pickled)."""
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    return buf.getvalue()


TEMP_SUFFIX = ".tmp"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def remove_stray_temporaries(directory: Path) -> None:
    """Delete temporary files that a killed run left in ``directory`` (``.NAME.PID.tmp``)."""
    for tmp in Path(directory).glob(f".*.*{TEMP_SUFFIX}"):
        pid = tmp.name[: -len(TEMP_SUFFIX)].rsplit(".", 1)[-1]
        if pid.isdecimal() and int(pid) != os.getpid() and not _pid_alive(int(pid)):
            try:
                tmp.unlink()
            except OSError:
                pass


def atomic_write(path: Path, data: bytes) -> None:
    """Write to a temporary name beside ``path``, flush it to disk, then rename over it.

    A crash or power cut leaves either the old file or the new one under
    ``path``, never a partial one.
    """
    path = Path(path)
    remove_stray_temporaries(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}{TEMP_SUFFIX}")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        _fsync_directory(path.parent)
    finally:
        if tmp.exists():
            tmp.unlink()


def _fsync_directory(directory: Path) -> None:
    """Make a rename durable (where the platform allows opening a directory)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
