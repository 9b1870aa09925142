"""The clock, in one room: when a seat must answer, and what is left of its bank.

The modules, from pure to seat-level:

- calendar.py: quiet days and quiet hours as spans, running time, settling a time out of a quiet
  period, a bank's arithmetic (`Bank`, `charge`, `replay_bank`), vacation hours to draw;
- rules.py: a game's `Clock` and what it makes due: `deadline`, `reminder_points`, `next_reminder`,
  `bank_left`;
- terms.py: the one bounded parser per kind of typed clock value (quiet days, quiet hours,
  reminder points), their stored forms, `span`, the clock's rules in words (`describe`) and the
  clock fields' cross-checks (`clock_problems`);
- shown.py: time as people read it, on pages and in emails: `local_time`, `due_in`;
- seat.py: one seat's clock, read from the seat it is given (imports no model);
- vacation.py: each seat's vacation book and the hours it draws (reads Vacation rows).

calendar, rules, terms and shown are pure: they import no Django, so they stay cheap to test
(games.models builds its `Clock` from them). seat.py reads a seat object and its vacations but
imports neither Django nor a model (tests/clock/test_pure.py keeps both so); vacation.py is the
one module here that imports a model. The clock writes nothing: callers write
what it returns. This file imports nothing, so loading a pure module loads no seat-level code.

The write path (games/actions/write.py and its siblings) calls:
  seat.deadline_for, seat.reminder_for, seat.charge_bank (the charge and the bank after it),
  seat.deadline_again (a running wait's deadline again, or None), seat.shifted and
  seat.after_pause (an extension, a resume), seat.stored_bank and seat.bank_start.
The sweep (games/actions/deadlines.py) calls:
  vacation.vacation_books (one query a batch), vacation.draw_vacation (the hours to draw and the
  deadline after them), seat.reminder_for, and vacation.allowance_left for declared vacations.
Pages and emails read: shown.*, terms.span and terms.describe, seat.bank_left_at, rules.bank_left,
vacation.vacation_books/vacation_left/vacation_used, and vacation.days_used/days_left (whole days).
"""
