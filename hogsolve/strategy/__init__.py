"""Strategies: the one validated Policy table, named strategies, the spec language, user files run
in a child process, and the optimal bot."""
