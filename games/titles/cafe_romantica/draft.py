"""The manager and agenda draft, resolved from ranked preference lists in one round trip.

The choosing order is drawn at random. Managers: one each, in choosing order, each player takes
her best-ranked manager still free. Agendas: three rounds in snake order starting from the end of
the choosing order (the last to choose a manager picks the first agenda), each player taking her
best-ranked agenda still free.
"""

from __future__ import annotations


def resolve(
    order: list[int], managers: dict[int, list[str]], agendas: dict[int, list[str]], per_seat: int = 3
) -> tuple[dict[int, str], dict[int, list[str]]]:
    """(manager per seat, agendas per seat in the order picked)."""
    taken: set[str] = set()
    got_manager: dict[int, str] = {}
    for seat in order:
        pick = next(m for m in managers[seat] if m not in taken)
        taken.add(pick)
        got_manager[seat] = pick
    taken = set()
    got_agendas: dict[int, list[str]] = {s: [] for s in order}
    for r in range(per_seat):
        for seat in order[::-1] if r % 2 == 0 else order:
            pick = next(a for a in agendas[seat] if a not in taken)
            taken.add(pick)
            got_agendas[seat].append(pick)
    return got_manager, got_agendas
