"""Every word on every page exists in both languages, with the same blanks to fill in."""
import importlib
import pathlib
import string

from ui.shared.i18n import Texts

# a page's texts.py, and any section's own *_texts.py beside it
TEXT_FILES = sorted(pathlib.Path("ui").glob("*/*texts.py"))
MODULES = [importlib.import_module(f"ui.{path.parent.name}.{path.stem}") for path in TEXT_FILES] + [importlib.import_module("ui.shared.pages")]
ENTRIES = [
    (module.__name__, key, entry)
    for module in MODULES
    for value in vars(module).values()
    if isinstance(value, Texts)
    for key, entry in value.table.items()
]


def blanks(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_every_page_has_its_words():
    assert {m.__name__.split(".")[1] for m in MODULES} >= {"shared", "parable", "scriptorium", "iron_rule", "proof", "speed_lab", "archive"}
    assert len(ENTRIES) > 200


def test_both_languages_with_the_same_blanks():
    wrong = [
        f"{module}:{key}"
        for module, key, entry in ENTRIES
        if set(entry) != {"zh", "en"}
        or not (entry["zh"].strip() and entry["en"].strip())
        or blanks(entry["zh"]) != blanks(entry["en"])
    ]
    assert not wrong, wrong


def test_no_speed_ratio_reads_as_one_more_than_it_is():
    """#36: "快了 2.16 倍" reads as 3.16× by the parable's own convention (幾乎快了一倍 = twice as fast). A measured
    or predicted ratio is written "速度是…的 x 倍" instead; the parable's words stay as they are."""
    import re

    ratio_as_faster_by = re.compile(r"快了?\s*(\{[^}]*\}|\d)[^。，；]*(倍|×)")
    pages = [path for path in sorted(pathlib.Path("ui").glob("*/texts.py"))] + sorted(pathlib.Path("views").glob("*.py"))
    wrong = [f"{module}:{key}" for module, key, entry in ENTRIES if ratio_as_faster_by.search(entry["zh"])]
    wrong += [f"{path}:{match.group(0)}" for path in pages + [pathlib.Path("README.md")]
              for match in ratio_as_faster_by.finditer(path.read_text(encoding="utf-8"))]
    assert not wrong, wrong
