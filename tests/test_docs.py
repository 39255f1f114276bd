"""The README and every docs page stay true: their Python examples pass as doctests, their
command examples print what the page says (tests/docs_examples.py), and the site's
generated reference covers every verb and every public name."""
import doctest
import importlib.util
import subprocess
import sys

import pytest

from docs_examples import PAGES, ROOT, blocks, run_page, unexplained_skips

DOC_PAGES = [p for p in PAGES if p.name != "README.md"]


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "scripts" / "docs_hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("page", [p for p in DOC_PAGES if ">>> " in p.read_text()], ids=lambda p: p.name)
def test_python_examples_pass_as_doctests(page):
    """`python -m doctest -o ELLIPSIS PAGE`, from the repository root, as a reader would run it."""
    assert doctest.DocTestParser().get_examples(page.read_text())
    result = subprocess.run([sys.executable, "-m", "doctest", "-o", "ELLIPSIS", str(page)],
                            capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert result.returncode == 0, result.stdout[-3000:]


def _command_pages():
    return [p for p in PAGES if any(b.is_commands for b in blocks(p))]


@pytest.mark.pin
@pytest.mark.parametrize("page", _command_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_command_examples_print_what_the_page_says(page, tmp_path):
    problems = run_page(page, tmp_path, slow=False)
    assert not problems, "\n\n".join(map(str, problems))


@pytest.mark.slow
@pytest.mark.pin
@pytest.mark.parametrize("page",
                         [p for p in _command_pages() if any(b.annotation == ("run", "slow") for b in blocks(p))],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_slow_command_examples_print_what_the_page_says(page, tmp_path):
    problems = run_page(page, tmp_path, slow=True)
    assert not problems, "\n\n".join(map(str, problems))


def test_every_skipped_example_says_why():
    assert not unexplained_skips()


def test_the_reference_covers_every_verb_and_every_public_name():
    from hogsolve import _EXPORTS
    from hogsolve.cli import VERBS
    hooks = _hooks()
    cli = hooks.cli_reference()
    for verb in VERBS:
        assert f"## `hogsolve {verb}`" in cli
    assert "`hogsolve sinbad serve`" in cli and "--strategy-timeout" in cli
    api = hooks.api_reference()
    for name, module in _EXPORTS.items():
        assert f"::: hogsolve.{module}.{name}" in api
    rules = hooks.rulesets_reference()
    from hogsolve import rulesets
    for name in rulesets():
        assert f"## `{name}`" in rules
    assert "sp14" in rules and "No optimal value" in rules
    from hogsolve.hog import rulefile
    files = hooks.rule_file_reference()
    for key in rulefile.KEYS:
        assert f"| `{key}` |" in files
    for names in {**rulefile.COMPONENTS, **rulefile.OPTIONAL}.values():
        assert all(f"- `{name}`: " in files for name in names)


def test_docstrings_keep_one_style():
    """The API pages read docstrings as numpydoc (mkdocs.yml): sections are underlined
    (``Parameters`` / ``----------``), never Google's ``Args:``, which would render as prose."""
    import re
    google = re.compile(r'^\s+(Args|Arguments|Returns|Raises|Yields|Attributes|Examples):\s*$', re.M)
    offenders = [str(path.relative_to(ROOT)) for path in (ROOT / "hogsolve").rglob("*.py")
                 if google.search(path.read_text())]
    assert not offenders
    assert "docstring_style: numpy" in (ROOT / "mkdocs.yml").read_text()


def test_the_architecture_page_lists_every_package():
    """docs/architecture.md's layout names every package of hogsolve/ (a new one must be placed)."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    packages = [p.name for p in (ROOT / "hogsolve").iterdir() if (p / "__init__.py").exists()]
    assert packages and all(f"{name}/" in text for name in packages), packages


def test_every_module_with_a_doctest_is_collected():
    """pytest looks for doctests only under the packages in pyproject.toml's testpaths: a module
    elsewhere with a doctest would silently never run it."""
    import tomllib
    paths = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["testpaths"]
    with_doctests = [path.relative_to(ROOT) for path in (ROOT / "hogsolve").rglob("*.py") if ">>> " in path.read_text()]
    assert with_doctests
    for module in with_doctests:
        assert any(str(module).startswith(p + "/") or str(module) == p for p in paths), module


def test_the_apps_route_list_in_its_docstring_is_its_routes(tmp_path):
    """Every route of the Starlette app is named in hogsolve/gui/app.py's docstring, and every
    path the docstring names is a route (PAGES' paths included; the lab's, as under hogsolve lab)."""
    import re
    from starlette.routing import Mount
    import hogsolve.gui.app as app_module
    from hogsolve import get_rules
    from hogsolve.gui.guard import Access
    from hogsolve.gui.lab import Lab
    (tmp_path / "s.py").write_text("def final_strategy(score, opponent_score):\n    return 4\n")
    lab = Lab(str(tmp_path / "s.py"), "final_strategy", get_rules("su18"))
    routes = app_module.create_app(Access(("127.0.0.1:8000",)), lab=lab).app.routes
    paths = ({r.path for r in routes if not isinstance(r, Mount)}
             | {r.path + "/..." for r in routes if isinstance(r, Mount)})
    doc = app_module.__doc__
    spelled = {p.replace("{id:str}", "ID").replace("{name}", "NAME").replace("{room:str}", "ROOM")
               .replace("{room}", "ROOM")
               for p in paths}
    named = set(re.findall(r"``(?:GET|POST|WS)?\s*(/[^`\[\s]*)", doc)) | set(re.findall(r"``(/[^`\s\[]*)``", doc))
    missing = sorted(p for p in spelled if p not in named)
    assert missing == [], missing
    extra = sorted(p for p in named if p not in spelled)
    assert extra == [], extra
