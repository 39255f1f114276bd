"""The README's Python examples run and print what the README says."""
import doctest
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
#: Debian and Ubuntu refuse a system-wide pip install: each command makes its virtual environment first.
VENV = "python3 -m venv .venv && . .venv/bin/activate"


def test_readme_opens_with_the_two_commands():
    lines = README.read_text().splitlines()
    assert lines[0] == "```"
    assert lines[1].startswith(VENV + " && python3 -m pip install") and "hogsolve solve --all" in lines[1]
    assert lines[2].startswith(VENV + " && python3 -m pip install") and "pytest" in lines[2]
    assert lines[3] == "```"


def test_readme_doctest_as_written():
    """`python -m doctest -o ELLIPSIS README.md` passes, exactly as a reader would run it (the
    README's examples run once, here)."""
    import subprocess
    import sys
    examples = doctest.DocTestParser().get_examples(README.read_text())
    assert len(examples) >= 8
    result = subprocess.run([sys.executable, "-m", "doctest", "-o", "ELLIPSIS", str(README)],
                            capture_output=True, text=True, timeout=600, cwd=README.parent)
    assert result.returncode == 0, result.stdout[-3000:]


def test_readme_is_short_and_its_links_lead_somewhere():
    """At most 250 lines (the rest lives in docs/), and every relative link names a file that exists."""
    import re
    text = README.read_text()
    assert len(text.splitlines()) <= 250
    links = re.findall(r"\]\(([^)#]+)\)", text)
    local = [link for link in links if not link.startswith("http")]
    assert local and all((README.parent / link).exists() for link in local), local
