"""The model card stays a card (issue 34: under 20 KB; its history is in git) and names every shipped rung."""
from pathlib import Path

from specdec_core.pairs.poetry import LADDER

CARD = Path(__file__).resolve().parents[1] / "assets" / "models" / "README.md"


def test_the_card_stays_under_twenty_kilobytes():
    assert len(CARD.read_bytes()) < 20_000


def test_the_card_names_every_poetry_rung():
    text = CARD.read_text(encoding="utf-8")
    assert [rung for rung in LADDER if f"| {rung} |" not in text] == []
