"""Print the README's table of built-in rulesets from the shipped tables.

    python scripts/semester_table.py

Columns: the semesters, the rules in a line, P(first player wins) under
optimal play, the opening move, and the exact CS 61A win rate of the optimal
strategy against always rolling four.
"""
from hogsolve import always_roll, optimal_strategy, win_rate
from hogsolve.rules import rulesets, semesters


def main() -> None:
    print("| semesters | rules | P(first player wins) | opening move | optimal vs `always_roll:4` |")
    print("| --- | --- | --- | --- | --- |")
    for name, rules in rulesets().items():
        bot = optimal_strategy(rules)
        rate = win_rate(bot, always_roll(4), rules).average
        words = rules.description.split(": ", 1)[1].replace("|", "\\|")
        print(f"| {', '.join(semesters(name))} | {words} | {bot.win_probability[0, 0]:.6f} | "
              f"{int(bot.table[0, 0])} | {rate:.4f} |")


if __name__ == "__main__":
    main()
