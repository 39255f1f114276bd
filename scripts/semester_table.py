"""Print the README's table of built-in rulesets from the shipped tables.

    python scripts/semester_table.py

Columns: the semesters, the rules in a line, P(first player wins) under
optimal play, the opening move, and the exact CS 61A win rate of the optimal
strategy against always rolling four.
"""
from hogsolve import always_roll, optimal_strategy, win_rate
from hogsolve.hog.rules import NO_VALUE, rulesets, semesters


def main() -> None:
    print("| semesters | rules | P(first player wins) | opening move | optimal vs `always_roll:4` |")
    print("| --- | --- | --- | --- | --- |")
    for name, rules in rulesets().items():
        words = rules.description.split(": ", 1)[1].replace("|", "\\|")
        if name in NO_VALUE:
            print(f"| {', '.join(semesters(name))} | {words} | no value: endless passing | - | - |")
            continue
        bot = optimal_strategy(rules)
        rate = win_rate(bot, always_roll(4), rules).average
        start = (0,) * bot.table.ndim  # (0, 0), and both memories 0 under Feral Hogs
        print(f"| {', '.join(semesters(name))} | {words} | {bot.win_probability[start]:.6f} | "
              f"{int(bot.table[start])} | {rate:.4f} |")


if __name__ == "__main__":
    main()
