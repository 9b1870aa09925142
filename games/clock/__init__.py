"""The clock: when a seat must answer, and what is left of its bank (one package, no imports here).

- calendar.py: quiet periods and running time, banks, vacation hours to draw (pure, no Django);
- rules.py: a game's `Clock`, the deadline it makes, reminder points, a bank at a moment (pure);
- terms.py: the one bounded parser per kind of typed clock value, and the clock in words (pure);
- seat.py: one seat's clock: its stored bank and vacations, and its bank left at a moment.

This file imports nothing, so importing a pure module (games.models does) loads no seat-level code.
"""
