"""Play the optimal bot at a terminal: the loop behind ``hogsolve play``.

Turn ``mover`` 0 is the person, 1 the bot.

Input and output are injectable so that tests can script a whole game.
"""
from __future__ import annotations

from typing import Callable, Optional

from .game import Match, Turn, random_dice
from .player import optimal_strategy
from .rules import Ruleset

NAMES = ("You", "Bot")  # players 0 and 1
PROMPT = "Your move: how many dice (0-{max}), h for a hint, q to quit? "


def describe_turn(turn: Turn, who: str) -> str:
    """One line: who rolled what, the points, and any rule events."""
    if turn.free_bacon:
        what = f"{who} rolled 0 dice"
    else:
        faces = " ".join(str(x) for x in turn.outcomes)
        what = f"{who} rolled {turn.num_dice} {'die' if turn.num_dice == 1 else 'dice'}: {faces}"
    events = turn.events()
    tail = f" [{'; '.join(events)}]" if events else ""
    return f"{what} -> {turn.points} point{'s' if turn.points != 1 else ''}{tail}"


def hint_lines(bot, score: int, opponent_score: int) -> list:
    values = bot.action_values[score, opponent_score]
    best = bot(score, opponent_score)
    lines = [f"Hint: the optimal move is {best} dice (win probability {values[best]:.4f})"]
    lines += [f"  {n:2d} dice: {v:.4f}{'  <- best' if n == best else ''}" for n, v in enumerate(values)]
    return lines


def play_terminal(rules: Ruleset, *, you_first: bool = True, seed: Optional[int] = None,
                  read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> dict:
    """A person (player "You") against the optimal bot until someone wins or quits.

    Returns the game record: final scores, winner (None if quit) and turn log.
    """
    bot = optimal_strategy(rules)
    roll = random_dice(seed)
    match = Match(rules, first=0 if you_first else 1)

    def record(winner):
        return {"rules": rules.name, "scores": dict(zip(NAMES, match.scores)), "winner": winner,
                "turns": [t.to_dict() for t in match.turns]}

    def score_line():
        return f"You {match.scores[0]}, Bot {match.scores[1]}"

    write(f"Hog ({rules.name}), first to {rules.goal}. {rules.description}")
    try:
        while match.winner is None:
            who, (me, opp) = NAMES[match.mover], match.state()
            write(f"\nScore: {score_line()}. {who} to move.")
            if who == "You":
                n = ask_dice(rules, bot, me, opp, read, write)
            else:
                n = bot(me, opp)
                write(f"Bot rolls {n} dice (its win probability {bot.action_values[me, opp][n]:.4f})")
            write(describe_turn(match.move(n, roll), who))
    except (EOFError, KeyboardInterrupt):
        write(f"\nQuit. Score so far: {score_line()}.")
        return record(None)
    winner = NAMES[match.winner]
    write(f"\n{'You win' if winner == 'You' else 'The bot wins'}: {score_line()}.")
    return record(winner)


def ask_dice(rules: Ruleset, bot, score: int, opponent_score: int, read, write) -> int:
    """Prompt until the person enters a valid dice count; h shows a hint."""
    while True:
        answer = read(PROMPT.format(max=rules.max_dice)).strip().lower()
        if answer == "h":
            for line in hint_lines(bot, score, opponent_score):
                write(line)
            continue
        if answer == "q":
            raise EOFError
        if answer.isascii() and answer.isdecimal() and int(answer) <= rules.max_dice:
            return int(answer)
        write(f"Please enter a whole number from 0 to {rules.max_dice}, h or q (got {answer!r}).")
