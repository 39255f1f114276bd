"""Play the optimal bot at a terminal: the loop behind ``hogsolve play``.

The game itself is a :class:`~hogsolve.sessions.hog.Session`, the same one the
browser game uses; this module only asks and writes.  Input and output are
injectable so that tests can script a whole game.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from ..hog.engine import Turn
from ..strategy.optimal_bot import optimal_strategy
from ..hog.rules import Ruleset
from ..util.words import plural
from .hog import Session

NAMES = {"you": "You", "bot": "Bot"}
PROMPT = "Your move: how many dice ({least}-{max}), h for a hint, q to quit? "


def event_words(event: Dict[str, object]) -> str:
    """A rule event (see :meth:`hogsolve.hog.engine.Turn.events`) in words: the engine's own."""
    return str(event["text"])


def describe_turn(turn: Turn, who: str) -> str:
    """One line: who rolled what, the points, and any rule events."""
    if turn.free_bacon:
        what = f"{who} rolled 0 dice"
    else:
        faces = " ".join(str(x) for x in turn.outcomes)
        what = f"{who} rolled {plural(turn.num_dice, 'die')}: {faces}"
    events = [event_words(e) for e in turn.events()]
    tail = f" [{'; '.join(events)}]" if events else ""
    return f"{what} -> {plural(turn.points, 'point')}{tail}"


def hint_lines(hint: Dict[str, Any]) -> list:
    """The hint of :meth:`Session.hint` as lines of text."""
    best, values = hint["best"], hint["values"]
    if hint.get("proven", True):
        lines = [f"Hint: the optimal move is {best} dice (win probability {values[best]:.4f})"]
        mark = ""
    else:  # one rule for unproven figures: each marked beside it
        lines = [f"Hint: the best move by the unproven table is {best} dice (win probability {values[best]:.4f}, "
                 "not proven)"]
        mark = "  (not proven)"
    lines += [f"  {n:2d} dice: {v:.4f}{'  <- best' if n == best else ''}{mark}" for n, v in enumerate(values)]
    return lines


def play_terminal(rules: Ruleset, *, you_first: bool = True, seed: Optional[int] = None,
                  read: Callable[[str], str] = input, write: Callable[[str], None] = print, bot=None) -> dict:
    """A person (player "You") against the optimal bot until someone wins or quits.

    Returns the game record of :meth:`Session.record`: scores, winner ("you",
    "bot", or None if the person quit) and the turn log.  ``bot`` defaults to the ruleset's
    proven optimal strategy.
    """
    session = Session(rules, bot or optimal_strategy(rules), you_first, seed)

    def score_line():
        return f"You {session.scores['you']}, Bot {session.scores['bot']}"

    write(f"Hog ({rules.name}), first to {rules.goal}. {rules.description}")
    try:
        while session.winner is None and session.to_move is not None:
            who = NAMES[session.to_move]
            write(f"\nScore: {score_line()}. {who} to move.")
            if session.to_move == "you":
                turn = session.play(ask_dice(session, read, write))
            else:
                n = session.bot_move_choice()
                proven = "" if getattr(session.bot, "proven", True) else ", not proven"
                write(f"Bot rolls {n} dice (its win probability {session.bot_win_probability(n):.4f}{proven})")
                turn = session.bot_move()
            write(describe_turn(turn, who))
    except (EOFError, KeyboardInterrupt):
        write(f"\nQuit. Score so far: {score_line()}.")
        return session.record()
    write(f"\n{'You win' if session.winner == 'you' else 'The bot wins'}: {score_line()}.")
    return session.record()


def ask_dice(session: Session, read, write) -> int:
    """Prompt until the person enters a valid dice count; h shows a hint."""
    least, most = session.rules.min_dice, session.rules.max_dice
    while True:
        answer = read(PROMPT.format(least=least, max=most)).strip().lower()
        if answer == "h":
            hint = session.hint()  # always one on the person's turn
            for line in hint_lines(hint) if hint else []:
                write(line)
            continue
        if answer == "q":
            raise EOFError
        if answer.isascii() and answer.isdecimal() and least <= int(answer) <= most:
            return int(answer)
        write(f"Please enter a whole number from {least} to {most}, h or q (got {answer!r}).")
