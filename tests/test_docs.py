"""The documentation holds (#51): every relative link and picture in README.md and docs/*.md exists, every command
shown runs (on the tiny pair, under a minute) or names only flags its program has, and the README stays short."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
# a command of the app's own programs, as the docs show it: `python -m specdec_core ...` or `python -m tools.x ...`
COMMAND = re.compile(r"(?:\.venv/bin/)?python -m ((?:specdec_core|tools\.\w+|deploy\.\w+)(?: [^`\n|]*)?)")
QUICK = "--pair tiny"  # commands on the tiny pair take seconds: these are run


def anchors(path: Path) -> set[str]:
    """GitHub's anchors of a Markdown file's headings."""
    headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_relative_link_and_picture_exists(doc):
    broken = []
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        path = (doc.parent / file) if file else doc
        if not path.exists():
            broken.append(target)
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(target)
    assert not broken, broken


def test_the_readme_is_short_and_holds_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.encode()) <= 12_000
    assert "make app" in text and "make test" in text


def shown_commands() -> list[str]:
    found = []
    for doc in DOCS:
        for command in COMMAND.findall(doc.read_text(encoding="utf-8")):
            command = re.sub(r"\[[^\]]*\]", "", command).strip().rstrip(".,;:)")  # optional parts as [--seed 1]
            if command not in found:
                found.append(command)
    return found


def program_of(words: list[str]) -> list[str]:
    """The program and subcommand a command runs: `specdec_core bench`, `tools.worst_visitor`."""
    return words[:2] if words[0] == "specdec_core" and len(words) > 1 and not words[1].startswith("-") else words[:1]


@pytest.mark.parametrize("command", shown_commands())
def test_every_command_shown_runs_or_names_flags_its_program_has(command):
    words = shlex.split(command)
    program = program_of(words)
    if QUICK in command and "FILE" not in command:
        done = subprocess.run([sys.executable, "-m", *words], cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        return
    # a command that needs more than a minute: its flags must be ones its program offers
    done = subprocess.run([sys.executable, "-m", *program, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    unknown = [flag for flag in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", command) if flag not in done.stdout]
    assert not unknown, (command, unknown)


def teaching_links() -> list[str]:
    """The lesson plan's links, as its closing section lists them: `- act N: http://localhost:8501/page?...`."""
    text = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    listed = text[text.index("## Links in this plan"):]
    return re.findall(r"^- [^:\n]+: (http://localhost:8501/\S*)$", listed, flags=re.M)


def test_the_lesson_plan_lists_its_links():
    links = teaching_links()
    assert len(links) >= 7  # five acts, the epilogue and the coda
    body = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    assert all(body.count(link) >= 2 for link in links)  # each used in the plan, not only listed


@pytest.mark.parametrize("link", teaching_links() if (ROOT / "docs" / "teaching.md").exists() else [])
def test_every_teaching_link_opens_its_page_on_the_moment_it_names(link):
    from urllib.parse import parse_qsl, urlsplit

    from app_pages import open_page

    parts = urlsplit(link)
    page = parts.path.strip("/") or "parable"
    query = dict(parse_qsl(parts.query))
    app = open_page(page, query.pop("language", "en"), **query)
    assert not app.exception, app.exception
    assert not [w.value for w in app.sidebar.warning if "link" in w.value.lower() or "連結" in w.value]  # no value refused
    if "step" in query:
        assert app.session_state["moment"] == int(query["step"])
