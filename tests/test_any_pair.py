"""Any pair "TARGET,DRAFT": local directories load and generate; wrong or unreachable models fail fast and say why."""
import threading

import pytest

from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.pairs import any_models as any_pair
from specdec_core.pairs.char_tokenizer import char_tokenizer
from specdec_core.pairs.pair import PairError
from specdec_core.pairs.registry import load_pair
from specdec_core.settings import DecodeSettings, SamplingConfig


@pytest.fixture(scope="module")
def saved_tiny(tiny, tmp_path_factory):
    """The tiny pair's target and draft saved as two ordinary model directories."""
    root = tmp_path_factory.mktemp("models")
    for name, model in (("target", tiny.target), ("draft", tiny.draft("lm").model)):
        model.save_pretrained(root / name)
        tiny.tokenizer.save_pretrained(root / name)
    return root


def test_two_local_directories_load_and_generate(saved_tiny, tiny):
    pair = load_pair(f"{saved_tiny / 'target'},{saved_tiny / 'draft'}", device="cpu")
    assert list(pair.drafts) == ["prompt-lookup", "draft"] and pair.default_draft == "draft"
    prompt = pair.encode_prompt("春山", 12)
    settings = DecodeSettings(k=3, sampling=SamplingConfig(temperature=0), max_new_tokens=12, stop_at_eos=False)
    expected = plain_generate(tiny.as_target(), tiny.encode_prompt("春山", 12), settings).tokens  # the original target
    assert speculative_generate(pair.as_target(), pair.draft(), prompt, settings).tokens == expected


def test_a_draft_with_another_tokenizer_is_refused(saved_tiny, tiny, tmp_path):
    tiny.draft("lm").model.save_pretrained(tmp_path / "draft")
    char_tokenizer(list("abcdefghijkl")).save_pretrained(tmp_path / "draft")
    with pytest.raises(PairError, match="different tokenizer"):
        load_pair(f"{saved_tiny / 'target'},{tmp_path / 'draft'}", device="cpu")


def test_a_missing_directory_is_named(saved_tiny):
    with pytest.raises(PairError, match=r"no model at './no/such/model'.*no such directory"):
        load_pair(f"{saved_tiny / 'target'},./no/such/model", device="cpu")


def test_an_unreachable_hub_id_fails_within_seconds_naming_what_was_tried(saved_tiny, tmp_path, monkeypatch):
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path))  # empty, whatever this machine holds
    monkeypatch.setattr(any_pair, "_hub_offline", lambda: False)
    with pytest.raises(PairError, match=r"no model 'scriptorium-tests/absent'.*Hugging Face cache.*hub"):
        load_pair(f"{saved_tiny / 'target'},scriptorium-tests/absent", device="cpu")


def test_a_hub_that_never_answers_is_abandoned(monkeypatch):
    """The hub call never returns: only abandoning it lets the refusal come (else pytest's timeout fails the test)."""
    never = threading.Event()
    monkeypatch.setattr(any_pair, "_from_hub", lambda repo_id, local_only: (None, "absent") if local_only else never.wait())
    monkeypatch.setattr(any_pair, "HUB_TIME_LIMIT_S", 0.5)
    monkeypatch.setattr(any_pair, "_hub_offline", lambda: False)
    with pytest.raises(PairError, match="no answer within"):
        any_pair.resolve_model("owner/silent-model")
    never.set()   # lets the abandoned call's thread end


def test_a_folder_whose_config_does_not_match_its_weights_is_a_pair_error(saved_tiny, tmp_path):
    import json
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(saved_tiny / "target", broken)
    config = json.loads((broken / "config.json").read_text())
    config["n_embd"] *= 2  # the weights on disk are the old width
    (broken / "config.json").write_text(json.dumps(config))
    with pytest.raises(PairError, match="cannot load"):
        load_pair(f"{broken},{saved_tiny / 'draft'}", device="cpu")


def test_a_server_folder_takes_folder_names_only(saved_tiny, tiny):
    pair = any_pair.load_pair_from_folder(saved_tiny, "target", "draft", tiny.target.device)
    assert pair.name == "target,draft"
    for name in ("../target", "/etc", ".hidden", "a/b", ""):
        with pytest.raises(PairError):
            any_pair.load_pair_from_folder(saved_tiny, name or "target", name, tiny.target.device)
