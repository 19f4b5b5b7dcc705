"""Siblings drawn without replacement (settings siblings="distinct"), verified by recursive rejection sampling.

Forced outcomes on hand-built distributions, then the output law: at 120,000 trials the first token follows p
(goodness of fit) for small p and q, a twin-heavy q among them, while distinct draws verified with the i.i.d.
rule's q instead of q_i are caught (their exact law, enumerated here, is first shown to differ from p). Then the
engine on the poetry pair: greedy trees write the master's greedy text, sampled trees hold no twins and record
each node's q_i; the proof's batched round on the tiny pair passes and catches the i.i.d. rule's q; the feature
scribe drafts distinct siblings too; and the setting, the trace and the command line carry the choice.
"""
import json
from dataclasses import replace

import numpy as np
import pytest
import torch

from specdec_core.algorithm import round as round_module
from specdec_core.algorithm.round import _distinct_draws
from specdec_core.algorithm.rules import RULES
from specdec_core.algorithm.sampling import sample
from specdec_core.algorithm.stats import goodness_of_fit
from specdec_core.algorithm.trace import Trace, TreeNode
from specdec_core.algorithm.tree_verify import distinct_draft_probs, tree_verify
from specdec_core.decoding.generate import plain_generate, speculative_generate
from specdec_core.decoding.proof import run_proof
from specdec_core.pairs.registry import load_pair
from specdec_core.services.bench import twin_share, variants_by_order
from specdec_core.services.cli import _parser
from specdec_core.settings import DecodeSettings, SamplingConfig, SettingsError

PROMPT = "床前明月光，"
TRIALS = 120_000


def gen(seed=0):
    return torch.Generator().manual_seed(seed)


def seed_whose_uniforms(condition, n: int) -> int:
    """A seed whose first n uniforms (the u of nodes 0..n-1, drawn first by tree_verify) satisfy condition."""
    return next(s for s in range(10_000) if condition(torch.rand(n, generator=gen(s)).tolist()))


# Three siblings under the root, drawn without replacement: 0 from q, then 2 from q_2 = q less token 0 =
# [0, 0.4, 0.6], then 1 from q_3 = [0, 1, 0]. The first scores min(1, 0.1/0.5) = 0.2; on rejection
# r_2 = norm(max(0, p - q)) = [0, 0.75, 0.25], against which token 2 scores 0.25/0.6 = 5/12 (the i.i.d. rule's
# q would give 0.25/0.3 = 5/6); on rejection r_3 = norm(max(0, r_2 - q_2)) = [0, 1, 0], and token 1 scores 1/1.
ROOT_P, ROOT_Q = [0.1, 0.5, 0.4], [0.5, 0.2, 0.3]


def siblings_under_root(tokens, siblings="distinct", seed=0, q=ROOT_Q):
    n = len(tokens)
    p = torch.tensor([[ROOT_P] + [[1 / 3] * 3] * n])  # (1, N+1, 3): only the bonus reads p after a node
    q = torch.tensor([[q] + [[0.0] * 3] * n])
    return tree_verify(p, q, torch.tensor([tokens]), torch.full((n,), -1), gen(seed), siblings=siblings)


def q_i_of(q, tokens, parents) -> list[float]:
    return distinct_draft_probs(torch.tensor([q]), torch.tensor([tokens]), torch.tensor(parents))[0].tolist()


def test_q_i_is_q_renormalised_over_the_tokens_the_elder_siblings_left():
    q = [ROOT_Q, [0.0] * 3, [0.0] * 3, [0.0] * 3]
    assert q_i_of(q, [0, 2, 1], [-1, -1, -1]) == pytest.approx([0.5, 0.6, 1.0])
    # a repeated token could not have been drawn without replacement: q_i gives it nothing
    assert q_i_of(q, [0, 0, 1], [-1, -1, -1]) == pytest.approx([0.5, 0.0, 0.4])
    # siblings under different parents do not remove each other's tokens
    assert q_i_of([ROOT_Q, ROOT_Q, [0.0] * 3, [0.0] * 3], [0, 0, 2], [-1, 0, 0]) == pytest.approx([0.5, 0.5, 0.6])


