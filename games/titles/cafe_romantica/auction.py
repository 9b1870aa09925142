"""The turn order auction, played as a proxy auction from sealed limits.

The rulebook's open auction, as this title plays it (see README): the turn order cards are
auctioned best first. For each card the price starts at 0 and rises by 1; a player stays in while
the price is at most her limit. When one player is left she takes the card at that price; when
everyone still in drops at the same step, the one first in the tie-break order takes it at the
last price they all stayed at. Whoever holds a card is out of the later auctions, and the last
card goes to the last player for nothing.

From the limits alone this is: the highest limit wins (ties: tie-break order) and pays one more
than the runner-up's limit, at most her own.
"""

from __future__ import annotations


def resolve(priority: list[int], limits: dict[int, list[int]]) -> list[tuple[int, int]]:
    """(seat, price) for each position, best first.

    `priority`: every bidding seat, first = wins ties. `limits[seat][k]`: the most that seat
    pays for position k+1 (positions past the list count as 0).
    """
    left = list(priority)
    out: list[tuple[int, int]] = []
    pos = 0
    while left:
        if len(left) == 1:
            out.append((left[0], 0))
            break

        def limit(seat: int, k: int = pos) -> int:
            lim = limits.get(seat, [])
            return lim[k] if k < len(lim) else 0

        ranked = sorted(left, key=lambda s: -limit(s))  # stable: ties keep priority order
        winner, runner = ranked[0], ranked[1]
        out.append((winner, min(limit(winner), limit(runner) + 1)))
        left.remove(winner)
        pos += 1
    return out
