"""The web's forms, one module for each thing they serve.

- prompts.py: a question as HTML form fields (the write path reads a post back: games.actions.answers);
- new_game.py: a new game (title, seats, options) and the clock's fields;
- seat.py: the seat page's small forms (vacation, answers left in advance, table talk);
- host.py: the host's and the admin's actions on a game, each with a reason;
- preferences.py: a player's preferences (the profile page and a seat's settings);
- fields.py: the typed fields they share (numbers, plain text, clock values, a timezone).

The write path never imports them: it is handed what a form read, or the raw post to read under
its lock.
"""
