"""A GUI server on an ephemeral port, in a thread, for the tests."""
import threading
from contextlib import contextmanager

from hogsolve.gui.server import make_server


@contextmanager
def running_server():
    server = make_server(0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server, server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
