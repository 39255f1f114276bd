"""Solving: a ruleset compiled to arrays, the backup, value iteration by score sum, the certificate, the exact
checks, solution tables; the Pig family's stage solver."""
