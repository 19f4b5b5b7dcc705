"""English number agreement in a template, before its blanks are filled: "1 rounds" reads "1 round".

The English templates are written for the plural; a blank that holds exactly 1 (or 2, for "all") turns its
words. Rules are data, one per line: (pattern on the template, the number the blank must hold, what it becomes).
Only templates are rewritten, never a value, so a reader's own prompt is left as typed.
"""
from __future__ import annotations

import re

NOUNS = "rounds|glances|variants|drafts|prompts|runs|samples|positions|tokens|characters|words|cells|forwards|passes"
BLANK = r"\{(?P<name>\w+)(?P<spec>:[^}]*)?\}"
RULES = [
    (re.compile(BLANK + r" (?P<noun>" + NOUNS + r")\b"), 1, lambda m: f"{{{m['name']}{m['spec'] or ''}}} {_singular(m['noun'])}"),
    (re.compile(BLANK + r" \{units\}"), 1, lambda m: f"{{{m['name']}{m['spec'] or ''}}} {{unit}}"),
    (re.compile(r"\ball " + BLANK + " "), 2, lambda m: "both "),
    (re.compile(r"\bthe " + BLANK + r" drafted after it are\b"), 1, lambda m: "the one drafted after it is"),
    (re.compile(r"\bthe first " + BLANK + r" drafted are\b"), 1, lambda m: "the first drafted is"),
]


def agree(template: str, values: dict) -> str:
    """The template with each rule applied where its blank's value is the rule's number."""
    for pattern, number, becomes in RULES:
        template = pattern.sub(lambda m: becomes(m) if _holds(values.get(m["name"]), number) and "." not in (m["spec"] or "")
                               else m[0], template)  # "1.00 glances" keeps its plural
    return template


def _holds(value: object, number: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value == number


def _singular(noun: str) -> str:
    return noun[:-2] if noun.endswith("sses") else noun[:-1]  # passes -> pass, rounds -> round
