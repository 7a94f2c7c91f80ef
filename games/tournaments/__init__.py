"""Tournaments (issue 17): round-robin and Swiss events of any registered game for people, house
AIs and bots, played at ordinary live tables (docs/tournaments.md).

- :mod:`~games.tournaments.pairing`: pure pairing and standings (no Django).
- :mod:`~games.tournaments.models`: Tournament, Entry, Round, RoundTable, RoundResult (registered
  with the games app through ``games/models.py``).
- :mod:`~games.tournaments.services`: creating, editing, entering, and the beat-driven ``tick``
  that starts due rounds and closes finished ones; the table layer's hooks (duplicate deal
  seeds, the end of a round's table).
- :mod:`~games.tournaments.live` and :mod:`~games.tournaments.consumers`: the page's state and
  each entrant's "your table is ready", pushed over WebSockets on commit.
"""
