"""The command line: the JSON keys scripts rely on, and plain errors for bad input."""
import json

import pytest

from specdec_core.services.bench import forwards_only_speedup, headline
from specdec_core.services.cli import _parser, _with_pair_defaults, main
from specdec_core.pairs.registry import run_defaults


def run_json(capsys, *argv) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_generate_json_keys(capsys):
    out = run_json(capsys, "generate", "--pair", "tiny", "--prompt", "春山", "--max-new-tokens", "12", "--k", "3", "--seed", "5", "--json")
    assert {"tokens", "text", "target_forwards", "wall_s"} <= out.keys()
    assert 1 <= len(out["tokens"]) <= 12 and out["target_forwards"] <= len(out["tokens"])


def test_generate_plain_is_one_forward_per_token(capsys):
    out = run_json(capsys, "generate", "--pair", "tiny", "--prompt", "春山", "--max-new-tokens", "10", "--temperature", "0", "--plain", "--json")
    assert out["target_forwards"] == len(out["tokens"])


def test_generate_prints_a_coloured_trace(capsys):
    assert main(["generate", "--pair", "tiny", "--prompt", "春山", "--max-new-tokens", "10"]) == 0
    out = capsys.readouterr().out
    assert "\033[32m" in out and "sealed" in out


def test_proof_json_keys_and_a_broken_rule(capsys):
    exact = run_json(capsys, "proof", "--pair", "tiny", "--samples", "4000", "--positions", "1", "--seed", "3", "--json")
    assert {"p_value", "tv", "samples"} <= exact.keys() and exact["samples"] == 4000
    broken = run_json(capsys, "proof", "--pair", "tiny", "--samples", "4000", "--rule", "accept-all", "--json")
    assert broken["p_value"] < 1e-4 < exact["p_value"]


def test_proof_of_a_tree_runs_the_tree_rule_and_a_tree_rule_without_a_tree_is_refused(capsys):
    tree = run_json(capsys, "proof", "--pair", "tiny", "--samples", "2000", "--tree", "2-1", "--rule", "tree-no-residual", "--json")
    assert tree["samples"] == 2000 and tree["rule"] == "tree-no-residual"
    assert main(["proof", "--pair", "tiny", "--samples", "100", "--rule", "tree-no-residual"]) == 2
    assert "only on a tree: add --tree" in capsys.readouterr().err


def test_bench_json_keys(capsys):
    out = run_json(capsys, "bench", "--pair", "tiny", "--k", "2", "--tokens", "8", "--repeats", "1", "--vs-hf", "--json")
    assert {"tokens_per_s", "speedup_vs_plain", "ratio_vs_hf", "alpha", "c", "predicted_speedup", "overhead_fraction"} <= out.keys()
    assert set(out["tokens_per_s"]) == {"speculative", "plain", "fastest_plain", "hf_assisted"}
    assert 0 <= out["overhead_fraction"] < 1 and 0 < out["alpha"] <= 1
    assert out["speedup_forwards_only"] > 0
    assert out["prompts"] == 2  # the tiny pair's two example prompts


def test_the_bench_s_headline_is_against_the_fastest_plain_decoding_and_today_s_stands_beside_it(capsys):
    """Issue 34, item 4: both plain decodings timed in one run; the ratios are what they say they divide."""
    out = run_json(capsys, "bench", "--pair", "tiny", "--k", "2", "--tokens", "8", "--repeats", "1", "--json")
    tps = out["tokens_per_s"]
    assert out["speedup_vs_fastest_plain"] == pytest.approx(tps["speculative"] / tps["fastest_plain"])
    assert out["speedup_vs_traced_plain"] == pytest.approx(tps["speculative"] / tps["plain"])
    assert out["speedup_vs_plain"] == out["speedup_vs_traced_plain"]  # the older name keeps its meaning
    low, high = out["speedup_interval_vs_fastest_plain"]
    assert 0 < low <= high and out["speedup_forwards_only"] > 0
    assert headline(out) == {"speedup": out["speedup_vs_fastest_plain"], "interval": [low, high], "baseline": "fastest_plain"}
    assert main(["bench", "--pair", "tiny", "--k", "2", "--tokens", "8", "--repeats", "1"]) == 0
    first, traced, forwards = capsys.readouterr().out.splitlines()[:3]
    assert first.startswith("speedup ") and "against the master's fastest plain decoding" in first
    assert "through the sheet's traced path" in traced and "only the two models' forwards" in forwards


def test_a_report_made_before_the_fastest_baseline_names_its_figure_for_what_it_is():
    older = {"speedup_vs_plain": 1.4, "speedup_interval": [1.3, 1.5]}  # a recording or model-card file of before
    assert headline(older) == {"speedup": 1.4, "interval": [1.3, 1.5], "baseline": "traced_plain"}


def test_the_forwards_only_speedup_leaves_the_loop_s_bookkeeping_out():
    split = {"speculative": {"draft": 1.0, "verify": 1.0, "other": 0.2}, "plain": {"draft": 0.0, "verify": 3.0, "other": 0.7}}
    assert forwards_only_speedup(split) == 1.5  # the wall clock would say 3.7 / 2.2


