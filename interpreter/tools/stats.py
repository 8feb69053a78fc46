"""The few statistics a balance report needs, written with `math` alone: intervals, tests, quantiles.

Every p-value here is two-sided. The tests on win counts use the normal or chi-square approximation, which
wants about five expected wins per cell; `few_expected` says when that does not hold.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the 97.5% point of the standard normal
_EPS = 1e-14
_TINY = 1e-300


# ---------------------------------------------------------------- special functions


def _continued_fraction(term: Callable[[int], tuple[float, float]], first: float = 1.0) -> float:
    """Evaluate b0 + a1/(b1 + a2/(b2 + …)) by the modified Lentz method; `term(m)` gives (a_m, b_m)."""
    f = first if first != 0 else _TINY
    c, d = f, 0.0
    for m in range(1, 400):
        a, b = term(m)
        d = b + a * d
        d = _TINY if d == 0 else d
        c = b + a / c
        c = _TINY if c == 0 else c
        d = 1.0 / d
        delta = c * d
        f *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return f


def regularized_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), the upper tail of the gamma distribution of shape `a` at `x`."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # the series for P converges fast here
        total, term, k = 1.0 / a, 1.0 / a, a
        while abs(term) > abs(total) * _EPS:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1.0 - math.exp(log_front) * total)
    # Q(a, x) = e^-x x^a / Γ(a) · 1 / (x + 1 - a - 1(1-a) / (x + 3 - a - 2(2-a) / …))
    cf = _continued_fraction(lambda m: (-m * (m - a), x + 2 * m + 1 - a), x + 1 - a)
    return min(1.0, math.exp(log_front) / cf)


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), the lower tail of the beta distribution with parameters a, b at x."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    if x > (a + 1) / (a + b + 2):  # the fraction converges on the other side
        return 1.0 - regularized_beta(1 - x, b, a)
    log_front = a * math.log(x) + b * math.log1p(-x) - (math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b))

    def term(k: int) -> tuple[float, float]:
        m = k // 2
        if k % 2:  # odd terms: -(a+m)(a+b+m)x / ((a+2m)(a+2m+1))
            return -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)), 1.0
        return m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), 1.0

    return math.exp(log_front) / (a * _continued_fraction(term, 1.0))


def normal_two_sided(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with `df` degrees of freedom."""
    return regularized_gamma_q(df / 2, x / 2) if df > 0 else 1.0


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with `df` degrees of freedom."""
    if math.isinf(df):
        return normal_two_sided(t)
    return regularized_beta(df / (df + t * t), df / 2, 0.5)


def t_quantile(p: float, df: float) -> float:
    """The `p` point (0.5 < p < 1) of Student's t, found by bisection on the two-sided tail."""
    tail = 2 * (1 - p)
    lo, hi = 0.0, 1.0
    while t_two_sided(hi, df) > tail:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_two_sided(mid, df) > tail:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# ---------------------------------------------------------------- intervals and summaries


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: `successes` out of `n` (fractional successes allowed)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)  # exact at the ends, where rounding would
    high = 1.0 if successes >= n else min(1.0, centre + half)  # leave the observed rate itself outside
    return (min(low, p), max(high, p))


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% t interval (the interval collapses to the mean with fewer than two values)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return (mean, mean, mean)
    half = t_quantile(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """The first quartile, the median and the third quartile (interpolated between the values)."""
    if len(values) == 1:
        return (values[0], values[0], values[0])
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return (q1, q2, q3)


def histogram(values: Sequence[float], bins: int = 10) -> list[tuple[float, float, int]]:
    """Equal-width bins (low, high, count) over the range of whole-number or real values."""
    lo, hi = min(values), max(values)
    if lo == hi:
        return [(lo, hi, len(values))]
    whole = all(float(v).is_integer() for v in values)
    width = (hi - lo) / bins
    if whole:  # bins of whole width, so each value falls in one plain bin
        width = max(1.0, math.ceil((hi - lo + 1) / bins))
        bins = math.ceil((hi - lo + 1) / width)
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - lo) / width))] += 1
    return [(lo + i * width, lo + (i + 1) * width - (1 if whole else 0), c) for i, c in enumerate(counts)]


# ---------------------------------------------------------------- tests


def show_p(p: float) -> str:
    """A p-value for people: three significant digits, or `<1e-15` below what doubles resolve."""
    return "<1e-15" if p < 1e-15 else f"{p:.3g}"


@dataclass(frozen=True)
class Test:
    """A test's statistic and two-sided p-value; `significant` at the 5% level."""

    statistic: float
    p: float

    @property
    def significant(self) -> bool:
        return self.p < 0.05


def chi_square_equal(counts: Sequence[float]) -> Test:
    """Goodness of fit of counts against equal shares of their total (k - 1 degrees of freedom)."""
    total, k = sum(counts), len(counts)
    if total <= 0 or k < 2:
        return Test(0.0, 1.0)
    expected = total / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return Test(stat, chi2_sf(stat, k - 1))


def proportion_vs(successes: float, n: float, p0: float) -> Test:
    """The score test of a proportion against `p0`: z = (x - n p0) / sqrt(n p0 (1 - p0))."""
    if n <= 0 or not 0 < p0 < 1:
        return Test(0.0, 1.0)
    z = (successes - n * p0) / math.sqrt(n * p0 * (1 - p0))
    return Test(z, normal_two_sided(z))


def two_proportions(x1: float, n1: int, x2: float, n2: int) -> Test:
    """The pooled two-sample z test of two proportions x1/n1 and x2/n2."""
    if n1 <= 0 or n2 <= 0:
        return Test(0.0, 1.0)
    pooled = (x1 + x2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    diff = x2 / n2 - x1 / n1
    if var <= 0:
        return Test(0.0, 1.0 if diff == 0 else 0.0)
    z = diff / math.sqrt(var)
    return Test(z, normal_two_sided(z))


def welch(a: Sequence[float], b: Sequence[float]) -> Test:
    """Welch's two-sample t test of the means of a and b (unequal variances); the statistic is t."""
    if len(a) < 2 or len(b) < 2:
        return Test(0.0, 1.0)
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    if va + vb == 0:
        return Test(0.0, 1.0 if ma == mb else 0.0)
    t = (mb - ma) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    return Test(t, t_two_sided(t, df))
