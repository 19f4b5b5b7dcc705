"""The graph runtime (ONNX Runtime over runtimes/llama_graph.py) computes the lean forward's p: chains, trees,
kept paths and a growing cache give the torch forward's logits to float rounding; the shipped master's greedy
text is the same in both; graphs are kept on disk under a name that changes with the weights."""
import pytest
import torch

from specdec_core.decoding.generate import plain_tokens
from specdec_core.pairs.poetry import POETRY_DIR
from specdec_core.pairs.registry import load_pair
from specdec_core.runtimes import graph_llama, llama_graph
from specdec_core.runtimes.graph_llama import GraphLlamaLM, attach_graph, torch_beside_graph
from specdec_core.runtimes.int4_blocks import int4_blocks, int4_weights
from specdec_core.runtimes.lean_llama import LeanLlamaLM, cached_lm_for
from specdec_core.runtimes.slot_cache import node_paths
from specdec_core.settings import DecodeSettings, SamplingConfig
from tests.test_lean_tree import CONTEXT, PARENTS, TOKENS
from tests.test_shared_embedding_draft import llama_master

CLOSE = dict(atol=1e-4, rtol=0)     # float32 in both, summed in another order


@pytest.fixture(scope="module")
def master(tiny, tmp_path_factory):
    """A float32 Llama with grouped key/value heads, its graph built into a folder of this test's own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(llama_graph, "CACHE_DIR", tmp_path_factory.mktemp("graphs"))
        model = llama_master(tiny.vocab_size, hidden=64)      # heads of 16: the runtime's attention needs a multiple
        assert attach_graph(model)
    return model


def lean(model) -> LeanLlamaLM:
    return LeanLlamaLM(model)


def test_a_model_with_a_graph_decodes_through_it(master, tiny):
    assert isinstance(cached_lm_for(master), GraphLlamaLM)
    assert not llama_graph.graph_fits(llama_master(tiny.vocab_size))      # heads of 8: torch runs it


def test_a_chain_s_logits_are_the_lean_forward_s(master):
    graph, torch_lm = cached_lm_for(master), lean(master)
    torch.testing.assert_close(graph.logits(CONTEXT, n_last=3), torch_lm.logits(CONTEXT, n_last=3), **CLOSE)
    drafted = CONTEXT + [10, 11, 12, 13]
    torch.testing.assert_close(graph.logits(drafted, n_last=4), torch_lm.logits(drafted, n_last=4), **CLOSE)
    graph.rollback(len(CONTEXT) + 1)               # a round rejected the drafts after the first
    torch_lm.rollback(len(CONTEXT) + 1)
    after = drafted[: len(CONTEXT) + 1] + [5]
    torch.testing.assert_close(graph.logits(after), torch_lm.logits(after), **CLOSE)


def test_every_node_of_a_tree_scores_as_its_own_path_would(master):
    graph = cached_lm_for(master)
    graph.logits(CONTEXT[:-1])
    got = graph.tree_logits(CONTEXT, TOKENS, PARENTS, n_last=len(TOKENS) + 1)
    torch.testing.assert_close(got[0], lean(master).logits(CONTEXT)[-1], **CLOSE)
    for node, path in enumerate(node_paths(TOKENS, PARENTS)):
        torch.testing.assert_close(got[node + 1], lean(master).logits(CONTEXT + path)[-1], **CLOSE)


def test_a_tree_fed_into_an_empty_cache_scores_each_node_as_its_path(master):
    """The runtime's attention reads a first forward as a prompt (causal, its mask unread): the graph feeds the
    first token alone, so a tree read with its context in one forward is still a tree."""
    got = cached_lm_for(master).tree_logits(CONTEXT, TOKENS, PARENTS, n_last=len(TOKENS) + 1)
    for node, path in enumerate(node_paths(TOKENS, PARENTS)):
        torch.testing.assert_close(got[node + 1], lean(master).logits(CONTEXT + path)[-1], **CLOSE)


@pytest.mark.parametrize("path", [[1, 6, 12], [0, 3, 9], [2]])
def test_keeping_a_path_leaves_the_graph_s_cache_as_a_plain_forward_of_it(master, path):
    graph = cached_lm_for(master)
    graph.tree_logits(CONTEXT, TOKENS, PARENTS, n_last=1)
    graph.keep_path(path)
    following = CONTEXT + [TOKENS[node] for node in path] + [3, 14]
    torch.testing.assert_close(graph.logits(following, n_last=2), lean(master).logits(following, n_last=2), **CLOSE)


def test_the_cache_grows_past_its_first_capacity_inside_a_tree(master, monkeypatch):
    monkeypatch.setattr(graph_llama, "FIRST_CAPACITY", 8)
    graph = cached_lm_for(master)
    graph.logits(CONTEXT[:-1])
    graph.tree_logits(CONTEXT, TOKENS, PARENTS, n_last=1)          # 22 slots of 8: grown in the forward
    assert graph.capacity >= len(CONTEXT) + len(TOKENS)
    graph.keep_path([1, 6, 12])
    following = graph.cached + [3]
    torch.testing.assert_close(graph.logits(following), lean(master).logits(following), **CLOSE)


def test_the_states_a_feature_scribe_reads_are_the_lean_forward_s(master):
    graph, torch_lm = cached_lm_for(master), lean(master)
    graph.logits(CONTEXT)
    torch_lm.logits(CONTEXT)
    torch.testing.assert_close(graph.states[: len(CONTEXT)], torch_lm.states[: len(CONTEXT)], **CLOSE)


def test_a_graph_is_kept_on_disk_and_built_anew_when_the_weights_change(tiny, tmp_path, monkeypatch):
    monkeypatch.setattr(llama_graph, "CACHE_DIR", tmp_path)
    model = llama_master(tiny.vocab_size, hidden=64)
    first = llama_graph.graph_file(model)
    assert llama_graph.graph_file(model) == first and len(list(tmp_path.iterdir())) == 1   # kept, not rebuilt
    with torch.no_grad():
        model.model.layers[0].mlp.down_proj.weight[0, 0] += 0.5
    changed = llama_graph.graph_file(model)
    assert changed != first and changed.exists()
    monkeypatch.setattr(llama_graph, "BUILDER_VERSION", llama_graph.BUILDER_VERSION + 1)
    assert llama_graph.graph_file(model) != changed                # another builder's graph is not this one's


def test_four_bit_blocks_hold_each_weight_to_half_a_step_of_its_block():
    weight = torch.randn(6, 64, generator=torch.Generator().manual_seed(0))
    packed, scales = int4_blocks(weight)
    assert packed.shape == (6, 2, 16) and packed.dtype == torch.uint8 and scales.shape == (12,)
    rounded = int4_weights(weight)
    step = scales.reshape(6, 2, 1).expand(6, 2, 32).reshape(6, 64)
    assert ((rounded - weight).abs() <= step / 2 + 1e-6).all()
    assert torch.equal(int4_weights(rounded), rounded)              # weights on the grid stay where they are
    with pytest.raises(ValueError, match="divisible by 32"):
        int4_blocks(torch.ones(2, 40))


def test_torch_works_on_one_thread_while_a_graph_decodes_and_gets_its_threads_back(master):
    before = torch.get_num_threads()
    graph = cached_lm_for(master)
    with torch_beside_graph(graph):
        with torch_beside_graph(graph):
            assert torch.get_num_threads() == 1
        assert torch.get_num_threads() == 1                         # the outer decode still runs
    assert torch.get_num_threads() == before
    with torch_beside_graph(lean(master)):
        assert torch.get_num_threads() == before                    # a torch forward keeps its threads


# The shipped master: bfloat16 weights, multiplied in float32 by both runtimes.
@pytest.fixture(scope="module")
def poetry():
    return load_pair("poetry", device="cpu")


def heldout_prompts() -> list[str]:
    return [line for line in (POETRY_DIR / "heldout_prompts.txt").read_text(encoding="utf-8").splitlines() if line]


def without_graph(model):
    class Plain:
        def __enter__(self):
            self.graph, model.decode_graph = model.decode_graph, None

        def __exit__(self, *exc):
            model.decode_graph = self.graph
    return Plain()


def test_the_master_s_p_is_the_same_in_both_runtimes_to_float_rounding(poetry):
    """The largest |Δ logit| over held-out prompts and 48 of the master's own characters after each."""
    target = poetry.target
    assert isinstance(cached_lm_for(target), GraphLlamaLM)
    worst = 0.0
    for prompt in heldout_prompts():
        ids = poetry.encode_prompt(prompt)
        written = plain_tokens(poetry.as_target(), ids, DecodeSettings(sampling=SamplingConfig(temperature=0),
                                                                       max_new_tokens=48, stop_at_eos=False))
        sequence = ids + written
        graph_logits = cached_lm_for(target).logits(sequence, n_last=len(sequence))
        with without_graph(target):
            torch_logits = cached_lm_for(target).logits(sequence, n_last=len(sequence))
        live = torch_logits > -1e3                      # the silenced pieces sit at the same far-below value in both
        assert torch.equal(live, graph_logits > -1e3)
        worst = max(worst, float((graph_logits - torch_logits)[live].abs().max()))
    assert 0 < worst < 1e-3


