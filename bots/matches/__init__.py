"""Duplicate-deal matches on the site (issue #16): Evaluate a bot version against a field in
My Bots, on the Celery ``lab`` workers, with the pure core :mod:`games.engine.duplicate`
(the same one ``./bin/bot match`` drives). See docs/bot-lab.md."""
