from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BotsConfig(AppConfig):
    name = "bots"
    verbose_name = _("Bots")

    def ready(self) -> None:
        """Plug the bots app into the live tables' extension points (``games.extensions``):
        bot seats play their pinned version's code in the sandbox (started when the game is
        dealt), and a finished game closes its sandboxes and rates arena games (an aborted one
        tells its external bots; beat's version announce catches up an external bot's lost
        turn); the Create Table form offers the bot versions a user may
        seat, and seating an external bot is checked against its limits (bots.seating; games
        never imports bots)."""
        from bots.arena import arena_table_notes
        from bots.external.services import external_versions_announced
        from bots.seating import external_seats_check
        from bots.selectors import bot_seat_choices
        from bots.services import bot_game_finished, bot_seat_player
        from bots.turns import bot_game_aborted
        from bots.warmup import bot_game_dealt
        from games import extensions

        extensions.set_bot_player(bot_seat_player)
        extensions.on_game_finished(bot_game_finished)
        extensions.on_game_aborted(bot_game_aborted)
        extensions.on_game_dealt(bot_game_dealt)
        extensions.on_versions_announced(external_versions_announced)
        extensions.set_bot_seat_choices(bot_seat_choices)
        extensions.set_bot_seat_guard(external_seats_check)
        extensions.on_table_notes(arena_table_notes)
        from bots.ladder.services import register as ladder_register

        ladder_register()
