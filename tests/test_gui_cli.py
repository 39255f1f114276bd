"""hogsolve gui and hogsolve plot as commands."""
import numpy as np
import json
import re
import os
import subprocess
import sys
import urllib.request

import pytest

from cli_helpers import run_main
from hogsolve.cli import main


def test_gui_command_serves_on_loopback():
    proc = subprocess.Popen([sys.executable, "-m", "hogsolve.cli", "gui", "--no-browser", "--port", "0",
                             "--rules", "fa18"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        with urllib.request.urlopen(f"{match.group(0)}api/rulesets", timeout=30) as response:
            assert json.load(response)["default"] == "fa18"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize("args, message", [
    (["gui", "--rules", "nope", "--no-browser"], "unknown ruleset"),
    (["gui", "--port", "70000", "--no-browser"], "the port must be from 0 to 65535"),
    (["gui", "--host", "example.com", "--no-browser"], "expected an IP address"),
    (["sinbad", "serve", "--host", "localhost", "--no-browser"], "expected an IP address"),
    (["sinbad", "serve", "--think", "0", "--no-browser"], "expected a positive number of seconds"),
    (["plot", "--rules", "su18", "--out", "x.jpg"], "must name a .png"),
])
def test_bad_input(args, message):
    result = run_main(*args)
    assert result.returncode == 2 and message in result.stderr


@pytest.mark.slow  # the fast tier draws a small plot (below); the docs' pictures come from this command too
def test_plot_writes_png(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "fa13.png"
    assert main(["plot", "--rules", "fa13", "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20_000
    assert not list(tmp_path.glob(".*tmp*"))


def test_a_busy_port_is_one_line_that_mentions_port_0(capsys):
    import socket
    from hogsolve.cli import main
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["gui", "--port", str(port), "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}" in err and "--port 0" in err


@pytest.mark.slow  # kept out of the default tier for its time; CI runs the slow tier
def test_the_plot_names_the_ruleset_once_above_both_panels(tmp_path, monkeypatch):
    """The long per-panel titles overlapped the colour bar (fa19); the label is a suptitle now."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from hogsolve.analysis import plot
    seen = {}
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig: seen.setdefault("fig", fig) and real_close(fig))
    policy = np.zeros((10, 10), dtype=int)
    plot.plot_solution(policy, np.full((10, 10), 0.5), "fa19 (goal 100, both memories 0)", tmp_path / "p.png")
    fig = seen["fig"]
    assert fig._suptitle.get_text() == "fa19 (goal 100, both memories 0)"
    assert [ax.get_title() for ax in fig.axes[:1]] == ["optimal number of dice"]


def test_serving_freezes_what_was_loaded_out_of_the_collectors_scans(tmp_path):
    """Mistake: the server serving with every loaded object in the garbage collector's full
    scans (a 90 ms stop of every room, scripts/bench_sinbad.py)."""
    code = ("import gc, hogsolve.gui.server as s\n"
            "s.Running.run = lambda self: print(gc.get_freeze_count())\n"
            "s.serve(open_browser=False, port=0, announce=lambda m: None)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "HOGSOLVE_DATA": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) > 10_000
