"""hogsolve play: a person against the bot, scripted."""
from cli_helpers import run_main
from hogsolve import get_rules
from hogsolve.sessions.hog_terminal import play_terminal


def scripted(answers):
    answers = iter(answers)
    prompts, lines = [], []

    def read(prompt):
        prompts.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None
    return read, prompts, lines


def test_bad_input_reprompts_and_hint_shows():
    read, prompts, lines = scripted(["abc", "11", "-1", "", "²", "①", "h", "3"])
    play_terminal(get_rules("su18"), seed=4, read=read, write=lines.append)
    text = "\n".join(lines)
    assert text.count("Please enter a whole number from 0 to 10") == 6
    assert "Hint: the optimal move is 10 dice" in text
    assert "   0 dice: " in text and " 10 dice: " in text
    assert "You rolled 3 dice" in text
    assert "Quit. Score so far: You" in text  # answers ran out: Ctrl-D


def test_whole_game_to_the_end():
    read, prompts, lines = scripted(["5"] * 200)
    record = play_terminal(get_rules("fa13"), you_first=False, seed=2, read=read, write=lines.append)
    assert record["winner"] in ("you", "bot") and max(record["scores"].values()) >= 100
    assert record["turns"][0]["mover"] == 1 and record["turns"][1]["num_dice"] == 5
    text = "\n".join(lines)
    assert "Bot rolls" in text and "its win probability" in text
    assert lines[-1].startswith(("\nYou win", "\nThe bot wins"))
    assert "Hog Wild: 4-sided dice" in text  # 0 + 0 is a multiple of 7


def test_ctrl_c_quits_cleanly():
    lines = []

    def read(prompt):
        raise KeyboardInterrupt
    assert play_terminal(get_rules("su18"), read=read, write=lines.append)["winner"] is None
    assert "Quit. Score so far: You 0, Bot 0." in lines[-1]


def test_command_line_session():
    out = run_main("play", "--seed", "1", "--rules", "fa18", stdin="h\n4\n")
    assert out.returncode == 0 and out.stderr == ""
    assert "Hint: the optimal move is 9 dice" in out.stdout
    assert "You rolled 4 dice" in out.stdout and "Quit. Score so far" in out.stdout


def test_json_record():
    out = run_main("play", "--seed", "1", "--json", stdin="2\n")
    import json
    record = json.loads(out.stdout)
    assert out.returncode == 0 and record["turns"][0]["num_dice"] == 2 and record["winner"] is None
    assert "You rolled 2 dice" in out.stderr


def test_feral_hogs_game_in_the_terminal():
    """A fa19 game: the bot reads both players' memories, and a Feral Hogs bonus is worded."""
    import io
    from hogsolve import get_rules
    from hogsolve.sessions.hog_terminal import play_terminal
    out = io.StringIO()
    answers = iter(["2"] * 200)
    rules = get_rules("fa19")
    record = play_terminal(rules, seed=4, read=lambda prompt: next(answers), write=out.write)
    text = out.getvalue()
    assert "[Feral Hogs: +3 points]" in text  # rolling 2 dice at the start (memory 0) earns it
    assert record["winner"] in ("you", "bot") and "wins" in text
    # every bot move is the optimal table's entry at the scores *and* both memories (fa19: dice)
    from hogsolve import solve
    policy = solve(rules).policy
    memory = {"you": 0, "bot": 0}
    for turn in record["turns"]:
        me = turn["player"]
        if me == "bot":
            assert turn["num_dice"] == policy[turn["score"], turn["opponent_score"], memory["bot"], memory["you"]]
        memory[me] = turn["num_dice"]
