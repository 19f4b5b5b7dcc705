"""Three questions per act (#27), each checked against the algorithm (#36), and the teacher's key on the page.

Every option of a question names the claim it makes. CHECKS computes, for each question id, whether
each claim holds, with the project's own functions (verify, the round, theory, one position's rule run
N times) on hand-built distributions, or from the recorded speed run where a measurement decides it.
The right option must be the one whose claim holds; every other claim the check computes must fail.
"""
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
import torch

from app_pages import open_page
from specdec_core.algorithm.round import speculative_round, tree_round
from specdec_core.algorithm.rules import RULES
from specdec_core.algorithm.stats import total_variation
from specdec_core.algorithm.theory import best_k, expected_acceptance, expected_tokens_per_round, speedup
from specdec_core.algorithm.tree_verify import tree_verify
from specdec_core.algorithm.verify import residual, verify
from specdec_core.decoding import one_position
from specdec_core.decoding.generate import plain_generate
from specdec_core.decoding.round_models import FixedScores
from specdec_core.pairs.registry import load_pair
from specdec_core.runtimes.cached_lm import last_logits
from specdec_core.services import recorded
from specdec_core.settings import DecodeSettings, tree_nodes
from ui.iron_rule import runs as iron_rule_data
from ui.parable.quiz import CODA, QUESTIONS, QUIZ
from ui.shared.i18n import markdown_literal

DRAWS = 40_000  # per simulated law: a frequency's standard error is at most 0.0025
CLOSE = 0.02  # total variation within which a simulated law "is" a distribution (noise about 0.006 at V = 5)
TOY = iron_rule_data.toy_position(iron_rule_data.TOY)  # the iron rule page's table: p 月 0.40 光 0.25 …, q 月 0.15 光 0.40 …
OWN_IDEAS = [0.02, 0.03, 0.05, 0.10, 0.80]  # a scribe who writes as he pleases: most of his mass where p is small


def toy_with_q(q: list[float]) -> one_position.Position:
    table = iron_rule_data.TOY.assign(q=[100 * x for x in q])
    return iron_rule_data.toy_position(pd.DataFrame(table))


