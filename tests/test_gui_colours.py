"""The page's colours, checked as people with red-green colour blindness see them.

Each colour is simulated under deuteranopia and protanopia (Machado, Oliveira and
Fernandes 2009, severity 1) and compared in CIELAB: two dice counts must stay 10 or
more apart (CIE76), where 2.3 is a just-noticeable difference.  The best-move ring
must have a 3:1 contrast (WCAG 1.4.11) against what surrounds it.
"""
import itertools
import re
from pathlib import Path

import numpy as np

STATIC = Path(__file__).resolve().parents[1] / "hogsolve" / "gui" / "static"
MACHADO = {
    "normal": np.eye(3),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
}
#: The palette the page used before (ColorBrewer "Paired"): two pairs nearly merge.
OLD_DICE = ["#1d2430", "#a6cee3", "#1f78b4", "#b2df8a", "#33a02c", "#fb9a99",
            "#e31a1c", "#fdbf6f", "#ff7f00", "#cab2d6", "#6a3d9a"]


def rgb(hex_colour):
    return np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255


def linear(c):
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(linear_rgb):
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ \
        np.clip(linear_rgb, 0, 1)
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def closest_pair(colours, vision):
    seen = [lab(MACHADO[vision] @ linear(rgb(c))) for c in colours]
    return min(np.linalg.norm(a - b) for a, b in itertools.combinations(seen, 2))


def luminance(hex_colour):
    return float(np.array([0.2126, 0.7152, 0.0722]) @ linear(rgb(hex_colour)))


def contrast(a, b):
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def js_list(name):
    text = (STATIC / "common.js").read_text()
    body = re.search(rf"const {name} = \[(.*?)\];", text, re.S).group(1)
    return re.findall(r'"(#[0-9a-f]{6})"', body)


def test_every_pair_of_dice_colours_stays_apart_in_every_vision():
    dice = js_list("DICE_COLOURS")
    assert len(dice) == 11
    for vision in MACHADO:
        assert closest_pair(dice, vision) >= 10, vision
    # the old palette fails the same check: the test would have caught it
    assert closest_pair(OLD_DICE, "deuteranopia") < 5 and closest_pair(OLD_DICE, "protanopia") < 5


def test_win_probability_stops_stay_apart_in_every_vision():
    stops = js_list("SURFACE_STOPS")
    for vision in MACHADO:
        seen = [lab(MACHADO[vision] @ linear(rgb(c))) for c in stops]
        assert min(np.linalg.norm(a - b) for a, b in zip(seen, seen[1:])) >= 10, vision


def test_the_best_move_ring_has_3_to_1_contrast_and_a_word():
    css = (STATIC / "style.css").read_text()
    rule = re.search(r"\.dice-button\.best \{ box-shadow: 0 0 0 3px (#[0-9a-f]{6}), 0 0 0 6px (#[0-9a-f]{6}); \}", css)
    gap, ring = rule.groups()
    page = re.search(r"--bg: (#[0-9a-f]{6})", css).group(1)
    button = re.search(r"--you: (#[0-9a-f]{6})", css).group(1)
    assert contrast(ring, page) >= 3 and contrast(ring, gap) >= 3 and contrast(gap, button) >= 3
    assert contrast("#fbbf24", page) < 3  # the old yellow ring (1.6:1)
    assert '.dice-button.best::after { content: " ★"; }' in css  # not colour alone
