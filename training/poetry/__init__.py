"""御筆樓 poetry models: corpus, character tokenizer, master (墨卿) and scribes (阿速).

Reproduce everything with ``python -m training.poetry all`` from the repository root.
"""


def load_token_ids(split: str) -> list[int]:
    """Token ids of ``train``/``val``, each entry wrapped as BOS ... EOS (see tokenizer.py)."""
    from training.poetry.tokenizer import load_token_ids as _load
    return _load(split)


__all__ = ["load_token_ids"]
