"""DecodeLinear: the same numbers as nn.Linear, by W @ xᵀ for few rows on CPU; every pair's models
take it, or keep nn.Linear where that is clearly faster on this machine."""
import pytest
import torch
from torch import nn
from transformers import GPT2Config, GPT2LMHeadModel

from specdec_core.pairs.registry import load_pair
from specdec_core.runtimes import decode_linear
from specdec_core.runtimes.decode_linear import MAX_ROWS, DecodeLinear, decode_linears, faster_form, linear_form
from tests.test_shared_embedding_draft import llama_master


@pytest.fixture
def decode_form(monkeypatch):
    """As on a machine where W @ xᵀ is the faster form: the tests below are about what it changes."""
    monkeypatch.setattr(decode_linear, "faster_form", lambda model, clock=None: DecodeLinear)


def layer(bias: bool) -> tuple[nn.Linear, DecodeLinear]:
    torch.manual_seed(0)
    plain = nn.Linear(48, 80, bias=bias)
    fast = DecodeLinear(48, 80, bias=bias)
    fast.load_state_dict(plain.state_dict())
    return plain, fast


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("shape", [(1, 48), (1, 1, 48), (1, 2, 48), (1, 5, 48), (2, 3, 48), (MAX_ROWS, 48), (1, MAX_ROWS + 1, 48)])
def test_same_numbers_as_nn_linear(bias, shape):
    plain, fast = layer(bias)
    x = torch.randn(shape)
    out = fast(x)
    assert out.shape == plain(x).shape and out.is_contiguous()
    torch.testing.assert_close(out, plain(x), rtol=1e-5, atol=1e-5)


def test_few_rows_skip_f_linear_and_many_rows_keep_it(monkeypatch):
    _, fast = layer(bias=True)
    calls = []
    real = nn.functional.linear
    monkeypatch.setattr(nn.functional, "linear", lambda *a, **kw: calls.append(1) or real(*a, **kw))
    for rows in (1, 2, 4, MAX_ROWS):
        fast(torch.randn(1, rows, 48))
    assert calls == []
    fast(torch.randn(1, MAX_ROWS + 1, 48))
    assert calls == [1]


def test_gradients_match_nn_linear():
    plain, fast = layer(bias=True)
    x = torch.randn(1, 3, 48)
    plain(x).square().sum().backward()
    fast(x).square().sum().backward()
    torch.testing.assert_close(fast.weight.grad, plain.weight.grad)
    torch.testing.assert_close(fast.bias.grad, plain.bias.grad)


def test_decode_linears_keeps_parameters_ties_and_logits(tiny, decode_form):
    master = llama_master(tiny.vocab_size)
    ids = torch.tensor([[5, 9, 3, 7]])
    before, keys = master(input_ids=ids).logits, list(master.state_dict())
    assert decode_linears(master) is master
    linears = [m for m in master.modules() if isinstance(m, nn.Linear)]
    assert linears and all(type(m) is DecodeLinear for m in linears)
    assert list(master.state_dict()) == keys
    assert master.lm_head.weight is master.model.embed_tokens.weight  # tied weights stay one tensor
    torch.testing.assert_close(master(input_ids=ids).logits, before, rtol=1e-5, atol=1e-5)


def test_other_layers_are_left_alone(decode_form):
    gpt2 = GPT2LMHeadModel(GPT2Config(vocab_size=20, n_embd=16, n_layer=1, n_head=2, n_positions=32))
    conv = type(gpt2.transformer.h[0].attn.c_attn)
    decode_linears(gpt2)
    assert type(gpt2.transformer.h[0].attn.c_attn) is conv  # GPT-2's Conv1D is not an nn.Linear
    assert type(gpt2.lm_head) is DecodeLinear


def test_loaded_pairs_decode_with_the_form_timed_faster():
    pair = load_pair("tiny", "cpu")
    assert type(pair.target.lm_head) is faster_form(pair.target)


def form_clock(model: nn.Module, seconds: dict) -> tuple:
    """A clock that advances by the time given for the form the model's layers have when it is read,
    so each timed pass lasts exactly that long; and the list of its readings."""
    now, readings = [0.0], []

    def clock() -> float:
        now[0] += seconds[type(model[0])]
        readings.append(now[0])
        return now[0]
    return clock, readings


@pytest.mark.parametrize("linear_s, decode_s, chosen", [
    (1.0, 1.3, nn.Linear),       # nn.Linear clearly faster: as on an Intel Xeon with AMX
    (1.0, 1.1, DecodeLinear),    # a near tie keeps W @ xᵀ
    (1.0, 0.6, DecodeLinear),    # W @ xᵀ faster: as on the AMD machine it was written for
])
def test_the_clearly_faster_form_is_chosen_and_the_model_left_as_it_was(monkeypatch, linear_s, decode_s, chosen):
    model = nn.Sequential(nn.Linear(8, 16), nn.Linear(16, 8))
    clock, readings = form_clock(model, {nn.Linear: linear_s, DecodeLinear: decode_s})
    assert faster_form(model, clock) is chosen
    assert len(readings) == 2 * 2 * decode_linear.TIMED_REPEATS     # both forms, start and end, each pass
    assert [type(m) for m in model] == [nn.Linear, nn.Linear]        # timing leaves the layers' form alone
    assert type(decode_linears(model, clock)[0]) is chosen


def test_gpu_models_are_not_timed(monkeypatch):
    model = nn.Sequential(nn.Linear(8, 8, device="meta"))     # stands in for any device but the CPU
    assert faster_form(model, clock=lambda: pytest.fail("timed a model off the CPU")) is DecodeLinear


def test_linear_form_switches_back_and_leaves_other_subclasses(decode_form):
    class Custom(nn.Linear):
        pass
    model = nn.Sequential(nn.Linear(4, 4), Custom(4, 4))
    decode_linears(model)
    assert [type(m) for m in model] == [DecodeLinear, Custom]
    linear_form(model, nn.Linear)
    assert [type(m) for m in model] == [nn.Linear, Custom]
