from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games and tables")

    def ready(self) -> None:
        # Tournaments plug into the table layer (deal seeds, game-finished hook) and register
        # their Celery tasks (docs/tournaments.md).
        from games.tournaments import services, tasks  # noqa: F401

        services.register()
        # A seat given up in a quick-play table's rematch goes to the quick-play pool
        # (docs/quickplay.md "Rematch").
        from games import extensions
        from games.quickplay.services import rematch_seat_take

        extensions.set_rematch_seat_taker(rematch_seat_take)
