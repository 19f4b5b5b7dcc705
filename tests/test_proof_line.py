"""The server's line of live proofs (#37): one computes at a time, first come first served; a waiting page
says at once how many are ahead and about how long they need; a full line refuses; any exit leaves it."""
import threading
import time

import pytest

from ui.proof.line import LineFull, ProofLine, Standing, YoursInLine, my_turn


def test_turns_come_first_come_first_served():
    line = ProofLine()
    first, second, third = (line.join(1000) for _ in range(3))
    assert line.wait_for_turn(first, 0) and not line.wait_for_turn(second, 0)
    line.leave(first, finished=False)
    assert line.wait_for_turn(second, 0) and not line.wait_for_turn(third, 0)


def test_standing_counts_the_proofs_ahead_and_their_samples_at_the_known_rate():
    line = ProofLine()
    running, waiting, mine = line.join(2000), line.join(10_000), line.join(2000)
    assert line.standing(mine) == Standing(2, None)  # no rate measured yet, none given: unknown, not a guess
    assert line.standing(mine, fallback_rate=0.01) == Standing(2, pytest.approx(120.0))
    line.begin(running)
    running.started -= 5.0  # it has run 5 s and drawn 500 of its 2,000: its own pace counts for itself
    running.done = 500
    assert line.standing(mine, fallback_rate=0.01).seconds == pytest.approx(15.0 + 100.0, rel=0.01)
    assert line.standing(running) == Standing(0, 0.0)


def test_a_finished_proof_sets_the_line_rate():
    line = ProofLine()
    turn = line.join(1000)
    line.begin(turn)
    turn.started -= 4.0
    line.leave(turn, finished=True)
    assert line.seconds_per_sample == pytest.approx(0.004, rel=0.01)
    stopped = line.join(1000)
    line.begin(stopped)
    line.leave(stopped, finished=False)  # a stopped proof's pace says nothing about a whole one
    assert line.seconds_per_sample == pytest.approx(0.004, rel=0.01)


def test_a_full_line_refuses_a_new_proof():
    line = ProofLine(capacity=2)
    line.join(1000), line.join(1000)
    with pytest.raises(LineFull) as refused:
        line.join(1000)
    assert refused.value.ahead == 2


def test_a_waiting_page_says_where_it_stands_at_once_and_leaves_on_any_exit():
    line = ProofLine()
    ahead = line.join(1000)
    said: list[Standing] = []

    def say(standing: Standing) -> None:
        said.append(standing)
        raise InterruptedError("the reader pressed Stop")  # what Streamlit raises where the page draws

    looks: list[float] = []
    wait_for_turn = line.wait_for_turn
    line.wait_for_turn = lambda turn, patience: looks.append(patience) or wait_for_turn(turn, patience)
    with pytest.raises(InterruptedError):
        with my_turn(line, 2000, say, fallback_rate=0.01):
            pass
    assert looks == [0.0]  # said after a first look that does not wait, not after the first second
    assert said == [Standing(1, pytest.approx(10.0))]
    line.leave(ahead, finished=False)
    assert line.standing(line.join(1)) == Standing(0, 0.0)  # the stopped page left no turn behind


def test_four_proofs_pressed_together_run_one_at_a_time_in_order():
    line, spans, lock = ProofLine(), {}, threading.Lock()
    waits: dict[int, list[Standing]] = {n: [] for n in range(4)}

    def proof(n: int) -> None:
        with my_turn(line, 1000, waits[n].append, fallback_rate=0.0002):
            start = time.monotonic()
            time.sleep(0.2)
            with lock:
                spans[n] = (start, time.monotonic())

    threads = []
    for n in range(4):
        threads.append(threading.Thread(target=proof, args=(n,)))
        threads[-1].start()
        time.sleep(0.05)  # pressed in this order
    for thread in threads:
        thread.join(10)
    order = sorted(spans, key=lambda n: spans[n][0])
    assert order == [0, 1, 2, 3]
    assert all(spans[a][1] <= spans[b][0] for a, b in zip(order, order[1:]))  # never two at once
    assert waits[0] == [] and [w[0].ahead for w in (waits[1], waits[2], waits[3])] == [1, 2, 3]


def test_one_visitor_holds_at_most_two_places_and_others_still_join():
    line = ProofLine()
    line.join(1000, "10.0.0.7"), line.join(1000, "10.0.0.7")
    with pytest.raises(YoursInLine) as refused:
        line.join(1000, "10.0.0.7")
    assert refused.value.yours == 2
    line.join(1000, "10.0.0.8")  # another student is not held back by the first one's places
