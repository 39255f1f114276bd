"""The same answer on every machine: float noise far below the error bound moves no byte
of a shipped table and no printed figure.

Two scales of noise, each where a machine's noise enters:

* 1e-13 relative (a thousand times the noise measured between OpenBLAS kernels) on
  everything the solvers hand on after their proofs: the values and action values from
  which the policy's ties are broken, the tables are written and the lines are printed.
  The proofs themselves run on the solver's own floats (a proof of other values would be
  a proof of something else), so this checks the tie rule, the grid the stored values
  are rounded to, and the digits printed;
* a few units in the last place on what the proofs measure: the certificate's and the
  bound checks' bounds, as printed, do not move (a residual at the rounding level is
  charged a whole rounding step).
"""
import contextlib
import io
import re

import numpy as np
import pytest

from hogsolve import get_pig_game, get_rules
from hogsolve.cli import main
from hogsolve.solver import bound_check, optimal
from hogsolve.solver.pig import solve as pig
from hogsolve.solver.bound_check import check_hog_policy, check_pig_policy
from hogsolve.solver.model import compile_model

from test_solutions import SOLUTIONS

RELATIVE = 1e-13
TIME = re.compile(r"\b\d+(?:\.\d+)? ?(?:ms|s)\b")


#: Noise is relative to a value's size, but not below this scale: a value that is 0 exactly comes
#: out of a machine's sums as +-1e-16 (the first symptom seen, in fa19's float32 table).
SCALE_FLOOR = 1e-3


def shake(array: np.ndarray, rng: np.random.Generator, relative: float) -> None:
    """``array`` plus u relative max(|array|, SCALE_FLOOR), u uniform in [-1, 1], in place
    (infinities, the values of forbidden moves, stay)."""
    finite = np.isfinite(array)
    scale = np.maximum(np.abs(array[finite]), SCALE_FLOOR)
    array[finite] += relative * scale * rng.uniform(-1, 1, size=scale.size)


class Noise:
    """Monkeypatches that shake the solvers' floats right after their certificates, and give
    the proofs the clean copies."""

    def __init__(self, monkeypatch, relative: float = RELATIVE, seed: int = 1):
        self.rng, self.relative, self.clean = np.random.default_rng(seed), relative, {}
        real_certify, real_certify_pig = optimal.certify, pig.certify_pig
        real_prove, real_check_pig = bound_check.prove_float_table, bound_check.check_pig_policy

        def certify(model, values, action_values, iteration, **kw):
            certificate = real_certify(model, values, action_values, iteration, **kw)
            self.clean[id(values)] = values.copy()
            shake(values, self.rng, self.relative)
            shake(action_values, self.rng, self.relative)
            return certificate

        def certify_pig(game, value, rolls, passes, roll=None, over_turns=False):
            certificate = real_certify_pig(game, value, rolls, passes, roll, over_turns)
            self.clean[id(value)] = value.copy()
            shake(value, self.rng, self.relative)
            return certificate

        def prove(model, solution):
            import dataclasses
            noisy = solution.values
            clean = dataclasses.replace(solution, values=self.clean[id(noisy)])
            settled, check = real_prove(model, clean)
            return dataclasses.replace(settled, values=noisy), check

        def check_pig(game, value, roll, rolls=None):
            return real_check_pig(game, self.clean[id(value)], roll, rolls)

        monkeypatch.setattr(optimal, "certify", certify)
        monkeypatch.setattr(pig, "certify_pig", certify_pig)
        monkeypatch.setattr(bound_check, "prove_float_table", prove)
        monkeypatch.setattr(bound_check, "check_pig_policy", check_pig)


def solve_all(tmp_path, name, args):
    """``hogsolve solve ARGS --exact --out DIR``: (printed lines without timings or paths, DIR)."""
    out = tmp_path / name
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["solve", *args, "--exact", "--out", str(out)]) == 0
    text = TIME.sub("TIME", buffer.getvalue().replace(str(out), "DIR"))
    return text, out


def same_files(out, names):
    """Every file written under ``out`` equals the shipped one, byte for byte."""
    for name in names:
        for path in sorted((out / name).iterdir()):
            assert path.read_bytes() == (SOLUTIONS / name / path.name).read_bytes(), f"{name}/{path.name}"


