"""Exact evaluation of strategies (win rates, best response, regret), Monte Carlo, and the pictures of a solution."""
