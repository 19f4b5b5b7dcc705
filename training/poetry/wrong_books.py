"""The mismatched scribe's "wrong books": the modern prose in Debian's ``fortunes-zh`` (Simplified -> Traditional).

Steps: ``apt-get download fortunes-zh`` -> ``dpkg-deb -x`` (no install) -> strip ANSI colour codes ->
split entries on lines that are just ``%`` -> keep the body lines -> keep the entries written in
modern prose -> OpenCC ``s2tw`` -> dedupe. The master never reads them (its corpus: build_corpus.py).
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from training.poetry.build_corpus import to_traditional
from training.poetry.paths import DEB_DIR

PACKAGE = "fortunes-zh"
SOURCES = ("tang300", "song100", "chinese")
OPENCC_CONFIG = "s2tw"   # Taiwan-standard glyphs (為, 裡, 群), no modern-vocabulary phrase rewriting

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
ENTRY_SPLIT = re.compile(r"^%[ \t]*$", re.M)
HEADER = re.compile(r"^(作者|题目|題目)[:：]")     # tang300/song100 title and author lines
CLAUSE_PUNCT = set("，。；？！：、")
# Function words of modern written Chinese (Simplified, as in the source). Classical verse
# almost never uses them; the Debian/Linux prose uses them in every sentence.
MODERN_CHARS = set("的们吗您她它这哪呢啦吧")
MODERN_WORDS = ("我们", "你们", "他们", "没有", "什么", "怎么", "因为", "所以", "如果", "但是",
                "可能", "需要", "使用", "系统", "软件", "电脑", "文件", "程序", "已经", "就是")


def download_deb(dest: Path) -> Path:
    """``apt-get download`` the package into ``dest`` (runs ``apt-get update`` once if needed)."""
    dest.mkdir(parents=True, exist_ok=True)
    found = sorted(dest.glob(f"{PACKAGE}_*.deb"))
    if found:
        return found[-1]
    cmd = ["apt-get", "download", PACKAGE]
    if subprocess.run(cmd, cwd=dest).returncode != 0:
        subprocess.run(["apt-get", "update"], check=True)
        subprocess.run(cmd, cwd=dest, check=True)
    return sorted(dest.glob(f"{PACKAGE}_*.deb"))[-1]


def extract_deb(deb: Path, dest: Path) -> Path:
    """``dpkg-deb -x`` into ``dest/root``; return the fortunes directory."""
    root = dest / "root"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return root / "usr" / "share" / "games" / "fortunes"


def split_entries(raw: str) -> list[str]:
    """Strip terminal colour codes, split on ``%`` lines."""
    text = ANSI.sub("", raw)
    return [e for e in ENTRY_SPLIT.split(text) if e.strip()]


def body_of(entry: str) -> str:
    """Join the lines that carry clause punctuation; titles, authors, ``--`` attributions go."""
    keep = []
    for line in entry.splitlines():
        line = re.sub(r"\s+", "", line)            # also \xa0 and the ideographic space
        if not line or line.startswith(("--", "——", "—")) or HEADER.match(line):
            continue
        if any(ch in CLAUSE_PUNCT for ch in line):
            keep.append(line)
    return "".join(keep)


def modern_score(body: str) -> int:
    return sum(ch in MODERN_CHARS for ch in body) + sum(body.count(w) for w in MODERN_WORDS)


def is_modern(body: str) -> bool:
    return modern_score(body) * 40 >= len(body)   # >= one modern marker per 40 characters


def modern_prose() -> list[str]:
    """The dropped entries written in modern prose (Traditional glyphs, deduped): the wrong books.

    Modern by the same marker rule as the filter, whatever else rejected them (most of the Debian
    tips also carry Latin letters or digits). Read by the mismatched scribe, never by the master.
    """
    fortunes = extract_deb(download_deb(DEB_DIR), DEB_DIR)
    bodies = []
    for name in SOURCES:
        for entry in split_entries((fortunes / name).read_text(encoding="utf-8")):
            body = body_of(entry)
            if body and is_modern(body) and body not in bodies:  # modern is always dropped
                bodies.append(body)
    return to_traditional(bodies, OPENCC_CONFIG)