#: A float-only Hog table of each kind (memories; passes; Neller's cycles), an exact one, and
#: the roll-or-hold games: the default tier runs the quick ones, the slow tier the rest.
QUICK = [(["--rules", "sp22", "--endless", "draw"], ["sp22"])]
SLOW = [(["--rules", "su18"], ["su18"]), (["--rules", "hog"], ["hog"]),
        (["--rules", "pig", "piglet"], ["pig", "piglet"]),
        (["--rules", "fa19", "sp20", "su20"], ["fa19", "sp20", "su20"]),
        (["--rules", "two-dice-pig", "big-pig"], ["two-dice-pig", "big-pig"])]


@pytest.mark.parametrize("args,names", [pytest.param(*case, id="-".join(case[1])) for case in QUICK] +
                         [pytest.param(*case, id="-".join(case[1]), marks=pytest.mark.slow) for case in SLOW])
def test_noise_moves_no_byte_and_no_printed_figure(tmp_path, monkeypatch, args, names):
    clean_text, clean_out = solve_all(tmp_path, "clean", args)
    same_files(clean_out, names)
    Noise(monkeypatch)
    noisy_text, noisy_out = solve_all(tmp_path, "noisy", args)
    assert noisy_text == clean_text
    same_files(noisy_out, names)


def test_noise_does_move_unrounded_floats(monkeypatch):
    """The noise is real: without the grid the stored values would differ, and an argmax
    among exactly tied dice counts follows it (what the tie rule is there to stop)."""
    from hogsolve import solve
    rules = get_rules("sp22").replace(endless="draw")
    clean = solve(rules)
    Noise(monkeypatch, seed=3)
    noisy = solve(rules)
    assert not np.array_equal(clean.values.astype(np.float32), noisy.values.astype(np.float32))
    tied = np.argwhere(np.ptp(clean.action_values[..., 1:], axis=-1) == 0)  # every roll worth the same
    flips = [tuple(s) for s in tied if np.argmax(clean.action_values[tuple(s)][1:]) !=
             np.argmax(noisy.action_values[tuple(s)][1:])]
    assert flips, "the noise should reorder exactly tied rolls"
    assert np.array_equal(clean.policy, noisy.policy)  # the tie rule does not follow it


def ulps(array: np.ndarray, rng: np.random.Generator, most: int = 4) -> np.ndarray:
    """``array`` moved by up to ``most`` units in the last place, as a machine's summation order would."""
    return array + rng.integers(-most, most + 1, size=array.shape) * np.spacing(array)


@pytest.mark.parametrize("name", ["hog", "sp22", pytest.param("fa19", marks=pytest.mark.slow)])
def test_rounding_noise_moves_no_bound(name):
    """Values a few ulps apart (another machine's) give the same certificate bounds and the
    same proof, as printed: an iterated sum's residual, or a fresh backup's, is charged a
    whole rounding step."""
    from hogsolve.solver.iteration import IterationResult
    from hogsolve.solver.kinds import backup_all
    from hogsolve.solver.certificate import certify
    from hogsolve.util.stable import bound_text
    rules = get_rules(name).replace(endless="draw") if name == "sp22" else get_rules(name)
    model = compile_model(rules)
    solution = optimal.solve(rules, model=model)
    rng = np.random.default_rng(0)
    printed = []
    for values in (solution.values, np.clip(ulps(solution.values, rng), 0, 1)):
        check = check_hog_policy(model, values, solution.policy)
        assert check.proven
        printed.append((repr(check).split(" (smallest")[0], check.settled, check.ties))
        if not model.progressive:  # iterated: the certificate of the values as the solver would measure them
            c = certify(model, values, backup_all(model, values), IterationResult(0))
            printed.append((bound_text(c.error_bound), bound_text(c.tie_threshold)))
    half = len(printed) // 2
    assert printed[:half] == printed[half:]


def test_rounding_noise_moves_no_pig_bound():
    from hogsolve.solver.pig import solve_pig
    game = get_pig_game("piglet")
    solution = solve_pig(game)
    rng = np.random.default_rng(0)
    checks = [check_pig_policy(game, v, solution.policy) for v in (solution.values, ulps(solution.values, rng))]
    assert all(c.proven for c in checks)
    assert repr(checks[0]).split(" (smallest")[0] == repr(checks[1]).split(" (smallest")[0]
