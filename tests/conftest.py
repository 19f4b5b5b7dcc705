"""Shared fixtures: the tiny seed-built pair stands in for real models in engine tests."""
import pytest

from specdec_core.pairs import load_pair


@pytest.fixture(scope="session")
def tiny():
    return load_pair("tiny", device="cpu")


@pytest.fixture(scope="session")
def tiny_prompt(tiny):
    return tiny.encode_prompt("春山")
