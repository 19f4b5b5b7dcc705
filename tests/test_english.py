"""English agreement (#49 defect 12): "the 1 drafted after it", "1 rounds", "1 glances", "all 2 variants"."""
from ui.shared.english import agree


def test_a_blank_that_holds_one_takes_the_singular():
    template = "of this run's {n} rounds, {g:,} glances, {n} {units}, {p} passes"
    assert agree(template, dict(n=1, g=1, p=1)) == "of this run's {n} round, {g:,} glance, {n} {unit}, {p} pass"
    assert agree(template, dict(n=2, g=3, p=0)) == template  # the negative control: other numbers keep the plural


def test_two_of_all_read_both_and_one_drafted_after_it_is():
    assert agree("all {n} variants at depth {d}", dict(n=2, d=1)) == "both variants at depth {d}"
    assert agree("all {n} variants", dict(n=3)) == "all {n} variants"
    assert agree("the {rest} drafted after it are never written", dict(rest=1)) == "the one drafted after it is never written"
    assert agree("the {rest} drafted after it are never written", dict(rest=2)) == "the {rest} drafted after it are never written"
    assert agree("the first {at} drafted are sealed", dict(at=1)) == "the first drafted is sealed"


def test_decimals_truths_and_values_are_left_alone():
    assert agree("{x:.2f} glances", dict(x=1)) == "{x:.2f} glances"  # "1.00 glances"
    assert agree("{ok} rounds", dict(ok=True)) == "{ok} rounds"  # True is no count
    assert agree("{prompt}", dict(prompt="1 rounds")) == "{prompt}"  # a reader's text is never rewritten

