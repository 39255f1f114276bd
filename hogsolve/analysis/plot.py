"""Pictures of a solution: the policy heatmap and the win-probability surface.

Needs matplotlib, an optional extra: ``pip install 'hogsolve[plot]'``.
Both panels show ``W[score, opponent_score]`` with the player to move.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np


def plot_solution(policy: np.ndarray, win_probability: np.ndarray, title: str, out: Path,
                  policy_label: str = "optimal number of dice") -> Path:
    """Write a PNG with the policy heatmap beside the win-probability surface (``policy_label``
    names the heatmap's numbers: dice counts, or Pig's hold thresholds)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import BoundaryNorm, ListedColormap

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.6), constrained_layout=True)
    max_dice = int(policy.max()) if policy.size else 10
    if max_dice <= 20:  # dice counts: one colour each
        colours = plt.get_cmap("viridis", max(max_dice + 1, 2))
        cmap = ListedColormap([colours(i) for i in range(max_dice + 1)])
        norm = BoundaryNorm(np.arange(-0.5, max_dice + 1.5), cmap.N)
        image = left.imshow(policy, origin="lower", cmap=cmap, norm=norm, interpolation="nearest")
        bar = fig.colorbar(image, ax=left, ticks=range(max_dice + 1))
    else:  # thresholds: a continuous scale
        image = left.imshow(policy, origin="lower", cmap="viridis", interpolation="nearest")
        bar = fig.colorbar(image, ax=left)
    bar.set_label(policy_label)
    fig.suptitle(title)  # the ruleset once, above both panels: long labels never reach a colour bar
    left.set_title(policy_label)

    surface = right.imshow(win_probability, origin="lower", cmap="RdBu", vmin=0, vmax=1,
                           interpolation="nearest")
    bar = fig.colorbar(surface, ax=right)
    bar.set_label("P(player to move wins)")
    right.set_title("win probability under optimal play")
    for ax in (left, right):
        ax.set_xlabel("opponent's score")
        ax.set_ylabel("score of the player to move")
    out = Path(out)
    tmp = out.with_name(f".{out.name}.tmp.png")
    try:
        fig.savefig(tmp, dpi=110)
        tmp.replace(out)
    finally:
        plt.close(fig)
        if tmp.exists():
            tmp.unlink()
    return out
