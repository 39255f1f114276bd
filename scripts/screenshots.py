"""Make the docs' pictures from real runs: the browser games' screenshots and the policy plots.

    python scripts/screenshots.py

Runs the browser tests that play whole games in headless Chromium (Debian's
``/usr/bin/chromium``, never a downloaded browser) with ``HOGSOLVE_SCREENSHOTS=docs``,
so their screenshots land in ``docs/``: the desktop game mid-game and at the end
(gui-midgame.png, gui-end.png), the phone (gui-phone.png), Pig with its hold map
(gui-pig.png) and a SinbadHogBot room after a round (sinbad-room.png).  Then
``hogsolve plot`` draws su18's, fa18's and fa13's policy and win-probability
surface (su18.png, fa18.png, fa13.png) and Pig's hold boundary (pig.png).  The Q-learning curves (q-learning.png)
come from ``scripts/train_q_learning.py``, which takes about an hour.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BROWSER_TESTS = ("test_play_whole_game_on_the_desktop or test_play_whole_game_by_tapping_on_a_phone or "
                 "(test_pig_at_goal_100_with_its_hold_map and desktop) or test_three_browsers_play_a_room_round_to_hog")
PLOTS = ("su18", "fa18", "fa13", "pig")


def main() -> int:
    env = {**os.environ, "HOGSOLVE_SCREENSHOTS": str(DOCS)}
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-m", "slow", "-k", BROWSER_TESTS,
                            "tests/test_gui_browser.py"], cwd=ROOT, env=env)
    if tests.returncode:
        return tests.returncode
    for rules in PLOTS:
        plot = subprocess.run([sys.executable, "-m", "hogsolve", "plot", "--rules", rules, "--out",
                               str(DOCS / f"{rules}.png")], cwd=ROOT)
        if plot.returncode:
            return plot.returncode
    print("wrote " + ", ".join(sorted(p.name for p in DOCS.glob("*.png"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
