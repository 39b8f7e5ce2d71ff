"""Every ``solo-ops …`` command line in README.md and docs/guide.md names options the command
has (issue 28 item 7).

Each command line the documents show (in a code span or a code block) is run through the real
command line with ``--help`` appended: click parses every option before it answers ``--help``,
so an option the command does not have fails with "No such option" (exit 2), and nothing runs.
Placeholders stay as they are (``BOARD``, ``X,Y``); optional parts in brackets are kept;
alternatives (``los|distance|cover``, ``los / distance / cover``) are each checked; an option
named in passing (``combat shoot --rule``) gets a placeholder value.
"""

from __future__ import annotations

import itertools
import re
import shlex

import pytest
from click.testing import CliRunner

from solo_ops.cli import main
from tests.support.paths import ROOT

DOCUMENTS = (ROOT / "README.md", ROOT / "docs" / "guide.md")


def command_lines(text: str) -> list[str]:
    """The ``solo-ops …`` lines of a Markdown document: code spans and code block lines (a
    shell line's parts joined by ``&&`` each)."""
    found = [span for span in re.findall(r"`(solo-ops [^`]+)`", text)]
    block = False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            block = not block
            continue
        if block:
            for part in line.split("&&"):
                part = part.strip()
                if part.startswith("solo-ops "):
                    found.append(part)
    return found


def variants(line: str) -> list[list[str]]:
    """The argument lists a documented line stands for (see the module docstring)."""
    line = line.replace("\\|", "|")
    line = re.sub(r"\s#.*$", "", line)  # a shell comment
    line = re.sub(r"\[([^\]]*)\]", r"\1", line)  # an optional part: kept
    line = line.replace("…", " ").replace("...", " ")
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    choices: list[list[str]] = []
    skip = False
    for index, word in enumerate(words[1:], start=1):
        if skip:
            skip = False
            continue
        if word == "/" and choices:  # "los / distance / cover": one more alternative
            choices[-1].append(words[index + 1])
            skip = True
            continue
        choices.append(word.split("|") if "|" in word and not word.startswith("-") else [word])
    if choices and choices[-1][0].startswith("--"):
        choices.append(["X"])  # an option named in passing: a value, or an extra word -- both
        # parse, and --help answers before extra words are refused
    return [list(combo) for combo in itertools.product(*choices)]


LINES = sorted({line for path in DOCUMENTS
                for line in command_lines(path.read_text(encoding="utf-8"))})


def test_the_documents_show_command_lines() -> None:
    assert len(LINES) > 40  # the extraction works: both documents are full of them
    assert any(line.startswith("solo-ops geom") for line in LINES)


@pytest.mark.parametrize("line", LINES)
def test_every_documented_command_line_has_only_options_the_command_has(line: str) -> None:
    runner = CliRunner()
    for args in variants(line):
        result = runner.invoke(main, [*args, "--help"])
        assert result.exit_code == 0, f"{line!r} as {args}: {result.output.strip()[-300:]}"


def test_a_wrong_option_is_caught() -> None:
    """The check itself: README's old geom row (``cover`` with ``--from``) fails."""
    failed = [args for args in variants("solo-ops geom los|distance|cover BOARD --from X,Y "
                                        "--to X,Y")
              if CliRunner().invoke(main, [*args, "--help"]).exit_code != 0]
    assert failed == [["geom", "cover", "BOARD", "--from", "X,Y", "--to", "X,Y"]]