def test_the_second_distinct_sibling_is_tested_with_q_i_against_the_residual():
    seed = seed_whose_uniforms(lambda u: u[0] >= 0.2 and u[1] < 5 / 12, 3)
    verdict = siblings_under_root([0, 2, 1], seed=seed)
    assert verdict.accepted.tolist() == [[False, True, False]] and verdict.tried.tolist() == [[True, True, False]]
    assert verdict.r_x[0, :2].tolist() == pytest.approx([0.1, 0.25])
    assert verdict.q_i[0].tolist() == pytest.approx([0.5, 0.6, 1.0])
    assert verdict.q_x[0].tolist() == pytest.approx([0.5, 0.3, 0.2])  # q itself, as the chart shows it
    assert verdict.accept_prob[0, :2].tolist() == pytest.approx([0.2, 5 / 12])


def test_the_iid_rule_would_score_the_same_draws_with_q_and_accept_more_often():
    verdict = siblings_under_root([0, 2, 1], siblings="iid", seed=seed_whose_uniforms(lambda u: u[0] >= 0.2, 3))
    assert verdict.accept_prob[0, 1].item() == pytest.approx(5 / 6)


def test_when_the_distinct_siblings_cover_q_the_last_one_is_accepted_surely():
    for seed in range(40):
        verdict = siblings_under_root([0, 2, 1], seed=seed)
        assert verdict.n_accepted.item() == 1  # r_3 = q_3 = [0, 1, 0]: nothing is left for a correction


def test_when_every_distinct_sibling_is_rejected_the_token_comes_from_the_last_residual():
    seed = seed_whose_uniforms(lambda u: u[0] >= 0.2 and u[1] >= 5 / 12, 2)
    verdict = siblings_under_root([0, 2], seed=seed)
    assert verdict.n_accepted.item() == 0 and verdict.tried.tolist() == [[True, True]]
    assert verdict.next_dist[0].tolist() == pytest.approx([0.0, 1.0, 0.0]) and verdict.next_token.item() == 1


def test_a_placeholder_past_qs_tokens_is_never_accepted_and_leaves_the_residual_as_it_was():
    # q holds two tokens; a third sibling can only repeat one: q_i = 0 there
    q = [0.6, 0.4, 0.0]
    for seed in range(40):
        verdict = siblings_under_root([0, 1, 0], seed=seed, q=q)
        assert not verdict.accepted[0, 2] and verdict.q_i[0, 2].item() == 0.0
        if verdict.n_accepted.item() == 0:  # both real siblings struck: the token comes from norm(max(0, r_2 - q_2))
            assert verdict.tried[0, 2] and verdict.next_token.item() == 2
            assert verdict.next_dist[0].tolist() == pytest.approx([0.0, 0.0, 1.0])


def test_distinct_draws_never_repeat_a_token_while_q_has_tokens_left():
    q = torch.tensor([[[0.7, 0.2, 0.1, 0.0], [0.25, 0.25, 0.25, 0.25]]]).expand(500, 2, 4)  # (B, F, V)
    first = sample(q, gen(1))
    drawn = _distinct_draws(first, q, 4, RULES["exact"], gen(2))  # (B, F, 4)
    assert all(len(set(row)) == 4 for row in drawn[:, 1].tolist())  # a full q: every token once
    assert all(sorted(row[:3]) == [0, 1, 2] for row in drawn[:, 0].tolist())  # q's three tokens, then a placeholder
    q_i = distinct_draft_probs(torch.cat([q[:, :1], torch.zeros(500, 4, 4)], 1), drawn[:, 0], torch.full((4,), -1))
    assert (q_i[:, 3] == 0).all() and (q_i[:, :3] > 0).all()  # the fourth of three tokens is a placeholder


# The output law at one node. Each case: p, q and how many siblings; the second is twin-heavy (i.i.d. draws
# repeat 0.9² + 0.08² ≈ 82% of the time), the third asks for more siblings than q has tokens, the fourth has p
# mass where q has none.
CASES = {
    "far": ([0.35, 0.25, 0.15, 0.12, 0.08, 0.05], [0.02, 0.03, 0.10, 0.15, 0.30, 0.40], 3),
    "twin-heavy": ([0.30, 0.45, 0.20, 0.05], [0.90, 0.08, 0.02, 0.00], 2),
    "few tokens": ([0.2, 0.2, 0.5, 0.1], [0.6, 0.0, 0.4, 0.0], 3),
    "p beyond q": ([0.1, 0.2, 0.3, 0.4], [0.4, 0.4, 0.2, 0.0], 2),
}


