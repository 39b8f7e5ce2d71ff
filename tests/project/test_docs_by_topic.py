"""The docs are read by topic, the history is in the changelog.

docs/performance.md gives the current figure of each topic and docs/rules.md the reading of each
rule; neither has a section named after an issue or a pass ("Issue #13, second pass", "The table
audit (issue #27)"): a reader asking how fast distances are, or how a door is read, finds one
section, and a helper adding a figure or a reading puts it under its topic. The history of the
passes and issues is CHANGELOG.md, kept in the Keep a Changelog style
(https://keepachangelog.com: an "Unreleased" section on top, then the versions), which the
README links beside the other docs.
"""

from __future__ import annotations

import re
import tomllib

import pytest

from tests.support.paths import ROOT

TOPIC_DOCS = (ROOT / "docs" / "performance.md", ROOT / "docs" / "rules.md")
CHANGELOG = ROOT / "CHANGELOG.md"

# A heading that names an issue ("#13", "issue", "issues") or a pass ("pass", "passes").
HISTORY = re.compile(r"#\d+|\bissues?\b|\bpass(es)?\b", re.IGNORECASE)


def headings(text: str) -> list[tuple[int, str]]:
    """The Markdown headings of a document as (level, title), code blocks left out (a shell
    comment in a block starts with '#' too)."""
    found = []
    block = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            block = not block
            continue
        match = re.match(r"(#{1,6})\s+(.*\S)\s*$", line)
        if match and not block:
            found.append((len(match.group(1)), match.group(2)))
    return found


def anchor(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped but hyphens and
    underscores kept, each space a hyphen."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def test_the_heading_reader_finds_history_and_skips_code_blocks() -> None:
    """The checks below mean something: the reader sees the headings the old pages had and
    leaves a shell comment in a code block alone."""
    text = (
        "# Performance\n\n## Issue #13, second pass: exact odds\n\n### Exact odds\n\n"
        "```bash\n# (wait for the compile), then the same command again\n```\n\n"
        "## The table audit (issue #27)\n\n## Distances around walls\n"
    )
    found = headings(text)
    assert found == [(1, "Performance"), (2, "Issue #13, second pass: exact odds"),
                     (3, "Exact odds"), (2, "The table audit (issue #27)"),
                     (2, "Distances around walls")]
    assert [title for _, title in found if HISTORY.search(title)] == [
        "Issue #13, second pass: exact odds", "The table audit (issue #27)"]
    assert not HISTORY.search("Guard (Gallowdark killzones, Kill Team 2024)")
    assert not HISTORY.search("Passing the turn")  # a word that starts with "pass" is no pass
    assert anchor("The enemy's turn (the planner)") == "the-enemys-turn-the-planner"
    assert (anchor("A difficulty rating (`new --difficulty`)")
            == "a-difficulty-rating-new---difficulty")


@pytest.mark.parametrize("path", TOPIC_DOCS, ids=lambda p: p.name)
def test_no_heading_names_an_issue_or_a_pass(path) -> None:
    """Sections are named by topic or rule, never by the issue or pass that brought them."""
    titles = [title for _, title in headings(path.read_text(encoding="utf-8"))]
    assert len(titles) > 10, f"{path.name} has lost its sections"
    assert [title for title in titles if HISTORY.search(title)] == []


@pytest.mark.parametrize("path", TOPIC_DOCS, ids=lambda p: p.name)
def test_every_link_to_a_section_finds_it(path) -> None:
    """A link such as performance.md's table "At a glance" makes to a topic lands on a heading
    of the same page (a renamed topic must take its links along)."""
    text = path.read_text(encoding="utf-8")
    anchors = {anchor(title) for _, title in headings(text)}
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert [link for link in links if link not in anchors] == []


def test_the_changelog_has_unreleased_on_top_then_the_versions() -> None:
    """CHANGELOG.md exists, opens with "## [Unreleased]" and then gives each version with its
    date, the package's own version among them (Keep a Changelog's shape)."""
    assert CHANGELOG.is_file()
    sections = [title for level, title in headings(CHANGELOG.read_text(encoding="utf-8"))
                if level == 2]
    assert sections[0] == "[Unreleased]"
    versions = sections[1:]
    assert versions, "no version below Unreleased"
    for title in versions:
        assert re.fullmatch(r"\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}", title), title
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "version"]
    assert any(title.startswith(f"[{version}] - ") for title in versions)


def test_the_changelog_sorts_changes_by_kind() -> None:
    """Unreleased changes are sorted into Added, Changed, Fixed, Performance (Keep a
    Changelog's kinds and this project's Performance); a version's rounds sort theirs the same
    way, one level down."""
    kinds = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security", "Performance"}
    found = headings(CHANGELOG.read_text(encoding="utf-8"))
    titles = [title for _, title in found]
    start = titles.index("[Unreleased]") + 1
    end = next(i for i in range(start, len(found)) if found[i][0] == 2)
    unreleased = [title for level, title in found[start:end] if level == 3]
    assert unreleased and set(unreleased) <= kinds
    in_rounds = {title for level, title in found[end:] if level == 4}
    assert {"Added", "Changed", "Fixed", "Performance"} <= in_rounds


def test_the_readme_links_the_changelog_beside_the_other_docs() -> None:
    """The README's documentation list names the changelog, and every page it links exists."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    docs = readme[readme.index("## Documentation"):]
    targets = re.findall(r"\]\(([^)#]+)\)", docs)
    assert "CHANGELOG.md" in targets
    assert {"docs/performance.md", "docs/rules.md"} <= set(targets)
    assert [t for t in targets if not (ROOT / t).is_file()] == []