def written_law(position, rule: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The frequencies of what the rule wrote at the position, of every draw and of the sealed draws alone."""
    draws = one_position.run_rule(position, rule, DRAWS, seed)
    vocab = position.vocab_size
    return one_position.frequencies(draws.written, vocab), one_position.frequencies(draws.written[draws.sealed], vocab)


def sealed_share(position, seed: int = 0) -> float:
    return float(one_position.run_rule(position, "exact", DRAWS, seed).sealed.mean())


class CountingTarget(FixedScores):
    """The same scores after any context, counting the forwards a round asks for and the contexts they read."""

    def __init__(self, logits: torch.Tensor):
        super().__init__(logits)
        self.widths: list[int] = []  # per forward: context tokens read
        self.positions: list[int] = []  # per forward: positions scored

    def score(self, contexts, drafted):
        self.widths.append(contexts.shape[1])
        self.positions.append(drafted.shape[1] + 1)
        return super().score(contexts, drafted)


def toy_logits(position) -> tuple[torch.Tensor, torch.Tensor]:
    return torch.from_numpy(position.target_logits), torch.from_numpy(position.draft_logits)


def glance_cost() -> tuple[float, int]:
    """The recorded speed run's verify cost (a forward over k + 1 positions over a one-position forward) and k."""
    result = recorded.load("speed", "poetry").result
    return result["verify_cost"], result["k"]


# ---- act 1 ----

def act1_per_character(tiny):
    """Plain decoding is the round with no draft: per token, one forward that reads the whole context."""
    target = CountingTarget(toy_logits(TOY)[0])
    context, generator, written = torch.zeros((1, 3), dtype=torch.long), torch.Generator().manual_seed(0), []
    for _ in range(5):
        result = speculative_round(target, None, context, 0, TOY.decode_settings(), generator)
        written.append(result.new_tokens()[0])
        context = torch.cat([context, torch.tensor([written[-1]])], dim=1)
    # the real (tiny) target: change only the first of three characters and the next one's scores change
    ids = [tiny.encode_prompt(text) for text in ("春山水", "秋山水")]
    first, other = (last_logits(tiny.target, torch.tensor([row]))[0, -1] for row in ids)
    return {
        "one_forward_whole_context": len(target.widths) == len(written) and target.widths == [3, 4, 5, 6, 7],
        "last_only": all(width == 1 for width in target.widths) or torch.allclose(first, other),
        "whole_line": any(len(tokens) > 1 for tokens in written),
    }


def act1_why_slow(tiny):
    """Each token's scores depend on the one just written, so plain decoding is n forwards in a row."""
    trace = plain_generate(tiny.as_target(), tiny.encode_prompt("春山"), DecodeSettings(k=1, max_new_tokens=12, stop_at_eos=False))
    contexts = [r.context_len for r in trace.rounds]
    ids = [tiny.encode_prompt(text) for text in ("春山", "春水")]
    after_mountain, after_water = (last_logits(tiny.target, torch.tensor([row]))[0, -1] for row in ids)
    one_after_another = contexts == list(range(contexts[0], contexts[0] + len(trace.tokens)))
    return {"sequential": one_after_another and not torch.allclose(after_mountain, after_water)}


def act1_forward_time(tiny):
    """A recorded glance over k + 1 positions: if the time were per-position arithmetic it would cost k + 1 forwards."""
    cost, k = glance_cost()
    per_position = (cost - 1.0) / k  # a one-position forward = fixed part + one position's arithmetic
    return {"once_per_forward": 1.0 - per_position > 0.5, "per_position_arithmetic": per_position > 0.5}


# ---- act 2 ----

def act2_glances(tiny):
    target_logits, draft_logits = toy_logits(TOY)
    target, k = CountingTarget(target_logits), 6
    result = speculative_round(target, FixedScores(draft_logits), torch.zeros((1, 3), dtype=torch.long), k,
                               TOY.decode_settings(), torch.Generator().manual_seed(0))
    assert result.p.shape[1] == k + 1 and target.positions == [k + 1]  # k drafted positions and one past them
    return {"k": len(target.widths) == k, "one": len(target.widths) == 1, "k_plus_one": len(target.widths) == k + 1}


def act2_own_ideas(tiny):
    own = toy_with_q(OWN_IDEAS)
    imitating, free = one_position.distributions(TOY), one_position.distributions(own)
    written, _ = written_law(own, "exact")
    exact = np.allclose(free.sealed + free.corrected, free.p, atol=1e-6) and total_variation(written, free.p) < CLOSE
    slower = free.alpha < imitating.alpha and expected_tokens_per_round(free.alpha, 6) < expected_tokens_per_round(imitating.alpha, 6)
    return {
        "output_changes": not exact,
        "exact_but_slower": exact and slower,
        "accepts_all": bool((free.accept_prob == 1.0).all()) or sealed_share(own) > 0.99,
    }


def act2_glance_cost(tiny):
    cost, k = glance_cost()
    return {"one_read_of_weights": cost < 2.0 and k + 1 >= 5}  # about one forward, though k + 1 positions are scored


# ---- act 3 ----

def act3_after_rejection(tiny):
    """k = 6: the first four pass surely (p = q), the fifth surely fails (p = 0), the sixth would pass on its own."""
    same = [0.25, 0.25, 0.25, 0.25]
    p = torch.tensor([[same] * 4 + [[1.0, 0.0, 0.0, 0.0], same, same]])  # (1, 7, 4)
    q = torch.tensor([[same] * 4 + [[0.0, 1.0, 0.0, 0.0], same]])  # (1, 6, 4)
    drafted = torch.tensor([[0, 1, 2, 3, 1, 2]])
    verdict = verify(p, q, drafted, torch.Generator().manual_seed(0))
    assert bool(verdict.accepted[0, 5]) and not bool(verdict.accepted[0, 4])  # the sixth's own decision: pass
    written = drafted[0, : int(verdict.n_accepted)].tolist() + [int(verdict.next_token)]
    return {"kept": len(written) > 5, "discarded": written[:4] == [0, 1, 2, 3] and len(written) == 5 and written[4] == 0}


def act3_sealed_alone(tiny):
    dists = one_position.distributions(TOY)
    written, sealed = written_law(TOY, "exact")
    both_only = np.minimum(dists.p, dists.q) / dists.alpha
    assert np.allclose(dists.sealed / dists.alpha, both_only, atol=1e-6)
    return {
        "p": total_variation(sealed, dists.p) < CLOSE,
        "min_over_alpha": total_variation(sealed, both_only) < CLOSE and total_variation(written, dists.p) < CLOSE,
        "q": total_variation(sealed, dists.q) < CLOSE,
    }


def act3_least(tiny):
    target_logits, draft_logits = toy_logits(TOY)
    k, rows = 6, 2_000
    result = speculative_round(FixedScores(target_logits), FixedScores(draft_logits), torch.zeros((rows, 3), dtype=torch.long), k,
                               TOY.decode_settings(), torch.Generator().manual_seed(0))
    counts = [len(tokens) for tokens in result.new_tokens()]
    assert max(counts) == k + 1  # a whole line passed somewhere: the bonus
    return {"none": min(counts) == 0, "one": min(counts) == 1, "k": min(counts) == k}


# ---- act 4 ----

def act4_keep_prob(tiny):
    dists = one_position.distributions(TOY)
    draws = one_position.run_rule(TOY, "exact", DRAWS, seed=0)
    kept = one_position.frequencies(draws.written[draws.sealed], TOY.vocab_size) * draws.sealed.mean() / dists.q  # P(sealed | drafted x)
    candidates = {"p": dists.p, "ratio": np.minimum(1.0, dists.p / dists.q), "q": dists.q}
    return {claim: bool(np.abs(kept - chance).max() < 0.03) for claim, chance in candidates.items()}


def act4_residual(tiny):
    dists = one_position.distributions(TOY)
    draws = one_position.run_rule(TOY, "exact", DRAWS, seed=0)
    corrections = one_position.frequencies(draws.written[~draws.sealed], TOY.vocab_size)
    assert total_variation(corrections, dists.residual) < CLOSE  # the red brush draws from the residual
    candidates = {"p": dists.p, "residual": dists.residual, "q": dists.q}
    return {claim: np.allclose(dists.sealed + (1 - dists.alpha) * law, dists.p, atol=1e-6) for claim, law in candidates.items()}


def act4_resample_p(tiny):
    """The broken rule resample-p, run at the toy table and at a far scribe; its law is min(p, q) + (1 − α)·p."""
    truths = []
    for position in (TOY, toy_with_q(OWN_IDEAS)):
        dists = one_position.distributions(position)
        written, _ = written_law(position, "resample-p")
        assert np.abs(written - (dists.sealed + (1 - dists.alpha) * dists.p)).max() < 0.01
        scribe_likes, master_likes = dists.q > dists.p, int(np.argmax(dists.p))
        truths.append({
            "exact": total_variation(written, dists.p) < CLOSE,
            "favours_master": bool(written[master_likes] > dists.p[master_likes]),
            "favours_scribe": bool((written[scribe_likes] > dists.p[scribe_likes]).all()
                                   and written[np.argmax(dists.q)] > dists.p[np.argmax(dists.q)]),
        })
    return {claim: all(truth[claim] for truth in truths) for claim in truths[0]}


# ---- act 5 ----

def act5_alpha(tiny):
    dists = one_position.distributions(TOY)
    share = sealed_share(TOY)
    assert expected_tokens_per_round(0.9, 6) > expected_tokens_per_round(0.68, 6) > expected_tokens_per_round(0.3, 6)
    return {"accept_rate": abs(expected_acceptance(torch.tensor(dists.p), torch.tensor(dists.q)) - np.minimum(dists.p, dists.q).sum()) < 1e-9
            and abs(share - dists.alpha) < 0.01}


def act5_larger_k(tiny):
    """The speedup over k = 1 … 16, with a glance that costs one forward (the GPU case) and drafts that cost c = 0.1."""
    always = []
    for alpha in (0.5, 0.8):
        scores = [speedup(alpha, k, 0.1) for k in range(1, 17)]
        always.append(all(b >= a for a, b in zip(scores, scores[1:])))
        assert best_k(alpha, 0.1)[0] < 16
    free_drafts = [speedup(0.8, k, 0.0) for k in range(1, 17)]
    assert all(b > a for a, b in zip(free_drafts, free_drafts[1:]))  # the key's caveat: only free drafts never lose
    return {"always": any(always), "has_best_k": not any(always), "gpu_only": any(always)}


def act5_poor_scribe(tiny):
    poor = toy_with_q(OWN_IDEAS)
    good, dists = one_position.distributions(TOY), one_position.distributions(poor)
    written, _ = written_law(poor, "exact", seed=3)
    exact = total_variation(written, dists.p) < CLOSE
    slower = speedup(dists.alpha, 6, 0.1) < min(1.0, speedup(good.alpha, 6, 0.1))
    return {"output_changes": not exact, "exact_but_slower": exact and slower}


# ---- the coda: variants in the margin ----

MARGIN_P = torch.tensor([0.40, 0.25, 0.15, 0.12, 0.08])  # the master's intent at one position
MARGIN_Q = torch.tensor([0.15, 0.40, 0.25, 0.05, 0.15])  # the scribe's: he over-writes the second and third
ROWS = 40_000


def margin_walk(p: torch.Tensor, q: torch.Tensor, tokens: torch.Tensor, rule: str):
    """tree_verify over ROWS rows of two siblings under the root, p and q the same after every node."""
    width = tokens.shape[1] + 1
    return tree_verify(p.expand(ROWS, width, -1).clone(), q.expand(ROWS, width, -1).clone(), tokens,
                       torch.full((tokens.shape[1],), -1), torch.Generator().manual_seed(1), RULES[rule])


def margin_next_variant(tiny):
    """Two variants drawn i.i.d. from q: the second's recorded r(x) is the residual's, and the page follows p;
    the broken tree-no-residual, which tries it against p, does not."""
    tokens = torch.multinomial(MARGIN_Q.expand(ROWS, -1), 2, replacement=True, generator=torch.Generator().manual_seed(0))
    written = {}
    for rule in ("exact", "tree-no-residual"):
        verdict = margin_walk(MARGIN_P, MARGIN_Q, tokens, rule)
        first = torch.where(verdict.n_accepted > 0, tokens.gather(1, verdict.path[:, :1].clamp(min=0))[:, 0], verdict.next_token)
        written[rule] = one_position.frequencies(first.numpy(), len(MARGIN_P))
        if rule == "exact":
            second = verdict.tried[:, 1]
            x, r_x = tokens[second, 1], verdict.r_x[second, 1]
            assert int(second.sum()) > 1000  # the first is struck often: the second is tried
    p = MARGIN_P.numpy()
    exact = total_variation(written["exact"], p) < CLOSE
    assert total_variation(written["tree-no-residual"], p) > 5 * CLOSE  # the check can tell a biased page
    return {
        "whole_intent": torch.allclose(r_x, MARGIN_P[x]) and exact,
        "what_is_left": torch.allclose(r_x, residual(MARGIN_P[None], MARGIN_Q[None])[0, x]) and exact,
        "scribe_hand": torch.allclose(r_x, MARGIN_Q[x]),
    }


class CountingTree(FixedScores):
    """The same scores after any node, counting the master's tree forwards and the scribe's depth forwards."""

    def __init__(self, logits: torch.Tensor):
        super().__init__(logits)
        self.glances, self.drafts = 0, 0

    def score_tree(self, contexts, tokens, parents):
        self.glances += 1
        return super().score_tree(contexts, tokens, parents)

    def tree_logits(self, contexts, tokens, parents, n_last):
        self.drafts += 1
        return super().tree_logits(contexts, tokens, parents, n_last)


def margin_glances(tiny):
    target_logits, draft_logits = toy_logits(TOY)
    master, scribe = CountingTree(target_logits), CountingTree(draft_logits)
    settings = replace(TOY.decode_settings(), tree="2-2-1")
    result = tree_round(master, scribe, torch.zeros((1, 3), dtype=torch.long), settings.shape, settings, torch.Generator().manual_seed(0))
    nodes, depths = result.tokens.shape[1], settings.shape.max_depth
    assert nodes == tree_nodes((2, 2, 1)) and scribe.drafts == depths  # the scribe: one forward a depth
    return {"one": master.glances == 1, "per_depth": master.glances == depths, "per_variant": master.glances == nodes}


def margin_same_twice(tiny):
    """The same character drafted twice where q(x) > p(x): after the first is struck, how often the second stays."""
    p, q = torch.tensor([0.2, 0.5, 0.3]), torch.tensor([0.6, 0.2, 0.2])
    tokens = torch.zeros((ROWS, 2), dtype=torch.long)
    stays = {}
    for rule in ("exact", "tree-no-residual"):
        verdict = margin_walk(p, q, tokens, rule)
        struck = verdict.tried[:, 0] & ~verdict.accepted[:, 0]
        assert int(struck.sum()) > 1000 and bool(verdict.tried[struck, 1].all())
        stays[rule] = float(verdict.accepted[struck, 1].float().mean())
    chance = float(p[0] / q[0])
    assert abs(stays["tree-no-residual"] - chance) < 0.02  # tried against p again, it would get the same chance
    return {"struck_too": stays["exact"] == 0.0, "same_chance": abs(stays["exact"] - chance) < 0.02,
            "always_kept": stays["exact"] == 1.0}


CHECKS = {check.__name__: check for check in (
    act1_per_character, act1_why_slow, act1_forward_time,
    act2_glances, act2_own_ideas, act2_glance_cost,
    act3_after_rejection, act3_sealed_alone, act3_least,
    act4_keep_prob, act4_residual, act4_resample_p,
    act5_alpha, act5_larger_k, act5_poor_scribe,
    margin_next_variant, margin_glances, margin_same_twice,
)}


@pytest.fixture(scope="module")
def tiny_pair():
    return load_pair("tiny", device="cpu")


def test_every_act_has_three_questions_in_both_languages():
    assert list(QUIZ) == [1, 2, 3, 4, 5, CODA] and all(len(questions) == 3 for questions in QUIZ.values())
    for question in QUESTIONS.values():
        claims = [option.claim for option in question.options]
        assert len(set(claims)) == len(claims) >= 2 and question.right in claims
        for text in (question.ask, question.why, question.key, *(option.text for option in question.options)):
            assert set(text) == {"zh", "en"} and text["zh"] and text["en"]
            assert not any("\u4e00" <= ch <= "\u9fff" for ch in text["en"])
        assert any("\u4e00" <= ch <= "\u9fff" for ch in question.ask["zh"] + question.why["zh"] + question.key["zh"])


def test_every_question_has_a_check():
    assert set(CHECKS) == set(QUESTIONS)


@pytest.mark.parametrize("question_id", list(QUESTIONS))
def test_the_right_answer_is_the_claim_that_holds(question_id, tiny_pair):
    """The right option's claim holds by the algorithm (or the recorded run); every other computed claim fails."""
    question = QUESTIONS[question_id]
    truths = CHECKS[question_id](tiny_pair)
    assert set(truths) <= {option.claim for option in question.options}
    assert truths[question.right], f"{question_id}: the right answer {question.right!r} does not hold"
    wrong = [claim for claim, holds in truths.items() if holds and claim != question.right]
    assert not wrong, f"{question_id}: {wrong} also hold"


def test_act_three_tells_a_line_the_default_k_can_draft():
    """The act and its questions speak of a six-character line (the poetry pair's k = 6), not a seventh character."""
    from specdec_core.pairs.registry import run_defaults
    from ui.parable.texts import TEXT

    k = run_defaults("poetry").k
    story = TEXT.table["act3"]["zh"] + TEXT.table["act3"]["en"]
    assert k == 6 and "六字" in story and "six characters" in story
    quiz = " ".join(q.ask[lang] for q in QUIZ[3] for lang in ("zh", "en"))
    assert "第七" not in story + quiz and "seventh" not in story + quiz


def test_an_answer_is_marked_and_explained():
    app = open_page("parable", "en")
    app.radio(key="quiz_act4_keep_prob_en").set_value(QUESTIONS["act4_keep_prob"].right_index).run()
    app.radio(key="quiz_act4_residual_en").set_value(0).run()  # resampling from p: the wrong answer
    assert not app.exception
    assert any(s.value.startswith("Right. ") and "iron rule" in s.value for s in app.success)
    # #49: a wrong pick read "Not quite. That is the iron rule…", as if the pick were the rule; the answer comes first
    right = QUESTIONS["act4_residual"].options[QUESTIONS["act4_residual"].right_index].text["en"]
    assert any(e.value.replace("\\", "").startswith(f"Not quite: the answer is “{right}”") for e in app.error), \
        [e.value for e in app.error]


@pytest.mark.parametrize("language, title", [("zh", "教師解答"), ("en", "Teacher's answer key")])
def test_the_page_shows_the_teachers_key_in_both_languages(language, title):
    app = open_page("parable", language)
    assert not app.exception
    keys = [expander for expander in app.expander if expander.label.startswith(title)]
    assert len(keys) == len(QUIZ)
    for expander, questions in zip(keys, QUIZ.values()):
        shown = " ".join(markdown.value for markdown in expander.markdown)
        for question in questions:
            answer = question.options[question.right_index].text[language]
            for text in (question.ask[language], answer, question.key[language]):
                assert markdown_literal(text) in shown


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_coda_tells_the_variants_in_the_margin_in_both_languages(language):
    """The coda stands after the five acts with its story, its algorithm and its three questions, in the reader's language."""
    from ui.parable.texts import TEXT

    app = open_page("parable", language)
    assert not app.exception
    titles = [header.value for header in app.subheader]
    coda = titles.index(TEXT.table["coda_title"][language])
    assert coda > titles.index(TEXT.table["act5_title"][language])
    story = {TEXT.table[key][language] for key in ("coda", "coda_is")}
    assert story <= {markdown.value for markdown in app.markdown} | {caption.value for caption in app.caption}
    assert any(radio.key == f"quiz_margin_same_twice_{language}" for radio in app.radio)
