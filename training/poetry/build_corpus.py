"""Build the master's corpus: the Tang poems of the chinese-poetry collection, in Taiwan-standard glyphs.

Steps: ``npm pack chinese-poetry@2.0.1`` (once, into data/poetry/npm) -> check the tarball against the
sha512 pinned here -> read ``dist/quantangshi/poet.tang.*.json`` straight from the tarball -> join each
poem's ``paragraphs`` -> drop editors' notes in brackets -> keep poems written in CJK characters and
verse punctuation only -> OpenCC ``t2tw`` (爲 -> 為) -> dedupe on the text -> hold out the poems whose
id hashes into the validation bucket (about 2 %, stable whatever else changes). Output: one poem per
line in ``data/poetry/{train,val}.txt``; counts and hashes in ``assets/models/poetry/corpus.json``.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import tarfile
from importlib.metadata import version
from pathlib import Path

from training.poetry.paths import ASSETS, DATA

PACKAGE, PACKAGE_VERSION = "chinese-poetry", "2.0.1"
# What `npm pack` printed for this version; a tarball that does not match is refused.
INTEGRITY = "sha512-KtYARvV7CWNtax0na9+Jn6PlhGgSoid7PWyDzXI4KsCEm2odZcqEQyval5koaLygZnM/EQ3lfJ//25K8p3uHNg=="
TANG_FILES = re.compile(r"^package/dist/quantangshi/poet\.tang\.\d+\.json$")
OPENCC_CONFIG = "t2tw"
VAL_BUCKETS = 50                  # a poem is held out when sha256(id) % 50 == 0: about 2 %
MIN_CHARS, MAX_CHARS = 10, 600

NOTES = re.compile(r"[（(\[【{][^）)\]】}]*[）)\]】}]")   # 「（一作…）」 and the like: an editor's, not the poet's
CLAUSE_PUNCT = "，。；？！：、"
ALLOWED = re.compile(f"^[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff{CLAUSE_PUNCT}]+$")


def fetch(dest: Path = DATA / "npm") -> Path:
    """The package tarball in ``dest``, fetched with ``npm pack`` if absent, checked against INTEGRITY."""
    dest.mkdir(parents=True, exist_ok=True)
    tarball = dest / f"{PACKAGE}-{PACKAGE_VERSION}.tgz"
    if not tarball.exists():
        subprocess.run(["npm", "pack", f"{PACKAGE}@{PACKAGE_VERSION}", "--silent"], cwd=dest, check=True,
                       stdout=subprocess.DEVNULL)
    digest = "sha512-" + base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
    if digest != INTEGRITY:
        raise SystemExit(f"{tarball} does not match the pinned integrity {INTEGRITY} (got {digest}); delete it and retry")
    return tarball


def tang_poems(tarball: Path) -> list[dict]:
    """Every record of the Tang files, in file order."""
    poems = []
    with tarfile.open(tarball) as tar:
        members = sorted((m for m in tar.getmembers() if TANG_FILES.match(m.name)),
                         key=lambda m: int(m.name.split(".")[-2]))
        for member in members:
            poems += json.load(tar.extractfile(member))
    return poems


def body_of(poem: dict) -> str:
    """The poem's lines joined, editors' notes and whitespace removed."""
    return re.sub(r"\s+", "", NOTES.sub("", "".join(poem.get("paragraphs") or [])))


def reject_reason(body: str) -> str | None:
    if not MIN_CHARS <= len(body) <= MAX_CHARS:
        return "length"
    if not ALLOWED.match(body):
        return "other_symbols"   # 「□」 for a lost character, Latin letters, stray brackets
    if body[-1] not in "。？！":
        return "unfinished"
    return None


def is_held_out(poem_id: str) -> bool:
    return int(hashlib.sha256(poem_id.encode()).hexdigest(), 16) % VAL_BUCKETS == 0


def to_traditional(bodies: list[str], config: str = OPENCC_CONFIG) -> list[str]:
    """`bodies` converted by OpenCC's `config` (t2tw here; the wrong books take s2tw)."""
    try:
        import opencc
    except ImportError:
        raise SystemExit("the corpus needs OpenCC: run `make training-env` (pip install -r requirements-training.txt)") from None
    converter = opencc.OpenCC(config)
    return [converter.convert(b) for b in bodies]


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def build() -> dict:
    tarball = fetch()
    poems = tang_poems(tarball)
    rejected: dict[str, int] = {}
    kept = []
    for poem in poems:
        body = body_of(poem)
        reason = reject_reason(body)
        if reason:
            rejected[reason] = rejected.get(reason, 0) + 1
        else:
            kept.append((poem["id"], body))
    texts = to_traditional([b for _, b in kept])
    splits, seen = {"train": [], "val": []}, set()
    for (poem_id, _), text in zip(kept, texts):
        if text in seen:
            rejected["duplicate"] = rejected.get("duplicate", 0) + 1
            continue
        seen.add(text)
        splits["val" if is_held_out(poem_id) else "train"].append(text)
    DATA.mkdir(parents=True, exist_ok=True)
    meta = {"source": {"package": f"{PACKAGE}@{PACKAGE_VERSION}", "integrity": INTEGRITY, "licence": "MIT",
                       "files": "dist/quantangshi/poet.tang.*.json", "poems": len(poems)},
            "opencc": {"package": "opencc", "version": version("opencc"), "config": OPENCC_CONFIG},
            "filter": {"rejected": rejected, "min_chars": MIN_CHARS, "max_chars": MAX_CHARS,
                       "rule": "paragraphs joined, bracketed notes dropped; CJK and clause punctuation only; "
                               "ends with 。？！; deduped after t2tw"},
            "split": {"held_out": f"sha256(id) % {VAL_BUCKETS} == 0", "format": "one poem per line"}}
    for split, entries in splits.items():
        text = "\n".join(entries) + "\n"
        (DATA / f"{split}.txt").write_text(text, encoding="utf-8")
        meta[split] = {"poems": len(entries), "chars": sum(map(len, entries)), "sha256": sha256(text)}
    ASSETS.mkdir(parents=True, exist_ok=True)
    (ASSETS / "corpus.json").write_text(json.dumps(meta, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return meta