def distinct_first_tokens(p_root, q_root, siblings: int, verified_as: str, seed: int) -> np.ndarray:
    """TRIALS rounds of one level: siblings drawn without replacement by the round's own drawing, verified as
    `verified_as` ("distinct": with q_i; "iid": with q, the negative control); the first token's counts."""
    g = gen(seed)
    vocab = len(p_root)
    p_root, q_root = torch.tensor(p_root, dtype=torch.float64), torch.tensor(q_root, dtype=torch.float64)
    q_level = q_root.expand(TRIALS, 1, vocab)  # (B, F=1, V)
    tokens = _distinct_draws(sample(q_level, g), q_level, siblings, RULES["exact"], g)[:, 0]  # (B, m)
    after = torch.full((TRIALS, siblings, vocab), 1 / vocab, dtype=torch.float64)  # only the bonus reads p there
    p = torch.cat([p_root.expand(TRIALS, 1, vocab), after], 1)
    q = torch.cat([q_level, torch.zeros((TRIALS, siblings, vocab), dtype=torch.float64)], 1)
    verdict = tree_verify(p, q, tokens, torch.full((siblings,), -1), g, siblings=verified_as)
    first_node = verdict.path[:, 0].clamp(min=0)
    first = torch.where(verdict.n_accepted > 0, tokens.gather(1, first_node[:, None])[:, 0], verdict.next_token)
    return np.bincount(first.numpy(), minlength=vocab)


def exact_law(p, q, siblings: int, verified_as: str) -> np.ndarray:
    """The first token's exact distribution, enumerated over every sequence of distinct draws: a reference in
    plain Python for the recursion (tested with q_i, or with q as the i.i.d. rule would)."""
    p, q, vocab = np.array(p), np.array(q), len(p)
    law = np.zeros(vocab)

    def residual(r, q_used):
        left = np.maximum(r - q_used, 0)
        return left / left.sum() if left.sum() > 1e-12 else r

    def walk(drawn, chance, r):
        if len(drawn) == siblings or chance == 0:
            law[:] += chance * r
            return
        q_i = q.copy()
        q_i[list(drawn)] = 0
        if q_i.sum() == 0:  # q has no tokens left: the remaining siblings are placeholders, never accepted
            law[:] += chance * r
            return
        q_i /= q_i.sum()
        q_test = q_i if verified_as == "distinct" else q
        for x in np.flatnonzero(q_i):
            accept = min(1.0, r[x] / q_test[x])
            law[x] += chance * q_i[x] * accept
            walk(drawn + (x,), chance * q_i[x] * (1 - accept), residual(r, q_test))

    walk((), 1.0, p)
    return law


@pytest.mark.parametrize("case", list(CASES))
def test_the_exact_law_of_distinct_siblings_is_p_and_verifying_them_with_q_is_not(case):
    p, q, siblings = CASES[case]
    assert exact_law(p, q, siblings, "distinct") == pytest.approx(p, abs=1e-12)
    biased = exact_law(p, q, siblings, "iid")
    assert 0.5 * np.abs(biased - np.array(p)).sum() > 0.02  # the negative control is biased, by this much


@pytest.mark.parametrize("case", list(CASES))
def test_the_first_token_of_distinct_siblings_follows_p_and_the_iid_rules_q_is_caught(case):
    p, q, siblings = CASES[case]
    exact = distinct_first_tokens(p, q, siblings, "distinct", seed=11)
    broken = distinct_first_tokens(p, q, siblings, "iid", seed=11)
    assert goodness_of_fit(exact, np.array(p)).p_value > 0.001
    assert goodness_of_fit(broken, np.array(p)).p_value < 1e-6
    assert goodness_of_fit(broken, exact_law(p, q, siblings, "iid")).p_value > 0.001  # caught for the bias derived


