"""Hog's rules: each rule component once, the semester catalogue, rule files, exact dice counts, the turn engine
and its game state."""