def test_what_a_command_leaves_out_is_the_pair_s_own_as_the_app_opens_it():
    poetry = _with_pair_defaults(_parser().parse_args(["generate", "--prompt", "床"]))
    assert (poetry.k, poetry.temperature, poetry.max_new_tokens) == (6, 0.8, 48)
    tiny = _with_pair_defaults(_parser().parse_args(["bench", "--pair", "tiny", "--temperature", "0.5"]))
    assert (tiny.k, tiny.temperature, tiny.tokens) == (4, 0.5, 48)
    chat = _with_pair_defaults(_parser().parse_args(["bench", "--pair", "smollm2", "--prompts", "heldout"]))
    assert chat.tokens == 96  # the length the model card's smollm2 figures name
    told = _with_pair_defaults(_parser().parse_args(["bench", "--pair", "smollm2", "--tokens", "32"]))
    assert told.tokens == 32
    chat = _with_pair_defaults(_parser().parse_args(["proof", "--pair", "smollm2", "--k", "2"]))
    assert (chat.k, chat.temperature) == (2, run_defaults("smollm2").temperature)


def test_top_p_left_out_is_the_pair_s_own_and_one_given_wins(monkeypatch):
    from specdec_core.pairs import registry

    monkeypatch.setitem(registry.RUN_DEFAULTS, "smollm2", registry.RunDefaults(temperature=0.6, top_p=0.9))
    chat = _with_pair_defaults(_parser().parse_args(["bench", "--pair", "smollm2"]))
    assert (chat.temperature, chat.top_p) == (0.6, 0.9)
    told = _with_pair_defaults(_parser().parse_args(["generate", "--pair", "smollm2", "--prompt", "Hi", "--top-p", "0.5"]))
    assert told.top_p == 0.5


def test_bench_on_heldout_times_the_pair_s_held_out_prompts(capsys, monkeypatch):
    """--prompts heldout: the pair's committed held-out set (read before any model loads), not its examples."""
    from specdec_core.pairs.smollm2 import heldout_prompts
    from specdec_core.services import bench, cli

    timed = []
    SWEPT = ("k", "speedup_vs_plain", "speedup_forwards_only", "predicted_speedup", "alpha", "c", "verify_cost")
    monkeypatch.setattr(cli, "load_pair", lambda name, device: name)
    monkeypatch.setattr(bench, "run_bench", lambda pair, scribe, settings, prompts, *rest: timed.append(prompts) or dict.fromkeys(SWEPT, 1.0))
    assert main(["bench", "--pair", "smollm2", "--prompts", "heldout", "--sweep-k", "1,2", "--json"]) == 0
    assert timed == [heldout_prompts()] * 2 and len(timed[0]) >= 40


def test_the_poetry_pair_s_held_out_first_lines_are_its_held_out_set():
    from specdec_core.pairs.poetry import POETRY_DIR, heldout_prompts
    from specdec_core.pairs.registry import pair_heldout_prompts

    lines = (POETRY_DIR / "heldout_prompts.txt").read_text(encoding="utf-8").split()
    assert pair_heldout_prompts("poetry") == heldout_prompts() == lines and len(lines) == 6


def test_a_pair_without_a_held_out_set_says_so(capsys):
    assert main(["bench", "--pair", "tiny", "--tokens", "4", "--repeats", "1", "--prompts", "heldout"]) == 2
    assert "pair 'tiny' has no held-out prompt set" in capsys.readouterr().err


def test_bench_times_the_prompts_of_a_file(capsys, tmp_path):
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("春山\n\n  秋水  \n春\n", encoding="utf-8")  # blank lines are skipped
    out = run_json(capsys, "bench", "--pair", "tiny", "--k", "2", "--tokens", "6", "--repeats", "1", "--prompts", str(prompts), "--json")
    assert out["prompts"] == 3
    assert out["tokens_per_target_forward"] >= 1