def test_two_levels_of_distinct_siblings_write_the_first_two_tokens_by_p():
    """A 2-2 tree of distinct siblings, p(x2 | x1) and q(x2 | x1) per first token: the pair (x1, x2) follows p."""
    p1, q1 = torch.tensor(CASES["far"][0], dtype=torch.float64), torch.tensor(CASES["far"][1], dtype=torch.float64)
    p2 = torch.softmax(1.5 * torch.randn(6, 6, generator=gen(7), dtype=torch.float64), -1)
    q2 = torch.softmax(1.5 * torch.randn(6, 6, generator=gen(8), dtype=torch.float64), -1)
    g = gen(21)
    level = q1.expand(TRIALS, 1, 6)
    first = _distinct_draws(sample(level, g), level, 2, RULES["exact"], g)[:, 0]  # (B, 2)
    under = q2[first]  # (B, 2, V) q after each first-level node
    second = _distinct_draws(sample(under, g), under, 2, RULES["exact"], g).reshape(TRIALS, 4)
    tokens = torch.cat([first, second], 1)
    leaves = torch.full((TRIALS, 4, 6), 1 / 6, dtype=torch.float64)
    p = torch.cat([p1.expand(TRIALS, 1, 6), p2[first], leaves], 1)  # (B, 7, 6)
    q = torch.cat([level, under, torch.zeros_like(leaves)], 1)
    verdict = tree_verify(p, q, tokens, torch.tensor([-1, -1, 0, 0, 1, 1]), g, siblings="distinct")
    node = verdict.path.clamp(min=0)
    x1 = torch.where(verdict.n_accepted > 0, tokens.gather(1, node[:, :1])[:, 0], verdict.next_token)
    # where the walk ended at the root or after x1, the second token comes from the next draw: p there is exact
    # (the verdict's own next token after x1, or a fresh draw of p(x2 | x1) where this round wrote only x1)
    fresh = sample(p2[x1], g)
    x2 = torch.where(verdict.n_accepted >= 2, tokens.gather(1, node[:, 1:2])[:, 0],
                     torch.where(verdict.n_accepted == 1, verdict.next_token, fresh))
    joint = (p1[:, None] * p2).reshape(-1).numpy()
    assert goodness_of_fit(np.bincount((6 * x1 + x2).numpy(), minlength=36), joint).p_value > 0.001


# The engine on the poetry pair with its distilled scribe.
@pytest.fixture(scope="module")
def poetry():
    return load_pair("poetry", device="cpu")


def run(poetry, temperature: float, tree: str, seed: int = 3, tokens: int = 40, siblings: str = "distinct") -> Trace:
    settings = DecodeSettings(sampling=SamplingConfig(temperature=temperature), max_new_tokens=tokens, tree=tree,
                              seed=seed, stop_at_eos=False, siblings=siblings)
    return speculative_generate(poetry.as_target(), poetry.draft("distilled"), poetry.encode_prompt(PROMPT), settings)


@pytest.mark.parametrize("tree", ["2-2-1", "3-1-1"])
def test_a_greedy_tree_of_distinct_siblings_writes_the_masters_greedy_text(poetry, tree):
    settings = DecodeSettings(sampling=SamplingConfig(temperature=0), max_new_tokens=40, stop_at_eos=False)
    plain = plain_generate(poetry.as_target(), poetry.encode_prompt(PROMPT), settings)
    assert run(poetry, 0.0, tree).tokens == plain.tokens


def test_a_sampled_run_has_no_twins_and_records_each_nodes_q_i(poetry):
    trace = run(poetry, 1.0, "3-2-1", tokens=48)
    nodes = 0
    for r in trace.rounds:
        for parent in {node.parent for node in r.tree}:
            siblings = [node for node in r.tree if node.parent == parent]
            assert len({node.token for node in siblings}) == len(siblings)  # no twins
            taken = 0.0
            for node in siblings:  # q_i(x) = q(x) / (1 - the q its elder siblings held), up to float32 sums of q:
                # q sums to 1 only to about 2e-6 over 6,515 tokens, an error 1 - taken carries when an elder held nearly all
                assert node.q_i == pytest.approx(node.q / (1 - taken), rel=2e-3 + 2e-6 / (1 - taken), abs=1e-7)
                taken += node.q
                nodes += 1
                if node.tried:
                    assert node.accept_prob == pytest.approx(min(1.0, node.r / node.q_drawn), rel=1e-4, abs=1e-7)
    assert nodes > 20 and twin_share(trace.rounds) == 0.0
    assert trace.settings["siblings"] == "distinct"
    again = Trace.from_json(trace.to_json())
    assert again.rounds[0].tree == trace.rounds[0].tree


def test_an_iid_run_does_draw_twins_and_records_no_q_i(poetry):
    """The control for the test above: at T = 1 the i.i.d. scribe repeats its elder sibling often on this pair."""
    trace = run(poetry, 1.0, "3-2-1", tokens=48, siblings="iid")
    assert twin_share(trace.rounds) > 0.05
    assert all(node.q_i is None and node.q_drawn == node.q for r in trace.rounds for node in r.tree)
    assert "siblings" not in trace.settings
    orders = variants_by_order(trace.rounds)
    assert [row["order"] for row in orders][:2] == [1, 2] and orders[0]["tried"] >= orders[1]["tried"]


def test_a_trace_written_before_distinct_siblings_loads_with_no_q_i(poetry):
    data = json.loads(run(poetry, 1.0, "2-1", tokens=12, siblings="iid").to_json())
    for r in data["rounds"]:
        for node in r["tree"]:
            del node["q_i"]
    again = Trace.from_json(json.dumps(data))
    assert again.rounds and all(isinstance(n, TreeNode) and n.q_i is None for r in again.rounds for n in r.tree)


