"""A roll-or-hold game against the optimal bot at a terminal: the loop behind ``hogsolve play --rules pig``."""
from __future__ import annotations

from typing import Callable

from .pig import PigSession

SAID = {"bust": "the turn total is lost", "wipe": "double 1s: the turn total and the banked score are lost"}


def describe(entry: dict, who: str) -> str:
    """One roll or hold in words, e.g. ``Bot rolled 3: +3``."""
    if entry["action"] == "hold":
        return f"{who} held and banked {entry['banked']}"
    return f"{who} {entry['said']}: " + SAID.get(entry["outcome"], f"+{entry['amount']}")  # the game's words


def play_game(game, you_first: bool, seed, read: Callable[[str], str] = input,
              write: Callable[[str], None] = print, bot=None) -> dict:
    """A person against the optimal roll/hold player; returns the game's record (``winner``
    None when the person quit)."""
    from ..strategy.pig import pig_bot
    session = PigSession(game, bot or pig_bot(game), you_first, seed)
    write(f"{game.description}. First to {game.goal}.")
    try:
        return _play(session, read, write)
    except (EOFError, KeyboardInterrupt):  # end of input or Ctrl-C: the score so far, as Hog's game
        write("")
        write(f"Quit. Score so far: You {session.scores['you']}, Bot {session.scores['bot']}.")
        return session.record()


def _play(session: PigSession, read, write) -> dict:
    names = {"you": "You", "bot": "Bot"}
    while session.winner is None:
        if session.to_move == "bot":
            write(describe(session.bot_step(), "Bot"))
            continue
        you, them = session.scores["you"], session.scores["bot"]
        write(f"Score: You {you}, Bot {them}. Turn total {session.turn_total}.")
        while True:
            answer = read("r to roll, h to hold, ? for a hint, q to quit: ").strip().lower()
            if answer == "?":
                values = session.values()
                hold = values["hold"] if values["hold"] is not None else float("nan")
                write(f"  win probability: roll {values['roll']:.4f}, hold {hold:.4f}"
                      + ("" if session.turn_total > 0 else " (you must roll first)"))
                continue
            if answer in ("r", "h", "q"):
                break
            write("  please answer r, h, ? or q")
        if answer == "q":
            write(f"Quit. Score so far: You {you}, Bot {them}.")
            return session.record()
        if answer == "h" and session.turn_total == 0:
            write("  roll at least once before holding")
            continue
        write(describe(session.play("roll" if answer == "r" else "hold"), names["you"]))
    winner = "You" if session.winner == "you" else "The bot"
    write(f"{winner} won: You {session.scores['you']}, Bot {session.scores['bot']}.")
    return session.record()
