"""Every write, one module per concern (as Zulip keeps its writes in zerver/actions/<domain>.py).

- write.py: the one transaction and event helpers every write goes through (the write path);
- answers.py: reading a raw answer (a posted form, a reply's text) against its question, under
  the lock (pure: no Django);
- play.py: answers (page, email, plans), a turn of several steps in one send and its preview,
  bots, undo, a seat taken back from a bot;
- steps.py: a turn of several steps walked on the pure engine, each against the question the one
  before left, judged before anything is written (pure: no Django);
- deadlines.py: reminders, timeouts and the sweep, vacations (writing what games.clock reckons);
- absences.py: the absence calendar (one absence, a vacation in every game);
- joining.py: join links and the seats they fill;
- organise.py: create and start games, and the organisers' actions;
- talk.py: table talk;
- replay.py: folding the log into a state (reads only).

The write contracts, one naming convention for every module here:

- a public name (play.submit, organise.pause, deadlines.declare_vacation...) is safe to call
  holding nothing: it validates what it is given, opens its own transaction, locks the game it
  changes itself (write.lock_game, write.lock_games), and on a refusal raises SubmitError with
  nothing written;
- a name ending in `_locked` (write.play_answer_locked, write.after_step_locked,
  write.note_locked, deadlines.grant_vacation_locked...) writes to a game its caller has already
  locked, inside the caller's transaction, and leaves the checks to that caller;
- reads and checks that write nothing (replay.*, play.undo_refusal, play.preview_steps,
  write.check_playing, deadlines.check_absence, answers.read, steps.walk) carry neither mark.

A reader knows from a module's name what it may touch. Deadlines, reminders, banks and vacation
hours are reckoned in games.clock, which writes nothing: these modules write what it returns.
Side effects after commit (mail, bots) go through games.dispatch, never by importing games.tasks.
"""
