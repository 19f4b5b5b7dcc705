"""Shared fixtures: the tiny seed-built pair stands in for real models in engine tests."""
import os

import pytest

from specdec_core.pairs.registry import load_pair


def pytest_configure(config):
    """Under pytest-xdist (make test) the workers share the cores: each worker's torch takes its share of
    threads, as torch's threads oversubscribed on a busy machine slow every forward many times over."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        import torch

        torch.set_num_threads(max(1, (os.cpu_count() or 1) // workers))


@pytest.fixture(scope="session")
def tiny():
    return load_pair("tiny", device="cpu")


@pytest.fixture(scope="session")
def tiny_prompt(tiny):
    return tiny.encode_prompt("春山")


@pytest.fixture(autouse=True, scope="session")
def archive_in_a_temporary_folder(tmp_path_factory):
    """Runs the tests make are archived in a throwaway database, never the user's own."""
    os.environ["SCRIPTORIUM_ARCHIVE"] = str(tmp_path_factory.mktemp("archive") / "archive.sqlite")


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL cluster for this test worker, on loopback (Debian's postgresql; .ci/run installs it)."""
    from tools.postgres_cluster import NoPostgres, ThrowawayCluster

    try:
        cluster = ThrowawayCluster()
    except NoPostgres as missing:
        pytest.skip(f"{missing} (.ci/run installs it)")
    with cluster:
        yield cluster


@pytest.fixture
def in_english():
    """The UI's words in English for code run outside a page (Texts reads the session's language)."""
    import streamlit as st

    st.session_state["language"] = "en"
    yield
    st.session_state.pop("language", None)
