"""The layering documented in the README's Layout holds for every import, and lists every module."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hogsolve"


def documented_layers():
    """{file path relative to the repository: layer number} from the README's Layout block."""
    text = (ROOT / "README.md").read_text()
    block = text[text.index("## Layout"):].split("```")[1]
    layers, current = {}, None
    for line in block.splitlines():
        header = re.match(r"^layer (\d+)", line)
        if header:
            current = int(header.group(1))
            continue
        entry = re.match(r"^\s+(hogsolve/\S+\.py)\s", line)
        if entry:
            assert entry.group(1) not in layers, f"{entry.group(1)} listed twice"
            layers[entry.group(1)] = current
    return layers


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_file(name: str):
    base = ROOT / Path(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate.relative_to(ROOT).as_posix()
    return None


def imports(path: Path):
    """Every hogsolve module ``path`` imports, anywhere in the file (functions included)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
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


def test_every_module_is_in_the_layout():
    files = {p.relative_to(ROOT).as_posix() for p in PACKAGE.rglob("*.py")}
    assert set(documented_layers()) == files


def test_imports_only_point_down():
    layers = documented_layers()
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.relative_to(ROOT).as_posix()
        for target in sorted(imports(path)):
            target_file = module_file(target)
            assert target_file is not None, f"{source} imports unknown {target}"
            if layers[target_file] >= layers[source]:
                wrong.append(f"{source} (layer {layers[source]}) -> {target_file} (layer {layers[target_file]})")
    assert wrong == []


def test_the_engine_depends_on_the_rules_only():
    assert imports(PACKAGE / "game.py") == {"hogsolve.rules"}


def test_every_public_function_and_class_has_a_docstring():
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                members = [node] + [m for m in getattr(node, "body", []) if isinstance(node, ast.ClassDef)
                                    and isinstance(m, ast.FunctionDef) and not m.name.startswith("_")]
                missing += [f"{path.relative_to(ROOT)}:{m.name}" for m in members if not ast.get_docstring(m)]
    assert missing == []
