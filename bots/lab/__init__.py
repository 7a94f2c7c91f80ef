"""The local bot lab: ``./bin/bot`` (``python -m bots.lab``) runs bots on one's own machine
with the project's engine (:mod:`games.engine.duplicate`) and sandbox (:mod:`bots.sandbox`),
no server. Pure Python: nothing here imports Django, so it needs no database, Redis or
settings. See :mod:`bots.lab.cli` and docs/bot-api.md "Local runner (./bin/bot)"."""
