"""Seeded randomness: every step of a game gets its own generator.

A game's seed is stored in its first event; step `seq` uses Random(f"{seed}:{seq}"), so replaying
the log reproduces every shuffle bit for bit. Nothing in a title may use the global `random`.
"""

import random


def step_rng(seed: str, seq: int) -> random.Random:
    """The generator for one step of one game."""
    return random.Random(f"{seed}:{seq}")
