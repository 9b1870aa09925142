"""Hypothesis settings shared by the fuzzers: deterministic by default, FUZZ_SEED=<int> explores
other examples, FUZZ_EXAMPLES=<factor> runs that many times more (or fewer)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, Phase, seed, settings

SCALE = float(os.environ.get("FUZZ_EXAMPLES", "1"))
SEED = os.environ.get("FUZZ_SEED")


def fuzz(examples: int, shrink: bool = False, health: list[HealthCheck] | None = None) -> Callable[[Any], Any]:
    """`examples` examples (times FUZZ_EXAMPLES), no deadline and no saved database. Without
    `shrink`, a finding is recorded rather than raised, so shrinking would only cost time."""
    phases = [Phase.explicit, Phase.generate, *([Phase.shrink] if shrink else [])]

    def wrap(test):
        test = settings(
            max_examples=max(1, int(examples * SCALE)),
            deadline=None,
            database=None,
            derandomize=SEED is None,
            phases=phases,
            suppress_health_check=list(HealthCheck) if health is None else health,
        )(test)
        return seed(int(SEED))(test) if SEED is not None else test

    return wrap
