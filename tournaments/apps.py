from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

RECEIVER = "tournaments.results_changed"
MOVED_RECEIVER = "tournaments.seats_moved"
DATED_RECEIVER = "tournaments.game_dated"


class TournamentsConfig(AppConfig):
    """Club tournaments and leagues: seating, rounds, results per table, standings, seasons
    and ratings."""

    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Built on games: it listens to games' signal and adds panels to games' pages; games
        # never imports this app.
        from games import extensions, signals
        from games.text.errors import register_messages
        from tournaments import panels, receivers
        from tournaments.services.messages import MESSAGES

        signals.results_changed.connect(receivers.results_changed, dispatch_uid=RECEIVER)
        signals.seats_moved.connect(receivers.seats_moved, dispatch_uid=MOVED_RECEIVER)
        signals.game_dated.connect(receivers.game_dated, dispatch_uid=DATED_RECEIVER)
        extensions.register("game", panels.win_chances)
        extensions.register("player", panels.player_ratings)
        register_messages(MESSAGES)
