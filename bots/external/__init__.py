"""External bots: programs in any language that play a bot over the token API.

A bot of kind ``external`` (``bots.models.Bot.Kind``) has one ``ready`` version with no code
and an API token (:mod:`bots.external.tokens`, hashed at rest). Its program connects to
``/ws/bot/`` (:mod:`bots.external.consumer`) or reads ``GET /api/bot/stream`` and posts
``POST /api/bot/game/<id>/move`` (:mod:`bots.external.http`), authenticated by
``Authorization: Bearer <token>``. When it is the bot's turn at a live table, the bot-seat
player (:func:`bots.external.services.external_seat_player`, called by ``games.seat_autoplay``
on the game's bot queue, exactly where a JavaScript bot's sandbox runs) sends the seat's
``gameState`` to the bot's sockets and waits, up to the per-move limit, for its move in the
turn's mailbox (:mod:`bots.external.mailbox`, Redis). Timeouts, strikes and disqualification
are the live tables' own (games/services/autoplay.py). The frames are in docs/bot-api.md.
"""
