"""Contests: round robins of strategies, student entries and their results file, sweeps over grids of rulesets."""
