"""The layer order declared in hogsolve/layers.py holds for every import, with no cycles."""
import ast
from pathlib import Path

from hogsolve.layers import LAYERS, layer_of

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hogsolve"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_file(name: str):
    base = ROOT / Path(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def imports(path: Path):
    """Every hogsolve module ``path`` imports, anywhere in the file (functions included; not the
    annotation-only imports under ``if TYPE_CHECKING``, which never run)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    tree = ast.parse(path.read_text())
    for block in [n for n in ast.walk(tree) if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"]:
        block.body = []  # annotations only: never imported when the code runs
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("hogsolve"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if module_file(sub) else target)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("hogsolve")}
    return found - {name}


def place(module: str) -> str:
    """The layer entry a module belongs to: its package below hogsolve, or its own name."""
    parts = module.split(".")
    if module == "hogsolve":
        return "__init__"
    return parts[1]


def modules():
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def test_every_package_and_top_module_has_a_layer():
    listed = {n for names in LAYERS for n in names}
    present = {place(m) for m in modules()}
    assert present <= listed, present - listed
    assert listed <= present, listed - present


def test_imports_only_point_down():
    wrong = []
    for name, path in modules().items():
        for target in sorted(imports(path)):
            assert module_file(target) is not None, f"{name} imports unknown {target}"
            a, b = place(name), place(target)
            if a == b:
                continue
            if layer_of(b) >= layer_of(a):
                wrong.append(f"{name} ({a}, layer {layer_of(a)}) -> {target} ({b}, layer {layer_of(b)})")
    assert wrong == []


def test_no_import_cycles_inside_a_package():
    graph = {name: {t for t in imports(path) if module_file(t) is not None} for name, path in modules().items()}
    state = {}

    def visit(node, trail):
        if state.get(node) == "done":
            return
        assert state.get(node) != "open", "cycle: " + " -> ".join(trail + [node])
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if nxt != "hogsolve":  # the package itself only re-exports lazily
                visit(nxt, trail + [node])
        state[node] = "done"
    for node in sorted(graph):
        visit(node, [])


def test_at_most_eight_top_level_modules():
    assert len(list(PACKAGE.glob("*.py"))) <= 8


def test_game_packages_hold_game_logic_only():
    """hog/, pig/, sibala/ and sinbad/ import nothing above the game interface (and the root of the errors)."""
    for name, path in modules().items():
        if place(name) in ("hog", "pig", "sibala", "sinbad"):
            assert {place(t) for t in imports(path)} <= {place(name), "util", "games", "version", "errors"}, name


def test_the_engine_depends_on_the_rules_and_the_interface_only():
    assert imports(PACKAGE / "hog" / "engine.py") <= {"hogsolve.hog.rules", "hogsolve.hog.dice", "hogsolve.errors",
                                                   "hogsolve.util.words"}  # a leaf: counted words


#: Classes whose methods implement an abstract class's documented methods: an override is
#: documented by the method it implements (as the API docs show it).
IMPLEMENTATIONS = {"HogFamily", "RollOrHoldFamily"}


def test_every_public_function_and_class_has_a_docstring():
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                members = [node] + [m for m in getattr(node, "body", []) if isinstance(node, ast.ClassDef)
                                    and isinstance(m, ast.FunctionDef) and not m.name.startswith("_")]
                missing += [f"{path.relative_to(ROOT)}:{m.name}" for m in members if not ast.get_docstring(m)]
    from hogsolve.families import GameFamily
    inherited = {f"hogsolve/families/{module}.py:{name}" for module in ("hog", "roll_or_hold")
                 for name, member in vars(GameFamily).items() if callable(member) and member.__doc__}
    assert [m for m in missing if m not in inherited] == []


def test_every_family_is_one_typed_class_that_owns_its_names():
    """The mistake it catches: a family that is a record of strings to import (the old facade)
    or misses a hook (an abstract method left out fails to instantiate)."""
    from hogsolve.families import FAMILIES, GameFamily, family_of
    for family in FAMILIES.values():
        assert isinstance(family, GameFamily) and not getattr(type(family), "__abstractmethods__", None)
        assert all(family_of(n) is family for n in family.names())
        assert family.is_game(family.game(family.default_game, None))
    assert family_of(None).name == family_of("rules.toml").name == family_of("sp23").name == "hog"
    assert family_of("two-dice-pig").name == "roll-or-hold"


def test_game_facts_live_on_the_game_not_in_switches():
    """Outside the registry and the game packages no module asks which family a game is: the
    number of actions, observations, decision states and tables are the game's own."""
    import re
    allowed = set((PACKAGE / "families").glob("*.py")) | set((PACKAGE / "hog").glob("*.py")) | \
        set((PACKAGE / "pig").glob("*.py"))
    switch = re.compile(r"\bis_hog\b|isinstance\([^)]*\bPigGame\)"
                        r"|family(?:_name|\.name)? [!=]= \"(?:hog|roll-or-hold)\"")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted(PACKAGE.rglob("*.py")) if path not in allowed
             for n, line in enumerate(path.read_text().splitlines(), 1) if switch.search(line)]
    assert found == []


def test_each_family_starts_a_game_the_same_way():
    """``new_state(game, first=...)`` means the same for every family (it once meant "start at
    score 1" for Hog and "player 1 starts" for Pig)."""
    from hogsolve.families import HOG, ROLL_OR_HOLD
    for family, name in ((HOG, "su18"), (ROLL_OR_HOLD, "piglet")):
        game = family.game(name, None)
        for first in (0, 1):
            state = family.new_state(game, first=first)
            assert state.current_player == first and not state.is_terminal()
            assert state.observation(0)["score"] == state.observation(1)["score"] == 0


def test_no_dispatch_on_a_family_name_outside_the_families():
    """The mistake it catches: a dict keyed by family names or a comparison with one (``{"hog":
    ..., "roll-or-hold": ...}``, ``family == "hog"``) in a layer that should ask the family.
    SinbadHogBot's "hog" is a word said in its chat room, not a family."""
    import re
    own = {"families", "hog", "pig", "sinbad"}
    name = r'"(?:hog|roll-or-hold)"'
    dispatch = re.compile(rf'[{{,]\s*{name}\s*:|[!=]=\s*{name}|{name}\s*[!=]=|in \({name}')
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted(PACKAGE.rglob("*.py"))
             if path.relative_to(PACKAGE).parts[0] not in own
             for n, line in enumerate(path.read_text().splitlines(), 1) if dispatch.search(line)]
    assert found == []


def test_no_verb_asks_which_family():
    """Verbs call the game's family (cli.common.game_of); none tests a name
    against one family's games itself (the rules catalogue and the help text only list them)."""
    import re
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        text = path.read_text()
        assert not re.search(r"is_pig|if [^\n]* in PIG_GAMES|isinstance\([^)]*PigGame", text), path
