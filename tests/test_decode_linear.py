"""DecodeLinear: the same numbers as nn.Linear, by W @ xᵀ for few rows on CPU, and every pair uses it."""
import pytest
import torch
from torch import nn
from transformers import GPT2Config, GPT2LMHeadModel

from specdec_core.decode_linear import MAX_ROWS, DecodeLinear, decode_linears, linear_form
from specdec_core.pairs import load_pair
from tests.test_shared_embedding_draft import llama_master


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


def test_decode_linears_keeps_parameters_ties_and_logits(tiny):
    master = llama_master(tiny.vocab_size)
    ids = torch.tensor([[5, 9, 3, 7]])
    before, keys = master(input_ids=ids).logits, list(master.state_dict())
    assert decode_linears(master) is master
    linears = [m for m in master.modules() if isinstance(m, nn.Linear)]
    assert linears and all(type(m) is DecodeLinear for m in linears)
    assert list(master.state_dict()) == keys
    assert master.lm_head.weight is master.model.embed_tokens.weight  # tied weights stay one tensor
    torch.testing.assert_close(master(input_ids=ids).logits, before, rtol=1e-5, atol=1e-5)


def test_other_layers_are_left_alone():
    gpt2 = GPT2LMHeadModel(GPT2Config(vocab_size=20, n_embd=16, n_layer=1, n_head=2, n_positions=32))
    conv = type(gpt2.transformer.h[0].attn.c_attn)
    decode_linears(gpt2)
    assert type(gpt2.transformer.h[0].attn.c_attn) is conv  # GPT-2's Conv1D is not an nn.Linear
    assert type(gpt2.lm_head) is DecodeLinear


def test_loaded_pairs_decode_with_it():
    pair = load_pair("tiny", "cpu")
    assert type(pair.target.lm_head) is DecodeLinear


def test_linear_form_switches_back_and_leaves_other_subclasses():
    class Custom(nn.Linear):
        pass
    model = nn.Sequential(nn.Linear(4, 4), Custom(4, 4))
    decode_linears(model)
    assert [type(m) for m in model] == [DecodeLinear, Custom]
    linear_form(model, nn.Linear)
    assert [type(m) for m in model] == [nn.Linear, Custom]
