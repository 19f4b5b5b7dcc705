"""The exact acceptance rule and the broken variants that the proof page must catch.

Each chain's broken variant is a mistake that has shipped in real code; `EXPLANATIONS` says which, in
plain words, so the app can tell a class what went wrong. The tree's broken variant is the slip of carrying
the chain's test over to siblings unchanged; on a chain it is the exact rule, so chain pages skip it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """How a round drafts and verifies. The exact rule is Leviathan et al. 2023, Algorithm 1."""

    name: str
    accept: str = "ratio"  # "ratio": u < min(1, p/q); "all": always; "match": draft == a sample of p
    residual: str = "residual"  # "residual": norm(max(0, p - q)); "p": sample p again
    draft_greedy: bool = False  # the draft proposes argmax q but is scored with its soft q
    raw_q: bool = False  # q for the ratio is taken before temperature/top-k/top-p
    siblings: str = "residual"  # trees: sibling i is tested against "residual" r_i left by those before it, or "p"

    @property
    def tree_only(self) -> bool:
        """A rule that differs from the exact one only where a node has several siblings (on a chain it is exact)."""
        return self.siblings != "residual"


RULES = {
    rule.name: rule
    for rule in (
        Rule("exact"),
        Rule("accept-all", accept="all"),
        Rule("exact-match", accept="match", residual="p"),
        Rule("resample-p", residual="p"),
        Rule("greedy-soft-q", draft_greedy=True),
        Rule("raw-q", raw_q=True),
        Rule("tree-no-residual", siblings="p"),
    )
}
CHAIN_RULES = {name: rule for name, rule in RULES.items() if not rule.tree_only}  # what a chain's pages offer
# what the proof page's tree mode offers: the exact rule and the tree's own broken variants
TREE_RULES = {name: rule for name, rule in RULES.items() if name == "exact" or rule.tree_only}

EXPLANATIONS = {
    "exact": {
        "en": "The iron rule: accept with probability min(1, p/q); on rejection draw from max(0, p − q).",
        "zh": "鐵律：以 min(1, p/q) 的機率接受；拒絕時從 max(0, p − q) 重新取樣。",
    },
    "accept-all": {
        "en": "Accept every drafted token. The output is the draft's distribution, not the target's.",
        "zh": "照單全收：輸出變成草稿模型的分布，而不是目標模型的。",
    },
    "exact-match": {
        "en": "Keep a drafted token only if it equals a token sampled from p, and otherwise sample p "
        "afresh. Tokens the draft favours come out too often.",
        "zh": "只在草稿字與目標模型抽出的字完全相同時才接受，否則重新從 p 抽樣。草稿偏好的字因此出現得太頻繁。",
    },
    "resample-p": {
        "en": "On rejection sample from p instead of the residual max(0, p − q). Tokens the draft "
        "over-proposes are counted twice.",
        "zh": "拒絕後直接從 p 重新抽樣，而不是從殘差 max(0, p − q)。草稿偏好的字被重複計入。",
    },
    "greedy-soft-q": {
        "en": "The draft proposes its argmax but the ratio uses its soft probabilities: q is not "
        "the distribution the draft sampled from (the mistake in transformers issue #32867).",
        "zh": "草稿用貪婪法挑字，但接受率卻用它的軟機率計算：q 已不是草稿真正抽樣的分布（transformers issue #32867 的錯誤）。",
    },
    "raw-q": {
        "en": "The ratio uses q from before temperature, top-k and top-p, while the draft sampled "
        "from the processed q (the class of bug fixed in vLLM PR #10198 and transformers #47932).",
        "zh": "接受率用的是溫度、top-k、top-p 處理之前的 q，但草稿其實是從處理後的 q 抽樣（vLLM PR #10198 與 transformers #47932 修正的錯誤）。",
    },
    "tree-no-residual": {
        "en": "In a tree, each variant in the margin is tested by min(1, p/q) against p itself, not against the "
        "residual left by the variants rejected before it. The share of p that the first test already handed out "
        "is handed out again by each later one, so tokens the draft over-proposes come out too often.",
        "zh": "在草稿樹中，每個旁註異文都拿 p 本身按 min(1, p/q) 檢驗，而不是拿前面被退回的異文所留下的殘差。"
        "第一次檢驗已經分出去的那份 p，之後每次檢驗又再分一次，所以草稿偏好的字出現得太頻繁。",
    },
}


def rule_named(name: str) -> Rule:
    try:
        return RULES[name]
    except KeyError:
        raise ValueError(f"unknown rule {name!r}; choose one of: {', '.join(RULES)}") from None
