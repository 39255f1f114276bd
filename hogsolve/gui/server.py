"""Serving the web app: on 127.0.0.1 for one person, or on the local network with a join link.

``serve`` is what ``hogsolve gui`` runs; :class:`Running` starts the same
server in a thread (tests and benchmarks use it).
"""
from __future__ import annotations

import gc
import secrets
import socket
import threading
import time
import webbrowser
from pathlib import Path
from typing import Callable, List, Optional

import psutil
import uvicorn

from .app import create_app
from .sinbad import SinbadRooms
from .guard import Access
from .protocol import config

LOOPBACK = ("127.0.0.1", "localhost")


def local_addresses(host: str) -> List[str]:
    """The addresses a browser may use to reach a server bound to ``host``: loopback always;
    with 0.0.0.0 every IPv4 address of this machine; else ``host`` itself."""
    found = list(LOOPBACK)
    if host in ("0.0.0.0", ""):
        for addresses in psutil.net_if_addrs().values():
            found += [a.address for a in addresses if a.family == socket.AF_INET]
    else:
        found.append(host)
    return list(dict.fromkeys(found))


def lan_address(host: str) -> str:
    """The address to print in the join link: the bound one, or for 0.0.0.0 the machine's
    address on its default route (loopback when there is none)."""
    if host not in ("0.0.0.0", ""):
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))  # no packet is sent: this only picks a route
            return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"


class Running:
    """The app served by uvicorn in a thread: ``with Running(...) as server: server.port``.

    ``lan``: require the access token of :attr:`url`; ``limits``: the protocol's
    ``request_deadline`` and ``max_connections`` (tests shorten them); ``data``: the
    folder of the SinbadHogBot rooms' event log (None: rooms live in memory only);
    ``think`` and ``stall``: the room bots' seconds to think and the seconds a round
    may last without a hog; ``sinbad_room``: ``(room, bot kinds, seed)`` of a room
    opened at start (unless the log already has it); other keywords go to the game store
    (``max_games``, ``idle_seconds``)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *, lan: bool = False, default_rules: str = "su18",
                 rule_files: Optional[dict] = None, limits: Optional[dict] = None, data: Optional[Path] = None,
                 think: float = 0.4, stall: float = 180.0, sinbad_room: Optional[tuple] = None,
                 announce: Optional[Callable[[str], None]] = None, **store_options):
        self.host, self.requested_port = host, port
        self.token = secrets.token_urlsafe(16) if lan else None
        self.sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))  # bound here, so the port is known (and a busy one fails) at once
        self.sock.listen(512)  # clients that come before the loop runs wait in the backlog
        self.port = self.sock.getsockname()[1]
        access = Access.for_addresses(local_addresses(host), self.port, self.token)
        rooms = SinbadRooms(data, think=think, stall=stall, opening=sinbad_room, announce=announce)
        self.app = create_app(access, default_rules, rule_files, rooms, **store_options)
        self.api, self.rooms = getattr(self.app, "api"), getattr(self.app, "rooms")  # noqa: B009 (create_app sets them on its guard)
        self.server = uvicorn.Server(config(self.app, host, self.port, **(limits or {})))
        self.thread: Optional[threading.Thread] = None

    def link(self, page: str = "") -> str:
        """The link to a page: on a network, with the access token."""
        address = lan_address(self.host) if self.token else "127.0.0.1"
        return f"http://{address}:{self.port}/{page}" + (f"?access={self.token}" if self.token else "")

    @property
    def url(self) -> str:
        """The link to the first page."""
        return self.link()

    def run(self) -> None:
        """Serve in this thread until :meth:`stop` (or Ctrl-C)."""
        self.server.run(sockets=[self.sock])

    def __enter__(self) -> "Running":
        self.thread = serve_in_thread(self.server, self.sock)
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=30)
        self.sock.close()

    def __exit__(self, *exc) -> None:
        self.stop()


def serve_in_thread(server: uvicorn.Server, sock: socket.socket) -> threading.Thread:
    """``server`` run on ``sock`` in a daemon thread, returned once it listens (at most 30 s)."""
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    return thread


def serve(default_rules: str = "su18", port: int = 8061, open_browser: bool = True, host: Optional[str] = None,
          rule_files: Optional[dict] = None, announce: Callable[[str], None] = print, *, page: str = "",
          data: Optional[Path] = None, **options) -> None:
    """Serve until interrupted, printing the link to ``page`` (with its token on a network) and
    opening a browser."""
    running = Running(host or "127.0.0.1", port, lan=host is not None, default_rules=default_rules,
                      rule_files=rule_files, data=data if data is not None else data_folder(), announce=announce,
                      **options)
    if page == "lab":
        announce(f"hogsolve lab at {running.link(page)} (Ctrl-C to stop); it re-runs the file on every save")
    elif page:
        announce(f"SinbadHogBot room at {running.link(page)} (Ctrl-C to stop)")
    elif running.token:
        announce(f"hogsolve GUI on the local network: {running.url}")
        announce("Share this link (it carries the access token); anyone without it gets 403. Ctrl-C to stop.")
    else:
        announce(f"hogsolve GUI at {running.url} (Ctrl-C to stop)")
    if open_browser:
        threading.Timer(0.3, webbrowser.open, args=(running.link(page),)).start()
    quiet_collector()
    try:
        running.run()
    except KeyboardInterrupt:
        pass
    finally:
        running.sock.close()


def quiet_collector() -> None:
    """Keep the garbage collector out of the rooms' latency: everything loaded so far (modules,
    solved tables, the app) is frozen out of its scans.  A full collection of a busy server
    otherwise stops every room for about 90 ms (measured under scripts/bench_sinbad.py, whose
    p99 followed it)."""
    gc.collect()
    gc.freeze()


def data_folder() -> Path:
    """Where the rooms' event log lives: ``$HOGSOLVE_DATA``, else ``$XDG_DATA_HOME/hogsolve``
    (``~/.local/share/hogsolve``)."""
    import os
    if os.environ.get("HOGSOLVE_DATA"):
        return Path(os.environ["HOGSOLVE_DATA"])
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "hogsolve"
