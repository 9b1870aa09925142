"""Pages. Thin: read the request, find the seat or game, call an action, render a view. One module
for each thing they serve:

- home.py: the front page (a signed-in player's home); landing.py: a visitor's front page (the four
  games), also at /games/, and a game against bots in one click; rules.py: a title's rules in short;
- seat.py: a seat's pages behind its signed link, and its small controls (each a POST of its own);
- turns.py: a seat's turn of several steps sent at once, and the preview its page's script asks for;
- preferences.py: a person's preferences (the profile and absence calendar at /me/, a seat's
  settings, unsubscribing);
- new_game.py: a new game; host.py: the host's pages for the games they host;
- join.py: the join link and its emailed confirmation; watch.py: the spectator link;
- outbox.py: the embedded outbox, for organisers.

games/urls.py maps the URLs to them.
"""