@pytest.mark.parametrize("verified_as", ["distinct", "iid"])
def test_many_rows_of_distinct_siblings_follow_p_and_verifying_them_with_q_is_caught(tiny, tiny_prompt, monkeypatch,
                                                                                    verified_as):
    """The proof's batched round on the tiny pair, three siblings a round, the first two tokens of 100,000 rows: rows
    share one tree's layout, and at the second token top-p leaves some rows fewer tokens than the siblings asked
    (their extras are placeholders). The negative control draws the same distinct siblings and verifies them with
    the i.i.d. rule's q, through the round's own call (its bias at the first token, by exact_law: TV 0.014)."""
    if verified_as == "iid":
        monkeypatch.setattr(round_module, "tree_verify", lambda *args: tree_verify(*args[:-1], siblings="iid"))
    settings = DecodeSettings(seed=2, sampling=SamplingConfig(temperature=0.8, top_p=0.9), siblings="distinct")
    report = run_proof(tiny.target, tiny.draft("lm"), tiny_prompt, 100_000, 2, settings, batch_size=10_000, branching=(3,))
    assert (report.fit.p_value > 0.001) if verified_as == "distinct" else (report.fit.p_value < 1e-6)


def test_the_setting_is_validated_left_out_by_default_and_read_back():
    with pytest.raises(SettingsError, match="'iid' or 'distinct'"):
        DecodeSettings(tree="2-1", siblings="twins")
    assert "siblings" not in DecodeSettings(tree="2-1").as_dict()
    distinct = DecodeSettings(tree="2-1", siblings="distinct")
    assert DecodeSettings.from_dict(distinct.as_dict()) == distinct


def test_generate_and_bench_take_siblings_on_the_command_line(capsys):
    parser = _parser()
    assert parser.parse_args(["bench", "--tree", "2-1-1", "--siblings", "distinct"]).siblings == "distinct"
    assert parser.parse_args(["generate", "--prompt", "x", "--siblings", "distinct"]).siblings == "distinct"
    assert parser.parse_args(["generate", "--prompt", "x"]).siblings == "iid"
    with pytest.raises(SystemExit):
        parser.parse_args(["generate", "--prompt", "x", "--siblings", "twins"])
    assert "invalid choice" in capsys.readouterr().err


# The feature scribe drafts its trees through the same round: distinct siblings there too.
@pytest.fixture(scope="module")
def feature_run(tiny, tiny_prompt):
    from tests.test_feature_scribe import SETTINGS, fresh_scribe, llama_master, llama_pair
    from specdec_core.drafts.feature import FEATURE_SCRIBE, FeatureDraft

    master = llama_master(tiny.vocab_size)
    torch.manual_seed(5)
    scribe = fresh_scribe(master, torch.arange(3, master.config.vocab_size)).eval()
    with torch.no_grad():  # a scribe whose layer matters, as test_feature_scribe's
        for param in scribe.layer.parameters():
            if param.dim() == 2:
                param.normal_(0, 0.3)
    target = llama_pair(master, tiny).as_target()

    def generate(settings):
        draft = FeatureDraft(FEATURE_SCRIBE, scribe, master, tiny.vocab_size)
        return speculative_generate(target, draft, tiny_prompt, settings)

    return target, generate, replace(SETTINGS, max_new_tokens=30, stop_at_eos=False)


def test_the_feature_scribes_distinct_siblings_have_no_twins_and_a_chain_shape_is_the_chain(feature_run):
    target, generate, settings = feature_run
    trace = generate(replace(settings, tree="3-2-1", siblings="distinct"))
    for r in trace.rounds:
        for parent in {n.parent for n in r.tree}:
            siblings = [n.token for n in r.tree if n.parent == parent]
            assert len(set(siblings)) == len(siblings)
    assert sum(len(r.tree) for r in trace.rounds) > 20
    assert generate(replace(settings, tree="1-1-1", siblings="distinct")).tokens == generate(settings).tokens


def test_the_feature_scribes_greedy_distinct_tree_writes_the_masters_text(feature_run, tiny_prompt):
    target, generate, settings = feature_run
    greedy = replace(settings, sampling=SamplingConfig(temperature=0.0), tree="3-2-1", siblings="distinct")
    assert generate(greedy).tokens == plain_generate(target, tiny_prompt, greedy).tokens