@pytest.mark.parametrize("content, message", [
    (None, "cannot read the prompts file"),
    (b"", "holds no prompts"),
    (b"\n  \n", "holds no prompts"),
    ("春山".encode("big5"), "is not UTF-8 text"),
    ("春山\n春z\n".encode(), "prompt 2 ('春z'): the vocabulary lacks these characters: z"),
])
def test_a_broken_prompts_file_exits_2_with_a_sentence(capsys, tmp_path, content, message):
    path = tmp_path / "prompts.txt"
    if content is not None:
        path.write_bytes(content)
    assert main(["bench", "--pair", "tiny", "--tokens", "4", "--repeats", "1", "--prompts", str(path)]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["generate", "--pair", "tiny", "--prompt", "春z"], "lacks these characters: z"),
        (["generate", "--pair", "tiny", "--prompt", ""], "empty"),
        (["generate", "--pair", "tiny", "--prompt", "春", "--top-p", "0"], "top-p"),
        (["generate", "--pair", "tiny", "--prompt", "春", "--scribe", "oracle"], "no scribe"),
    ],
)
def test_bad_input_exits_2_with_a_sentence(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_pairs_lists_what_is_available(capsys):
    assert main(["pairs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "tiny" in lines and lines[-1].startswith("or any two models")


HOSTILE_FLAGS = {
    "device meta": (["generate", "--prompt", "春山", "--device", "meta"], "unknown device"),
    "device tpu": (["generate", "--prompt", "春山", "--device", "tpu"], "unknown device"),
    "no samples": (["proof", "--samples", "0"], "--samples"),
    "a million new tokens": (["generate", "--prompt", "春山", "--max-new-tokens", "1000000"], "--max-new-tokens"),
    "more tokens than the context": (["generate", "--prompt", "春山", "--max-new-tokens", "5000"], "do not fit"),
    "seed past 64 bits": (["generate", "--prompt", "春山", "--seed", str(2**70)], "--seed"),
    "k of zero": (["generate", "--prompt", "春山", "--k", "0"], "--k"),
    "temperature NaN": (["generate", "--prompt", "春山", "--temperature", "nan"], "--temperature"),
    "temperature 1e-40": (["generate", "--prompt", "春山", "--temperature", "1e-40"], "temperature must be 0"),  # #38
    "proof at 1e-40": (["proof", "--samples", "100", "--temperature", "1e-40"], "temperature must be 0"),
    "ladder at 1e-40": (["ladder", "--scribes", "lm", "--temperature", "1e-40"], "temperature must be 0"),
    "an empty proof prompt": (["proof", "--samples", "100", "--prompt", ""], "the prompt is empty"),  # #38: used the example
    "ladder out to a missing folder": (["ladder", "--scribes", "lm", "--out", "/no/such/folder/rows.json"], "no folder"),
    "ladder out to a folder": (["ladder", "--scribes", "lm", "--out", "tests"], "is a folder"),
    "top-p negative": (["generate", "--prompt", "春山", "--top-p", "-1"], "--top-p"),
    "sweep of words": (["bench", "--sweep-k", "2,four"], "--sweep-k"),
    "noise above one": (["generate", "--prompt", "春山", "--noise", "7"], "--noise"),
}


@pytest.mark.parametrize("argv, says", HOSTILE_FLAGS.values(), ids=HOSTILE_FLAGS.keys())
def test_a_hostile_flag_gets_one_clear_line_and_no_traceback(capsys, argv, says):
    command, *rest = argv
    try:
        code = main([command, "--pair", "tiny", *rest])
    except SystemExit as stopped:  # argparse refuses a malformed flag by exiting with 2
        code = stopped.code
    err = capsys.readouterr().err
    assert code == 2
    assert says in err and "Traceback" not in err, err
    assert err.strip().splitlines()[-1].count("error") == 1


def test_ladder_prints_the_model_cards_table(capsys):
    assert main(["ladder", "--pair", "tiny", "--scribes", "lm,ngram", "--ks", "1,2", "--tokens", "8", "--repeats", "1"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("| scribe | α |") and [line.split(" | ")[0] for line in lines[2:]] == ["| lm", "| ngram"]


def test_proof_as_the_page_runs_it(capsys):
    assert main(["proof", "--pair", "tiny", "--samples", "1000", "--as-page"]) == 0
    out = capsys.readouterr().out
    assert "1,000 speculative + 1,000 plain samples" in out and "p-values" in out


@pytest.mark.parametrize("samples", [1, 2, 10])
def test_proof_as_the_page_with_too_few_samples_says_it_cannot_test(capsys, samples):
    """#38: so few samples that no joint cell could be tested ended in a traceback from an empty forward."""
    assert main(["proof", "--pair", "tiny", "--samples", str(samples), "--as-page"]) == 0
    out = capsys.readouterr().out
    assert f"{samples} speculative + {samples} plain" in out and "untestable with so few samples" in out


def test_a_tree_run_longer_than_the_cache_s_first_capacity_writes_to_its_end(capsys, monkeypatch):
    """Issue 50, defect 1: a tree run past the cache's first capacity crashed in keep_path (exit 1, a traceback)."""
    from specdec_core.runtimes import lean_llama
    monkeypatch.setattr(lean_llama, "FIRST_CAPACITY", 8)
    out = run_json(capsys, "generate", "--pair", "poetry", "--prompt", "床前明月光，", "--tree", "dynamic-8-128", "--noise", "1", "--temperature", "2",
                   "--max-new-tokens", "24", "--seed", "3", "--json")
    assert len(out["tokens"]) + 7 > lean_llama.FIRST_CAPACITY   # the prompt's 6 characters and BOS, then these


@pytest.mark.parametrize("argv, said", [
    (["generate", "--pair", "tiny", "--prompt", "春", "--k", "99"], "argument --k: 99 is outside 1–32"),
    (["bench", "--pair", "tiny", "--temperature", "nan"], "argument --temperature: nan is outside 0–10"),
    (["generate", "--pair", "tiny", "--prompt", "春", "--tree", "²"], "a tree is written as children per depth"),
])
def test_a_bad_value_is_one_line_that_names_it_not_the_usage_block(capsys, argv, said):
    """Issue 50, defect 9: out-of-range values printed the whole usage block first; '²' printed int()'s message."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2 and said in err and "usage:" not in err and "int()" not in err
    assert len(err.strip().splitlines()) == 1
