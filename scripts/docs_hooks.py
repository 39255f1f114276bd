"""MkDocs hooks: the reference pages that are generated from the code, so they cannot drift.

A page that holds ``<!-- generated: cli -->`` gets every verb and option of the
command line, read from its argument parser; ``<!-- generated: rulesets -->``
gets every built-in ruleset with its semesters, rules and inferences, read from
``hogsolve.hog.rules``; ``<!-- generated: api -->`` gets an API entry for every
name the package exports.  Run by ``mkdocs build`` (``hooks:`` in mkdocs.yml);
``python scripts/docs_hooks.py cli|rulesets`` prints a page's generated part.
"""
from __future__ import annotations

import argparse
import sys

MARKERS = {"<!-- generated: cli -->": "cli_reference", "<!-- generated: rulesets -->": "rulesets_reference",
           "<!-- generated: api -->": "api_reference", "<!-- generated: rule-files -->": "rule_file_reference"}


def _options(parser: argparse.ArgumentParser) -> list:
    """Markdown rows of a parser's options and positional arguments."""
    rows = []
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)) or action.help == argparse.SUPPRESS:
            continue
        if action.option_strings:
            takes = action.nargs != 0
            name = ", ".join(f"`{o}{' ' + (action.metavar or action.dest.upper()) if takes else ''}`"
                             for o in action.option_strings)
        else:
            name = f"`{action.metavar or action.dest}`"
        help_text = (action.help or "").replace("%(default)s", str(action.default)).replace("|", "\\|")
        if action.choices and not isinstance(action.choices, dict):
            help_text += f" (one of: {', '.join(f'`{c}`' for c in action.choices)})"
        rows.append(f"| {name} | {help_text} |")
    return rows


def _parser_markdown(parser: argparse.ArgumentParser, title: str, depth: int) -> list:
    """One verb (and its own sub-verbs, one level down) as Markdown."""
    lines = [f"{'#' * depth} `{title}`", "", parser.description or "", "", "```", parser.format_usage().strip(), "```",
             ""]
    rows = _options(parser)
    if rows:
        lines += ["| argument | what it does |", "| --- | --- |", *rows, ""]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                lines += _parser_markdown(sub, f"{title} {name}", depth + 1)
    return lines


def cli_reference() -> str:
    """Every verb of ``hogsolve``, its usage and every option, from the parser itself (this
    machine's folders, which some help texts name, written as a reader's would be)."""
    from hogsolve.cli import VERBS, build_parser
    from hogsolve.strategy.optimal_bot import cache_root, shipped_tables
    lines = []
    for verb in VERBS:
        parser = build_parser(verb)
        verbs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        lines += _parser_markdown(verbs.choices[verb], f"hogsolve {verb}", 2)
    text = "\n".join(lines)
    return text.replace(str(cache_root()), "~/.cache/hogsolve").replace(str(shipped_tables()), "solutions")


def rulesets_reference() -> str:
    """Every built-in ruleset: semesters, the rules in words, what rests on inference, and
    whether the game has a value."""
    from hogsolve.hog.rules import INFERRED, NO_VALUE, rulesets, semesters
    lines = []
    for name, rules in rulesets().items():
        lines += [f"## `{name}`", "", f"Semesters: {', '.join(semesters(name))}. Goal {rules.goal}, at most "
                  f"{rules.max_dice} dice.", "",
                  rules.description, ""]
        if name in INFERRED:
            lines += [f"Inferred: {INFERRED[name]}.", ""]
        if name in NO_VALUE:
            lines += [f"No optimal value: {NO_VALUE[name]}.", ""]
        lines += [f"`hogsolve rules --show {name}` prints its components; `--toml` writes them as a rule file.", ""]
    return "\n".join(lines)


def _summary(component) -> str:
    """The first sentence of a component's docstring (or its repr), on one line."""
    doc = " ".join((getattr(component, "__doc__", None) or repr(component)).split())
    return doc.split(". ")[0].rstrip(".").replace("|", "\\|")


def rule_file_reference() -> str:
    """Every key a rule file may hold, and for each rule every component it may name."""
    from hogsolve.hog import rulefile
    lines = ["| key | value |", "| --- | --- |"]
    lines += [f"| `{key}` | text{' (required)' if key == 'name' else ''} |" for key in rulefile.TEXT_FIELDS]
    lines += [f"| `{key}` | a whole number |" for key in rulefile.INT_FIELDS]
    lines += [f"| `{key}` | true or false |" for key in rulefile.BOOL_FIELDS]
    for key in {**rulefile.COMPONENTS, **rulefile.OPTIONAL}:
        optional = " (optional: absent means none)" if key in rulefile.OPTIONAL else ""
        required = " (required)" if key == "free_bacon" else ""
        lines.append(f"| `{key}` | one of the components below{required}{optional} |")
    from hogsolve.hog.rules import RULE_NAMES
    kinds = ", ".join(f"`{kind}`" for kind in RULE_NAMES)
    lines.append(f"| `names` | a table of a rule kind ({kinds}) to the name the game logs show (optional) |")
    for key, names in {**rulefile.COMPONENTS, **rulefile.OPTIONAL}.items():
        lines += ["", f"### `{key}`", ""] + [f"- `{name}`: {_summary(component)}" for name, component in names.items()]
    return "\n".join(lines)


def api_reference() -> str:
    """One mkdocstrings entry for every name ``hogsolve/__init__.py`` exports, by module."""
    from hogsolve import _EXPORTS
    lines, module = [], None
    for name, where in sorted(_EXPORTS.items(), key=lambda item: (item[1], item[0])):
        if where != module:
            module = where
            lines += [f"## `hogsolve.{module}`", ""]
        lines += [f"::: hogsolve.{where}.{name}", "    options:", "      show_root_full_path: false", ""]
    return "\n".join(lines)


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Replace each marker with its generated Markdown."""
    for marker, function in MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, globals()[function]())
    return markdown


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "cli"
    print(cli_reference() if which == "cli" else rulesets_reference())
