"""Build the classical-Chinese poetry corpus from Debian's ``fortunes-zh`` (Simplified -> Traditional).

Steps: ``apt-get download fortunes-zh`` -> ``dpkg-deb -x`` (no install) -> strip ANSI colour codes ->
split entries on lines that are just ``%`` -> keep the body lines (drop titles, author lines and
``-- 出處`` attributions) -> keep classical entries only -> OpenCC ``s2tw`` -> dedupe -> seeded
5 % validation hold-out. Output: one entry per line in ``data/poetry/{train,val}.txt``.
"""
from __future__ import annotations

import hashlib
import json
import random
import re
import subprocess
from importlib.metadata import version
from pathlib import Path

from training.poetry.paths import ASSETS, DATA, DEB_DIR, SEED

PACKAGE = "fortunes-zh"
SOURCES = ("tang300", "song100", "chinese")
OPENCC_CONFIG = "s2tw"   # Taiwan-standard glyphs (為, 裡, 群), no modern-vocabulary phrase rewriting
VAL_FRACTION = 0.05
MIN_CHARS, MAX_CHARS = 5, 1000

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
ENTRY_SPLIT = re.compile(r"^%[ \t]*$", re.M)
HEADER = re.compile(r"^(作者|题目|題目)[:：]")     # tang300/song100 title and author lines
CLAUSE_PUNCT = set("，。；？！：、")
ALLOWED_PUNCT = set("，。；？！：、「」『』《》〈〉（）“”‘’·‧…—")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN_OR_DIGIT = re.compile(r"[A-Za-z0-9\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]")
# Function words of modern written Chinese (Simplified, as in the source). Classical verse and the
# 增廣賢文-style proverbs almost never use them; the Debian/Linux prose uses them in every sentence.
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


def deb_version(deb: Path) -> str:
    out = subprocess.run(["dpkg-deb", "-f", str(deb), "Version"], capture_output=True, text=True)
    return out.stdout.strip()


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


def reject_reason(body: str) -> str | None:
    """Why an entry is not classical material (None: keep it)."""
    if not (MIN_CHARS <= len(body) <= MAX_CHARS):
        return "length"
    if LATIN_OR_DIGIT.search(body):
        return "latin_or_digit"
    if any(not CJK.match(ch) and ch not in ALLOWED_PUNCT for ch in body):
        return "symbols"
    if is_modern(body):
        return "modern_words"
    if body[-1] not in CLAUSE_PUNCT and body[-1] not in "」』”":
        return "no_final_punct"
    return None


def to_traditional(bodies: list[str], config: str) -> list[str]:
    import opencc
    conv = opencc.OpenCC(f"{config}.json") if not hasattr(opencc.OpenCC, "from_config") else None
    conv = conv or opencc.OpenCC(config)
    return [conv.convert(b) for b in bodies]


def split_train_val(entries: list[str], seed: int) -> tuple[list[str], list[str]]:
    order = list(range(len(entries)))
    random.Random(seed).shuffle(order)
    n_val = round(len(entries) * VAL_FRACTION)
    val_idx = set(order[:n_val])
    train = [e for i, e in enumerate(entries) if i not in val_idx]
    val = [e for i, e in enumerate(entries) if i in val_idx]
    return train, val


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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


def build(seed: int = SEED) -> dict:
    deb = download_deb(DEB_DIR)
    fortunes = extract_deb(deb, DEB_DIR)
    per_source, kept, seen = {}, [], set()
    for name in SOURCES:
        raw = (fortunes / name).read_text(encoding="utf-8")
        stats = {"entries": 0, "kept": 0, "duplicate": 0}
        for entry in split_entries(raw):
            stats["entries"] += 1
            body = body_of(entry)
            reason = reject_reason(body)
            if reason:
                stats[reason] = stats.get(reason, 0) + 1
                continue
            if body in seen:
                stats["duplicate"] += 1
                continue
            seen.add(body)
            kept.append(body)
            stats["kept"] += 1
        per_source[name] = stats
    trad = to_traditional(kept, OPENCC_CONFIG)
    train, val = split_train_val(trad, seed)
    DATA.mkdir(parents=True, exist_ok=True)
    train_text, val_text = "\n".join(train) + "\n", "\n".join(val) + "\n"
    (DATA / "train.txt").write_text(train_text, encoding="utf-8")
    (DATA / "val.txt").write_text(val_text, encoding="utf-8")
    meta = {
        "source": {"package": PACKAGE, "version": deb_version(deb), "deb": deb.name,
                   "deb_sha256": hashlib.sha256(deb.read_bytes()).hexdigest(),
                   "files": list(SOURCES), "licence": "GPL-3.0+ (see debian/copyright)"},
        "opencc": {"package": "opencc", "version": version("opencc"), "config": OPENCC_CONFIG},
        "filter": {"per_source": per_source, "min_chars": MIN_CHARS, "max_chars": MAX_CHARS,
                   "rule": "body = lines with clause punctuation; drop Latin/digits, non-CJK symbols, "
                           ">= 1 modern function word per 40 chars, no final punctuation; dedupe"},
        "split": {"seed": seed, "val_fraction": VAL_FRACTION, "format": "one entry per line"},
        "train": {"entries": len(train), "chars": sum(map(len, train)), "sha256": sha256(train_text)},
        "val": {"entries": len(val), "chars": sum(map(len, val)), "sha256": sha256(val_text)},
    }
    ASSETS.mkdir(parents=True, exist_ok=True)
    (ASSETS / "corpus.json").write_text(json.dumps(meta, ensure_ascii=False, indent=2) + "\n",
                                        encoding="utf-8")
    return meta
