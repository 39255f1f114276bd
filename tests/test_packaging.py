"""The package list in pyproject.toml matches the tree, and the entry points work."""
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    on_disk = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "hogsolve").rglob("__init__.py")}
    assert listed == on_disk | {"hogsolve.solutions"}
    assert config["package-dir"]["hogsolve.solutions"] == "solutions"


def test_license_file_matches_the_declared_license():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_python_dash_m_hogsolve_is_the_command():
    result = subprocess.run([sys.executable, "-m", "hogsolve", "rules"], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0 and "su18" in result.stdout


def test_importing_the_cli_loads_no_verb():
    code = ("import sys, hogsolve.cli; "
            "print(sorted(m for m in sys.modules if m.startswith(('hogsolve.', 'numpy'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout
    loaded = eval(out)
    unwanted = ("hogsolve.sibala", "hogsolve.sinbad", "hogsolve.solver.optimal", "numpy")
    assert not any(m.startswith(unwanted) for m in loaded)
    assert "hogsolve.cli.common" in loaded


def test_hog_verbs_work_without_the_side_games(tmp_path):
    """A broken side game must not take the Hog commands down with it."""
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text(
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.startswith(('hogsolve.sibala', 'hogsolve.sinbad')):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n")
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    for args in (["--help"], ["solve", "--help"], ["compare", "optimal", "always_roll:4"]):
        result = subprocess.run([sys.executable, "-m", "hogsolve", *args], capture_output=True, text=True,
                                env=env, timeout=120)
        assert result.returncode == 0, result.stderr
    blocked = subprocess.run([sys.executable, "-m", "hogsolve", "sibala", "odds"], capture_output=True,
                             text=True, env=env, timeout=120)
    assert blocked.returncode != 0 and "blocked" in blocked.stderr
