"""The shipped default pair: it loads offline, speaks one vocabulary, and stays exact."""
import json

import pytest
import torch

from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.decoding.proof import run_proof
from specdec_core.drafts.feature import FEATURE_SCRIBE, FeatureDraft
from specdec_core.pairs.pair import PairError
from specdec_core.pairs.poetry import FEATURE_DIR, POETRY_DIR
from specdec_core.pairs.registry import load_pair
from specdec_core.runtimes.int8_linear import Int8Linear
from specdec_core.settings import DecodeSettings, SamplingConfig

PROMPT = "床前明月光，"


@pytest.fixture(scope="module")
def poetry():
    return load_pair("poetry", device="cpu")


def measured_alpha() -> dict[str, float]:
    """Each rung's sum_x min(p, q) at temperature 1.0 on the master's own samples (training eval stage)."""
    table = json.loads((POETRY_DIR / "metrics.json").read_text(encoding="utf-8"))["alpha_master_samples"]
    return {name: row["T=1.0"] for name, row in table.items() if not name.startswith("_")}


def test_the_ladder_is_complete_and_the_quantised_master_is_default(poetry):
    assert list(poetry.drafts) == ["mismatched", "unigram", "trigram", "bigram", "tiny", "distilled", "eagle", "int4-master",
                                   "int8-master"]
    assert poetry.default_draft == "int8-master"
    assert poetry.vocab_size == poetry.target.config.vocab_size


def test_the_pairs_shipped_files_grew_by_at_most_25_mb_with_the_feature_scribe():
    """Decimal megabytes: 59.8 before the feature scribe (the master alone is 48.6), issue 34's bound 25 more."""
    files = [f for f in POETRY_DIR.rglob("*") if f.is_file()]
    assert POETRY_DIR / "master" / "model.safetensors" in files and FEATURE_DIR / "model.safetensors" in files
    assert sum(f.stat().st_size for f in files) <= 59_800_000 + 25_000_000


def test_the_ladder_climbs_in_measured_alpha_from_below_03_to_above_075(poetry):
    """The slider's order is the measured order, and it spans the issue's range."""
    alpha = measured_alpha()
    assert list(poetry.drafts) == sorted(alpha, key=alpha.get)
    assert alpha[next(iter(poetry.drafts))] <= 0.3 and alpha[poetry.default_draft] >= 0.75


def test_the_master_never_writes_control_pieces(poetry):
    """<pad>, <s> and <unk> are never written into a poem: the shipped master's head silences them
    (p exactly 0), where the trained model alone gives them up to a few percent (metrics.json)."""
    ids = poetry.encode_prompt("床前明月光，疑是地上霜。舉頭望明月，低頭思故鄉。")
    with torch.no_grad():
        probs = torch.softmax(poetry.target(input_ids=torch.tensor([ids])).logits[0].float(), -1)
    control = [poetry.tokenizer.convert_tokens_to_ids(t) for t in ("<pad>", "<s>", "<unk>")]
    assert probs[:, control].max() == 0 and probs[-1, poetry.tokenizer.eos_token_id] > 0.05  # a quatrain may end
    recorded = json.loads((POETRY_DIR / "metrics.json").read_text(encoding="utf-8"))["control_pieces"]
    assert recorded["max_p"] > 1e-3 and recorded["positions"] > 50_000   # what the silencing is for


def test_the_mismatched_scribe_speaks_the_masters_vocabulary_but_not_its_verse(poetry):
    scribe = poetry.draft("mismatched")
    assert scribe.vocab_size == poetry.vocab_size
    learned = scribe.model.unigram > 0
    assert learned[poetry.tokenizer.convert_tokens_to_ids("的")]  # modern prose's commonest word
    assert not learned[poetry.tokenizer.convert_tokens_to_ids("愁")]  # sorrow: never in a Debian tip


def test_unknown_characters_cut_the_mismatched_scribes_text():
    from training.poetry.mismatched import pieces

    vocab = {"系": 10, "統": 11, "。": 12}
    assert pieces("系統Q統。", vocab, bos=1, eos=2) == [[1, 10, 11], [11, 12, 2]]


