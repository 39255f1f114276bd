"""The web app on an ephemeral port, in a thread, for the tests."""
from contextlib import contextmanager

from hogsolve.gui.server import Running


@contextmanager
def running_server(**options):
    """``(server, port)`` of a running app on 127.0.0.1 (``lan=True``: with an access token)."""
    with Running(**options) as server:
        yield server, server.port
