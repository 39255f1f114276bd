"""Benchmark the environments against a plain Python loop of the same game, in one process.

    python scripts/bench_envs.py [--seconds 1.0] [--repeats 5] [--num-envs 4096]

Last, PettingZoo's env against the Gymnasium env, in whole episodes and per agent decision.

For Pig and for Hog su18 it times, as agent steps (player 0's decisions: an environment
step is one decision of the agent and the opponent's play after it) a second, the median
of ``--repeats`` runs of ``--seconds`` each:

- a plain Python loop: ``random.Random`` dice, the rules written out inline (Pig), or the
  ruleset's own rule functions (su18: Free Bacon, Pig Out, swaps), an agent of one rule
  against the same opponent, nothing else: the reference;
- the single Gymnasium environment (``hogsolve/Pig-v0``, ``hogsolve/Hog-v0``), stepping
  with the same agent, and its ratio to the reference;
- the vector environment (:mod:`hogsolve.interop.vector`) at ``--num-envs`` games, one numpy
  process (one core), and its ratio to the reference;
- Feral Hogs (fa19, whose memories the Hog lane cannot hold): the single env (the general
  state lane) and the vector env, for information (no plain loop);
- for Pig, the floor: a Gymnasium-style step with the rules and the opponent inline and
  nothing but a fresh numpy observation and mask (what no general environment can beat).
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from hogsolve import get_rules


#: Steps between two looks at the clock in the environments' loops (the plain loops look once
#: a game, a few dozen decisions): the clock is not what is measured.
CLOCK_EVERY = 32


def rates(runs, seconds: float, repeats: int) -> list:
    """Median steps a second of each ``run(seconds) -> steps`` over ``repeats`` rounds, the runs
    interleaved in every round (after a warm-up), so a change of the machine's speed during
    the benchmark falls on all of them alike."""
    for run in runs:
        run(seconds / 5)
    samples: list = [[] for _ in runs]
    for _ in range(repeats):
        for run, sample in zip(runs, samples):
            sample.append(run(seconds) / seconds)
    return [statistics.median(sample) for sample in samples]


def plain_pig(seconds: float) -> int:
    """Pig to 100, hold at 20 against hold at 20, one die, written out; counts player 0's
    decisions (the agent's, as an environment step does)."""
    rng = random.Random(1)
    steps, deadline = 0, time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        scores, mover, total = [0, 0], 0, 0
        while True:
            steps += mover == 0
            if total >= 20 or scores[mover] + total >= 100:
                scores[mover] += total
                if scores[mover] >= 100:
                    break
                mover, total = 1 - mover, 0
                continue
            face = rng.randint(1, 6)
            if face == 1:
                mover, total = 1 - mover, 0
            else:
                total += face
    return steps


def plain_su18(seconds: float) -> int:
    """su18 to 100, four dice against four dice, with the ruleset's own rule functions;
    counts player 0's turns (the agent's decisions)."""
    rules = get_rules("su18")
    rng = random.Random(1)
    steps, deadline = 0, time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        scores, mover = [0, 0], 0
        while max(scores) < 100:
            steps += mover == 0
            me, them = scores[mover], scores[1 - mover]
            faces = [rng.randint(1, 6) for _ in range(4)]
            points = 1 if 1 in faces else sum(faces)
            me += points
            if rules.swaps(me, them):
                me, them = them, me
            scores[mover], scores[1 - mover] = me, them
            mover = 1 - mover
    return steps


class FloorPig:
    """The least a Gymnasium-style Pig step can do: the rules inline, the opponent holding at
    20 inline, a fresh numpy observation and mask; no checks, no general interface."""

    def __init__(self):
        self.rng = random.Random(1)
        self.mask = np.ones(2, dtype=np.int8)

    def reset(self):
        self.scores, self.total = [0, 0], 0
        return self.observe(), {"action_mask": self.mask.copy()}

    def observe(self) -> np.ndarray:
        return np.array([self.scores[0], self.scores[1], self.total], dtype=np.int64)

    def step(self, action: int):
        if action:
            self.scores[0] += self.total
            self.total = 0
            if self.scores[0] >= 100:
                return self.observe(), 1.0, True, False, {"action_mask": self.mask.copy()}
            self.opponent()
        else:
            face = self.rng.randint(1, 6)
            if face == 1:
                self.total = 0
                self.opponent()
            else:
                self.total += face
        done = self.scores[1] >= 100
        return self.observe(), -1.0 if done else 0.0, done, False, {"action_mask": self.mask.copy()}

    def opponent(self) -> None:
        total = 0
        while total < 20 and self.scores[1] + total < 100:
            face = self.rng.randint(1, 6)
            if face == 1:
                return
            total += face
        self.scores[1] += total


def floor_pig(seconds: float) -> int:
    """Steps a second of :class:`FloorPig` with the hold-at-20 agent."""
    env = FloorPig()
    observation, info = env.reset()
    steps, deadline = 0, time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for _ in range(CLOCK_EVERY):
            observation, reward, done, truncated, info = env.step(int(observation[2] >= 20))
            if done:
                observation, info = env.reset()
        steps += CLOCK_EVERY
    return steps


def single_env(env_id: str, kwargs: dict, agent):
    import gymnasium
    import hogsolve.interop.gymnasium  # noqa: F401  (registers the environments)

    def run(seconds: float) -> int:
        env = gymnasium.make(env_id, **kwargs).unwrapped
        observation, info = env.reset(seed=1)
        steps, deadline = 0, time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for _ in range(CLOCK_EVERY):
                observation, reward, done, truncated, info = env.step(agent(observation))
                if done:
                    observation, info = env.reset()
            steps += CLOCK_EVERY
        return steps
    return run


def vector_env(kwargs: dict, agent, num_envs: int):
    from hogsolve.interop.vector import HogsolveVectorEnv

    def run(seconds: float) -> int:
        env = HogsolveVectorEnv(num_envs, **kwargs)
        observation, info = env.reset(seed=1)
        steps, deadline = 0, time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            observation, reward, done, truncated, info = env.step(agent(observation))
            steps += num_envs
        return steps
    return run


def episodes_gym(env_id: str, kwargs: dict, agent):
    """Whole episodes of the Gymnasium env (as ``gymnasium.make`` gives it), one agent against
    the env's fixed opponent: ``run(seconds) -> (episodes, agent decisions)``."""
    import gymnasium
    import hogsolve.interop.gymnasium  # noqa: F401  (registers the environments)

    def run(seconds: float) -> tuple:
        env = gymnasium.make(env_id, **kwargs)
        episodes = decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            observation, info = env.reset(seed=episodes)
            done = False
            while not done:
                observation, reward, done, truncated, info = env.step(agent(observation))
                decisions += 1
            episodes += 1
        return episodes, decisions
    return run


def episodes_pettingzoo(make, kwargs: dict, agent):
    """Whole episodes of the PettingZoo env, both seats played by ``agent``: ``run(seconds) ->
    (episodes, agent decisions)``."""
    def run(seconds: float) -> tuple:
        env = make(**kwargs)
        episodes = decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            env.reset(seed=episodes)
            for _ in env.agent_iter():
                observation, reward, done, truncated, info = env.last()
                env.step(None if done or truncated else agent(observation["observation"]))
                decisions += 1
            episodes += 1
        return episodes, decisions
    return run


def pettingzoo_table(seconds: float, repeats: int) -> None:
    """Episodes a second of the PettingZoo env (``env()``, PettingZoo's classic wrappers; and
    ``raw_env()``) against the Gymnasium env, and the same per agent decision."""
    from hogsolve.interop import pettingzoo as pz
    print("\nPettingZoo against the Gymnasium env, whole episodes (PettingZoo: both seats are agents, so twice "
          f"the decisions); median of {repeats} runs of {seconds:g} s")
    print("| game | Gym episodes/s | env() episodes/s | Gym / env() | raw_env() episodes/s | Gym / raw_env() "
          "| Gym / env() per decision |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for label, env_id, gym_kwargs, pz_kwargs, agent in (
            ("Hog su18 (4 dice; Gym's opponent always_roll:4)", "hogsolve/Hog-v0",
             {"rules": "su18", "opponent": "always_roll:4"}, {"rules": "su18"}, lambda o: 4),
            ("Pig (hold at 20; Gym's opponent hold_at:20)", "hogsolve/Pig-v0",
             {"game": "pig", "opponent": "hold_at:20"}, {"game": "pig"}, lambda o: int(o[2] >= 20))):
        runs = [episodes_gym(env_id, gym_kwargs, agent), episodes_pettingzoo(pz.env, pz_kwargs, agent),
                episodes_pettingzoo(pz.raw_env, pz_kwargs, agent)]
        results = [[run(seconds) for run in runs] for _ in range(repeats)]
        eps = [statistics.median(r[k][0] for r in results) / seconds for k in range(3)]
        per = [statistics.median(r[k][1] for r in results) / seconds for k in range(3)]
        print(f"| {label} | {eps[0]:,.0f} | {eps[1]:,.0f} | {eps[0] / eps[1]:.1f}x | {eps[2]:,.0f} | "
              f"{eps[0] / eps[2]:.1f}x | {per[0] / per[1]:.1f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--num-envs", type=int, default=4096)
    args = parser.parse_args()
    games = [
        ("Pig (goal 100, hold at 20 against hold_at:20)", plain_pig, "hogsolve/Pig-v0",
         {"game": "pig", "opponent": "hold_at:20"}, lambda o: int(o[2] >= 20),
         lambda o: (o[:, 2] >= 20).astype(np.int64)),
        ("Hog su18 (goal 100, 4 dice against always_roll:4)", plain_su18, "hogsolve/Hog-v0",
         {"rules": "su18", "opponent": "always_roll:4"}, lambda o: 4, lambda o: np.full(len(o), 4)),
    ]
    print(f"steps a second, median of {args.repeats} runs of {args.seconds:g} s; vector env at "
          f"{args.num_envs:,} games, one process")
    print("| game | plain Python loop | single env | plain / single | vector env | vector / plain |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, plain, env_id, kwargs, one, many in games:
        reference, single, vector = rates([plain, single_env(env_id, kwargs, one),
                                           vector_env(kwargs, many, args.num_envs)], args.seconds, args.repeats)
        print(f"| {label} | {reference:,.0f} | {single:,.0f} | {reference / single:.1f}x slower | {vector:,.0f} | "
              f"{vector / reference:.1f}x |")
    feral = {"rules": "fa19", "opponent": "always_roll:4"}
    single, vector = rates([single_env("hogsolve/Hog-v0", feral, lambda o: 4),
                            vector_env(feral, lambda o: np.full(len(o), 4), args.num_envs)], args.seconds, args.repeats)
    print(f"\nFeral Hogs (fa19, memories; 4 dice against always_roll:4): single env {single:,.0f}, "
          f"vector env {vector:,.0f} steps a second")
    reference, floor = rates([plain_pig, floor_pig], args.seconds, args.repeats)
    print(f"\nthe least a Pig env step can cost (rules inline, numpy observation and mask): {floor:,.0f} "
          f"steps a second, {reference / floor:.1f}x slower than the plain loop ({reference:,.0f})")
    pettingzoo_table(args.seconds, args.repeats)


if __name__ == "__main__":
    main()
