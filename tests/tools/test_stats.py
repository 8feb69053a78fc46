"""The report's statistics against values known from tables and closed forms, and their invariants."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.tools import stats


def test_the_wilson_interval_of_50_in_100_is_0_404_to_0_596() -> None:
    low, high = stats.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=5e-5) and high == pytest.approx(0.5962, abs=5e-5)


def test_the_wilson_interval_of_no_successes_starts_at_zero_and_is_not_empty() -> None:
    low, high = stats.wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=5e-5)


@given(st.integers(1, 10_000), st.floats(0, 1))
def test_a_wilson_interval_lies_in_0_1_and_holds_the_observed_rate(n: int, rate: float) -> None:
    low, high = stats.wilson(rate * n, n)
    assert 0.0 <= low <= rate + 1e-12 and rate - 1e-12 <= high <= 1.0


def test_a_wilson_interval_narrows_with_more_games() -> None:
    widths = [stats.wilson(n / 4, n)[1] - stats.wilson(n / 4, n)[0] for n in (20, 200, 2000)]
    assert widths[0] > widths[1] > widths[2]


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [
        (3.841458820694124, 1, 0.05),
        (5.991464547107979, 2, 0.05),
        (11.070497693516351, 5, 0.05),
        (6.634896601021214, 1, 0.01),
    ],
)
def test_chi_square_tails_match_the_table(x: float, df: int, p: float) -> None:
    assert stats.chi2_sf(x, df) == pytest.approx(p, rel=1e-6)


@given(st.floats(0.01, 50))
def test_the_gamma_tail_of_shape_one_is_the_exponential_tail(x: float) -> None:
    assert stats.regularized_gamma_q(1.0, x) == pytest.approx(math.exp(-x), rel=1e-9, abs=1e-300)


@given(st.floats(0.001, 0.999), st.floats(0.2, 20))
def test_the_beta_lower_tail_with_b_one_is_x_to_the_a(x: float, a: float) -> None:
    assert stats.regularized_beta(x, a, 1.0) == pytest.approx(x**a, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize(("df", "t"), [(1, 12.706204736), (10, 2.228138852), (30, 2.042272456)])
def test_t_quantiles_match_the_table(df: int, t: float) -> None:
    assert stats.t_quantile(0.975, df) == pytest.approx(t, rel=1e-7)
    assert stats.t_two_sided(t, df) == pytest.approx(0.05, rel=1e-7)


def test_welch_on_two_shifted_samples() -> None:
    test = stats.welch([1, 2, 3, 4], [2, 3, 4, 5])  # t = 1 / sqrt(5/6), 6 degrees of freedom
    assert test.statistic == pytest.approx(1.0954451, rel=1e-6)
    assert test.p == pytest.approx(0.3153336, rel=1e-5) and not test.significant


def test_welch_on_equal_constant_samples_finds_nothing_and_on_different_ones_everything() -> None:
    assert stats.welch([3, 3, 3], [3, 3, 3]).p == 1.0
    assert stats.welch([3, 3, 3], [4, 4, 4]).p == 0.0


def test_two_proportions_30_of_100_against_50_of_100() -> None:
    test = stats.two_proportions(30, 100, 50, 100)  # pooled 0.4: z = 0.2 / sqrt(0.4 * 0.6 * 0.02)
    assert test.statistic == pytest.approx(2.886751, rel=1e-6)
    assert test.p == pytest.approx(0.003892, rel=1e-3) and test.significant


def test_chi_square_of_equal_counts_is_zero_and_of_lopsided_ones_significant() -> None:
    assert stats.chi_square_equal([25, 25, 25, 25]) == stats.Test(0.0, 1.0)
    lopsided = stats.chi_square_equal([40, 20, 20, 20])  # (15² + 3 · 5²) / 25 = 12 on 3 df
    assert lopsided.statistic == pytest.approx(12.0) and lopsided.p == pytest.approx(0.0073832, rel=1e-4)


def test_a_first_seat_winning_60_of_100_two_player_games_is_significant() -> None:
    test = stats.proportion_vs(60, 100, 0.5)  # z = 10 / 5
    assert test.statistic == pytest.approx(2.0) and test.p == pytest.approx(0.0455003, rel=1e-5)


def test_the_mean_interval_of_a_known_sample() -> None:
    mean, low, high = stats.mean_interval([2, 4, 4, 4, 5, 5, 7, 9])  # sd 2.138, t(7) = 2.3646
    assert mean == 5 and high - mean == pytest.approx(2.364624 * 2.13809 / math.sqrt(8), rel=1e-4)
    assert mean - low == pytest.approx(high - mean)


def test_quartiles_interpolate_between_values() -> None:
    assert stats.quartiles([1, 2, 3, 4, 5]) == (2, 3, 4)
    assert stats.quartiles([7]) == (7, 7, 7)


@given(st.lists(st.integers(-50, 500), min_size=1, max_size=200))
def test_a_histogram_holds_every_value_once_in_bins_that_cover_the_range(values: list[int]) -> None:
    bins = stats.histogram(values)
    assert sum(c for _, _, c in bins) == len(values)
    assert bins[0][0] == min(values) and bins[-1][1] >= max(values)
    for (_, hi, _), (lo, _, _) in zip(bins, bins[1:]):
        assert lo == hi + 1  # whole-number bins follow one another without a gap


def test_tiny_p_values_are_shown_as_a_bound() -> None:
    assert stats.show_p(0.0) == "<1e-15" and stats.show_p(0.0123456) == "0.0123"