def test_the_master_s_greedy_text_is_the_same_in_both_runtimes_on_held_out_prompts(poetry):
    settings = DecodeSettings(sampling=SamplingConfig(temperature=0), max_new_tokens=64, stop_at_eos=False)
    for prompt in heldout_prompts():
        ids = poetry.encode_prompt(prompt)
        graph_text = plain_tokens(poetry.as_target(), ids, settings)
        with without_graph(poetry.target):
            assert isinstance(cached_lm_for(poetry.target), LeanLlamaLM)
            torch_text = plain_tokens(poetry.as_target(), ids, settings)
        assert graph_text == torch_text, prompt


@pytest.mark.parametrize("scribe, bits", [("int4-master", 4), ("int8-master", 8)])
def test_the_quantised_scribes_draft_from_graphs_of_their_own_weights(poetry, scribe, bits):
    """4-bit blocks of 32, or an Int8Linear's rows as they are (MatMulNBits, one block a row): the torch copy's
    weights, multiplied by 8-bit activations in the graph (by float32 ones in the int4 copy, bfloat16 in Int8Linear)."""
    draft = poetry.draft(scribe)
    assert isinstance(draft.lm, GraphLlamaLM) and draft.lm.graph.bits == bits
    ids = poetry.encode_prompt(heldout_prompts()[0])
    torch_logits = LeanLlamaLM(draft.model).logits(ids)[-1]
    graph_logits = draft.lm.logits(ids)[-1]
    live = torch_logits > -1e3
    assert float((graph_logits - torch_logits)[live].abs().max()) < 0.5
