"""A new game is one more GameFamily: the toy Dash family (tests/toy_family.py, which alone
knows the game) runs through solve, compare, the web game's API and the Gymnasium environment
without a change to any other module."""
import http.client
import json
import time

import numpy as np
import pytest

from cli_helpers import run_main
from toy_family import Dash, DashFamily, values
from hogsolve.families import registry


@pytest.fixture
def dash(monkeypatch):
    """Dash registered as a family for one test."""
    family = DashFamily()
    monkeypatch.setitem(registry.FAMILIES, family.name, family)
    return family


def test_a_plain_recursion_agrees_with_the_toys_value_iteration():
    """The mistake it catches: a toy whose numbers are wrong would prove nothing below.  Leaping
    from 9 of 10 wins with 1/2 at once; stepping always wins: the mover at 9 wins for sure."""
    game = Dash(goal=4)
    v = values(game, None, None)
    assert v[0, 3, 0] == 1.0 and 0.5 < v[0, 0, 0] < 1


def test_solve_and_compare_on_the_command_line(dash):
    """The mistake it catches: a verb that only knows Hog and roll-or-hold (a dict of handlers,
    a switch on the family's name)."""
    solved = run_main("solve", "--rules", "dash", "--goal", "6")
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.startswith("dash (goal 6): P(first player wins) = 0.") and "proven optimal" in solved.stdout
    compared = run_main("compare", "optimal", "step", "--rules", "dash", "--goal", "6", "--json")
    assert compared.returncode == 0, compared.stderr
    exact = json.loads(compared.stdout)["exact"]
    rate = dash.win_rate(dash.optimal(Dash(goal=6)), "step", Dash(goal=6))
    assert exact["average"] == pytest.approx(rate.average, abs=1e-15) and exact["average"] > 0.5
    refused = run_main("best-response", "step", "--rules", "dash", "--goal", "6")  # a hook Dash leaves out
    assert refused.returncode == 2 and refused.stderr == "error: dash games do not offer best responses\n"


def test_the_web_games_api(dash):
    """The mistake it catches: the web catalogue, bot loader or game store keyed by family."""
    from gui_helpers import running_server

    def call(port, method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        status, data = response.status, json.loads(response.read())
        conn.close()
        return status, data

    with running_server() as (_, port):
        status, listing = call(port, "GET", "/api/rulesets")
        assert status == 200 and "dash" in [g["name"] for g in listing["rulesets"]]
        deadline = time.monotonic() + 60
        status, state = call(port, "POST", "/api/games", {"rules": "DASH", "first": "you", "seed": 3})
        while status == 202 and time.monotonic() < deadline:  # the bot is being prepared: ask again, as the page does
            time.sleep(0.2)
            status, state = call(port, "POST", "/api/games", {"rules": "DASH", "first": "you", "seed": 3})
        assert status == 201 and state["family"] == "dash" and state["legal_actions"] == [0, 1], state
        while state["winner"] is None:
            status, state = call(port, "POST", f"/api/games/{state['id']}/move", {"action": 1})
            assert status == 200, state
        assert state["winner"] in ("you", "bot") and any(e["who"] == "bot" for e in state["log"])
        status, error = call(port, "POST", f"/api/games/{state['id']}/move", {"action": 0})
        assert status == 409
        status, error = call(port, "GET", "/api/policy/dash")  # a hook Dash leaves out: 400, not 500
        assert status == 400 and "do not offer" in error["error"]


def test_the_gymnasium_environment(dash):
    """The mistake it catches: an environment that only builds Hog's or Pig's lane."""
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env
    from hogsolve.interop.gymnasium import HogsolveEnv
    env = HogsolveEnv(rules=Dash(goal=8))
    check_env(env, skip_render_check=True)
    wins, rng = 0, np.random.default_rng(0)
    for episode in range(200):
        observation, info = env.reset(seed=episode)
        done = False
        while not done:
            observation, reward, done, _, info = env.step(int(rng.integers(2)))
        wins += reward > 0
    assert isinstance(env.action_space, gymnasium.spaces.Discrete) and 0 < wins < 200
