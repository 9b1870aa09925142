"""Every write, one module per concern (as Zulip keeps its writes in zerver/actions/<domain>.py).

- write.py: the one transaction and event helpers every write goes through (the write path);
- play.py: answers (page, email, plans), bots, undo, a seat taken back from a bot;
- deadlines.py: reminders, timeouts and the sweep, vacations (writing what games.clock reckons);
- organise.py: create and start games, and the organisers' actions;
- talk.py: table talk;
- replay.py: folding the log into a state (reads only).

A reader knows from a module's name what it may touch. Deadlines, reminders, banks and vacation
hours are reckoned in games.clock, which writes nothing: these modules write what it returns.
Side effects after commit (mail, bots) go through games.dispatch, never by importing games.tasks.
"""
