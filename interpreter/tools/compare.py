"""Compare two balance reports played on the same seeds: what changed, and whether it is significant.

Win rates are compared with the pooled two-proportion z test (a shared win counting 1/k to each winner),
mean lengths and mean scores with Welch's t test; every p-value is two-sided and a difference is
significant when p < 0.05. With many comparisons about one in twenty differences is flagged by chance.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from meeple.tools import stats
from meeple.tools.simulate import Report


@dataclass
class Difference:
    """One quantity in the base and the variant games, and the test of their difference."""

    what: str
    base: float
    variant: float
    difference: float
    test: str  # "two-proportion z" or "Welch t"
    statistic: float
    p: float
    significant: bool


@dataclass
class Comparison:
    base: Report
    variant: Report
    differences: list[Difference]

    @property
    def significant(self) -> list[Difference]:
        return [d for d in self.differences if d.significant]

    def to_dict(self) -> dict[str, Any]:
        return {
            "base": self.base.to_dict(),
            "variant": self.variant.to_dict(),
            "differences": [asdict(d) for d in self.differences],
            "significant": [d.what for d in self.significant],
        }


def _difference(what: str, base: float, variant: float, test: str, result: stats.Test) -> Difference:
    return Difference(
        what,
        round(base, 4),
        round(variant, 4),
        round(variant - base, 4),
        test,
        round(result.statistic, 4),
        round(result.p, 6),
        result.significant,
    )


def compare(base: Report, variant: Report) -> Comparison:
    """Test each seat's win rate, the mean length in actions and turns, and each seat's mean score."""
    if base.players != variant.players:
        raise ValueError(f"the base has {base.players} players and the variant {variant.players}")
    out = []
    for b, v in zip(base.seats, variant.seats):
        test = stats.two_proportions(b.win_share, base.games, v.win_share, variant.games)
        out.append(_difference(f"win rate {b.seat}", b.win_rate, v.win_rate, "two-proportion z", test))
    for key in ("actions", "turns"):
        a, z = base.samples[key], variant.samples[key]
        mean_a, mean_z = sum(a) / len(a), sum(z) / len(z)
        out.append(_difference(f"mean {key}", mean_a, mean_z, "Welch t", stats.welch(a, z)))
    scores_a, scores_z = base.samples.get("scores"), variant.samples.get("scores")
    if scores_a is not None and scores_z is not None:
        for i, (a, z) in enumerate(zip(scores_a, scores_z)):
            mean_a, mean_z = sum(a) / len(a), sum(z) / len(z)
            out.append(_difference(f"mean score p{i + 1}", mean_a, mean_z, "Welch t", stats.welch(a, z)))
    return Comparison(base, variant, out)


def format_comparison(c: Comparison, base_name: str, variant_name: str) -> str:
    """A table of the differences; significant ones marked `*` and named again at the end."""
    lines = [
        f"Comparison on the same {c.base.games} seeds ({c.base.first_seed}.."
        f"{c.base.first_seed + c.base.games - 1}): base {base_name}, variant {variant_name}",
        f"  {'':<16} {'base':>10} {'variant':>10} {'change':>10} {'statistic':>10} {'p':>9}",
    ]
    for d in c.differences:
        rate = d.what.startswith("win rate")
        shown = [f"{100 * x:.1f}%" if rate else f"{x:.2f}" for x in (d.base, d.variant)]
        change = f"{100 * d.difference:+.1f} pt" if rate else f"{d.difference:+.2f}"
        lines.append(
            f"  {d.what:<16} {shown[0]:>10} {shown[1]:>10} {change:>10} {d.statistic:>10.2f} "
            f"{stats.show_p(d.p):>9}{' *' if d.significant else ''}"
        )
    names = ", ".join(d.what for d in c.significant)
    lines.append(f"Significant at 5% (*): {names}" if names else "No difference is significant at 5%.")
    lines.append(
        "  (win rates: two-proportion z test; means: Welch's t test; two-sided. "
        f"Of {len(c.differences)} tests about {len(c.differences) / 20:.1f} may be flagged by chance.)"
    )
    return "\n".join(lines)
