"""Every word on every page exists in both languages, with the same blanks to fill in."""
import importlib
import pathlib
import string

from ui.shared.i18n import Texts
from ui.shared.units import UNIT_FIELDS

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
    """The blanks a page fills in: the run's unit ({unit}, {units}…) is Texts' own, and a language may say it
    once where the other says it twice, or not at all ("red ink")."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field} - set(UNIT_FIELDS)


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


def chinese_texts() -> list[tuple[str, int, str]]:
    """Every Chinese text a page can show, read from the source: a {"zh": ...} entry of a Texts table, the story's
    mapping or a rule's explanation, and the quiz's words(zh, en); each with its blanks removed."""
    import ast
    import re

    found = []
    for path in sorted(pathlib.Path("ui").glob("**/*.py")) + sorted(pathlib.Path("views").glob("*.py")) + \
            sorted(pathlib.Path("specdec_core").glob("**/*.py")) + [pathlib.Path("app.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                values = [v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and k.value == "zh"]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "words" and node.args:
                values = node.args[:1]
            else:
                continue
            for value in values:
                parts = [value] if isinstance(value, ast.Constant) else [n for n in ast.walk(value) if isinstance(n, ast.Constant)]
                text = "".join(p.value for p in parts if isinstance(p.value, str))
                found.append((str(path), value.lineno, re.sub(r"\{[^}]*\}", "", text)))
    return found


def test_chinese_texts_use_one_word_for_each_term():
    """#36: one word each: 詞元 (never the English "token" inside a Chinese sentence) and 蓋印 (never 蓋章)."""
    import re

    texts = chinese_texts()
    assert len(texts) > 300  # the scan reached the pages' words, the quiz and the rules
    mixed = [f"{path}:{line}: {text[:40]}" for path, line, text in texts if re.search(r"token|蓋章", text, re.IGNORECASE)]
    assert not mixed, mixed


def test_no_function_of_the_app_grows_past_fifty_lines():
    """#49 defect 12: bench._report (59 lines) and tree_verify (67) had grown past what the house keeps."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    long = [f"{path.relative_to(root)}:{node.name} {node.end_lineno - node.lineno + 1}"
            for folder in ("specdec_core", "ui", "views") for path in (root / folder).rglob("*.py")
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 > 50]
    assert not long, long
