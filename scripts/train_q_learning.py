"""Tabular Q-learning through the Gymnasium environments, evaluated exactly as it trains.

    python scripts/train_q_learning.py [--rules su18] [--pig pig] [--goal 100] [--episodes 300000]
                                       [--every 25000] [--seed 1] [--out docs/q-learning.png]

The agent learns against the optimal bot in Hog (``--rules``) and in a
roll-or-hold game (``--pig``, against Neller and Presser's optimum), at
``--goal``.  Every ``--every`` episodes its greedy policy is tabulated over
every state and scored by :func:`hogsolve.interop.evaluate_agent`: the exact
win rate against the optimum and the exact exploitability, so the curves have
no simulation noise.  Prints a table and draws both curves for both games.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import gymnasium  # noqa: E402

import hogsolve.interop.gymnasium  # noqa: E402,F401  (registers hogsolve/Hog-v0 and hogsolve/Pig-v0)
from hogsolve.interop import evaluate_agent  # noqa: E402


class QAgent:
    """A table of action values indexed by the whole observation vector (scores, and the turn
    total in the Pig games)."""

    def __init__(self, env, rng: np.random.Generator, alpha: float = 0.1, epsilon: float = 0.1):
        highs = env.observation_space.high
        if len(highs) > 3:
            raise SystemExit("a plain Q table over Feral Hogs' memories would be too large: choose another ruleset")
        self.q = np.zeros(tuple(int(h) + 1 for h in highs) + (env.action_space.n,))
        self.rng, self.alpha, self.epsilon = rng, alpha, epsilon

    def best(self, observation: np.ndarray, mask: np.ndarray) -> int:
        values = np.where(mask == 1, self.q[tuple(observation)], -np.inf)
        return int(np.argmax(values))

    def choose(self, observation, mask) -> int:
        if self.rng.random() < self.epsilon:
            return int(self.rng.choice(np.flatnonzero(mask)))
        return self.best(observation, mask)

    def learn(self, observation, action, reward, after, mask_after, done) -> None:
        target = reward if done else np.max(np.where(mask_after == 1, self.q[tuple(after)], -np.inf))
        cell = tuple(observation) + (action,)
        self.q[cell] += self.alpha * (target - self.q[cell])

    def policy(self, observations: np.ndarray) -> np.ndarray:
        """The greedy action for a batch of observations (every state, for the exact evaluation)."""
        values = self.q[tuple(observations.T)]
        if values.shape[-1] == 2:  # roll-or-hold: holding needs a turn total
            values[:, 1] = np.where(observations[:, 2] > 0, values[:, 1], -np.inf)
        return np.argmax(values, axis=1)


def episode(env, agent: QAgent, seed: int) -> float:
    """One game of learning from the agent's first move to the end; its reward."""
    observation, info = env.reset(seed=seed)
    while True:
        action = agent.choose(observation, info["action_mask"])
        after, reward, done, _, info = env.step(action)
        agent.learn(observation, action, reward, after, info["action_mask"], done)
        observation = after
        if done:
            return reward


def train(env_id: str, kwargs: dict, episodes: int, every: int, seed: int, rules) -> list:
    """Rows of (episodes, exact win rate against the optimum, exploitability)."""
    env = gymnasium.make(env_id, seat="random", **kwargs)
    agent = QAgent(env, np.random.default_rng(seed))
    rows = []
    for number in range(1, episodes + 1):
        episode(env, agent, seed * 1_000_003 + number)
        if number % every == 0:
            result = evaluate_agent(agent.policy, rules)
            rows.append((number, result.against_optimal.average, result.exploitability))
            print(f"  {env_id} {number:7d} episodes: "
                  f"win rate against the optimum {result.against_optimal.average:.4f}, "
                  f"exploitability {result.exploitability:.4f}", flush=True)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="su18")
    parser.add_argument("--pig", default="pig")
    parser.add_argument("--goal", type=int, default=100)
    parser.add_argument("--episodes", type=int, default=300000)
    parser.add_argument("--every", type=int, default=25000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="the plot (PNG)")
    args = parser.parse_args(argv)
    from hogsolve import get_pig_game, get_rules
    runs = {
        f"Hog {args.rules}": train("hogsolve/Hog-v0", {"rules": args.rules, "goal": args.goal}, args.episodes,
                                   args.every, args.seed, get_rules(args.rules, args.goal)),
        f"{args.pig}": train("hogsolve/Pig-v0", {"game": args.pig, "goal": args.goal}, args.episodes, args.every,
                             args.seed, get_pig_game(args.pig, args.goal)),
    }
    if args.out is not None:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6))
        for label, rows in runs.items():
            episodes, rates, gaps = zip(*rows)
            left.plot(episodes, rates, marker="o", label=label)
            right.plot(episodes, gaps, marker="o", label=label)
        left.axhline(0.5, color="gray", linestyle="--", linewidth=1)
        left.set(xlabel="training episodes", ylabel="exact win rate against the optimum", ylim=(0, 0.55))
        right.set(xlabel="training episodes", ylabel="exact exploitability", ylim=(0, None))
        left.legend()
        figure.suptitle(f"Tabular Q-learning against the optimal bot, goal {args.goal} (exact, no sampling noise)")
        figure.tight_layout()
        args.out.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(args.out, dpi=110)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