@pytest.mark.parametrize("scribe", ["mismatched", "trigram", "distilled", "eagle", "int4-master", "int8-master"])
def test_greedy_speculative_equals_the_masters_greedy(poetry, scribe):
    settings = DecodeSettings(k=4, sampling=SamplingConfig(temperature=0), max_new_tokens=48, stop_at_eos=False)
    ids = poetry.encode_prompt(PROMPT)
    plain = plain_generate(poetry.as_target(), ids, settings)
    assert speculative_generate(poetry.as_target(), poetry.draft(scribe), ids, settings).tokens == plain.tokens


@pytest.mark.parametrize("scribe, shape", [("distilled", "3-2-1-1"), ("int8-master", "3-2-1-1"), ("distilled", "dynamic-3-12"),
                                           ("eagle", "3-2-1-1"), ("int4-master", "2-2-1")])
def test_a_greedy_tree_equals_the_masters_greedy(poetry, scribe, shape):
    """The scribe's top children at each depth, the master's argmax path through them: the master's own text."""
    settings = DecodeSettings(sampling=SamplingConfig(temperature=0), max_new_tokens=48, stop_at_eos=False, tree=shape)
    ids = poetry.encode_prompt(PROMPT)
    trace = speculative_generate(poetry.as_target(), poetry.draft(scribe), ids, settings)
    assert trace.tokens == plain_generate(poetry.as_target(), ids, settings).tokens
    assert any(len(r.tree) > r.k for r in trace.rounds)      # variants were drafted, not only a chain


def test_the_eagle_rung_reads_the_masters_notes_through_int8_rows(poetry):
    """The feature scribe loads from its shipped files, drafts from the master's lean forward, and its
    alpha is recorded by drafted step, every step on the same positions."""
    draft = poetry.draft(FEATURE_SCRIBE)
    assert isinstance(draft, FeatureDraft) and isinstance(draft.scribe.fuse, Int8Linear)
    assert draft.scribe.vocab_ids.numel() == poetry.vocab_size - 3       # all but <pad>, <s>, <unk>
    metrics = json.loads((POETRY_DIR / "metrics.json").read_text(encoding="utf-8"))
    for text in ("alpha_val", "alpha_master_samples"):
        by_step = metrics["eagle_alpha_by_step"][text]
        assert list(by_step) == ["step 1", "step 2", "step 3"]
        assert by_step["step 1"]["positions"] == by_step["step 3"]["positions"] < metrics[text][FEATURE_SCRIBE]["positions"]
        first = by_step["step 1"]["T=1.0"]      # trained on its own guesses (EAGLE-3), it keeps its acceptance
        assert 0.5 < first < 0.99 and all(abs(row["T=1.0"] - first) < 0.05 for row in by_step.values())


def test_characters_outside_the_vocabulary_are_named(poetry):
    with pytest.raises(PairError, match="lacks these characters: Q"):
        poetry.encode_prompt("床前Q月光")


@pytest.mark.parametrize("scribe, rule, passes", [("int8-master", "exact", True), ("int4-master", "exact", True),
                                                  ("distilled", "exact", True), ("trigram", "exact", True),
                                                  ("eagle", "exact", True), ("trigram", "resample-p", False)])
def test_two_token_proof_on_the_trained_pair(poetry, scribe, rule, passes):
    """High-entropy p: the enumerated cells cover only part of the mass, the rest is pooled.

    The broken rule's bias grows with 1 - alpha, so a poor scribe shows it at 10,000 samples.
    """
    settings = DecodeSettings(k=4, seed=5, rule=rule)
    report = run_proof(poetry.target, poetry.draft(scribe), poetry.encode_prompt(PROMPT), 10_000, 2, settings, batch_size=2000)
    assert report.exact.probs.sum() < 0.99  # the case that needs n to count every sample
    assert (report.fit.p_value > 0.001) == passes
