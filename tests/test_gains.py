"""Unit tests of dcglab.formulas.gains: gain functions by hand, and the errors they raise."""

import pytest

from dcglab import gain_values


def test_gains_by_hand():
    assert gain_values([0, 1, 2, 3], "linear").tolist() == [0, 1, 2, 3]
    assert gain_values([0, 1, 2, 3], "exponential").tolist() == [0, 1, 3, 7]
    assert gain_values([0, 1, 2], "exponential:3").tolist() == [0, 2, 8]
    cranfield = {1: 4, 2: 3, 3: 2, 4: 1, -1: 0}
    assert gain_values([1, 4, -1], cranfield).tolist() == [4, 1, 0]


def test_a_gain_error_carries_its_grade():
    """The grade travels with the error, so callers need not parse the message."""
    from dcglab.formulas.gains import GainError

    with pytest.raises(GainError) as err:
        gain_values([2, 1100, 2000], "exponential")
    assert err.value.grade == 1100


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: gain_values([1], "quadratic"), "gain must be"),
        (lambda: gain_values([1], "exponential:1"), r"gain='exponential:1': .*base must be"),
        (lambda: gain_values([5], {1: 1}), "no entry for grade"),
        (lambda: gain_values([1], {1: -1}), "non-negative gains"),
    ],
)
def test_bad_gain_names_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()
