"""The bot ladder (docs/bot-ladder.md): one public ladder per game and seat count that runs by
itself. :mod:`bots.ladder.core` is pure (no Django: the scheduler's choice, the per-set update,
the refit, rank intervals and states), so the benchmark drives the same code the site runs."""
