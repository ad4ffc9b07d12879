from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

RESULTS_RECEIVER = "federations.results_changed"


class FederationsConfig(AppConfig):
    """Federations of clubs: their organisers, member clubs, the register of persons across
    clubs and the links from the clubs' players to it."""

    name = "federations"
    verbose_name = _("Federations")

    def ready(self) -> None:
        # Built on games and tournaments; neither imports this app.
        from federations import panels, receivers, seeding
        from federations.services.messages import MESSAGES
        from games import extensions, signals
        from games.text.errors import register_messages
        from tournaments import seeding as tournament_seeding
        from tournaments import signals as tournament_signals

        signals.results_changed.connect(receivers.results_changed, dispatch_uid=RESULTS_RECEIVER)
        signals.seats_moved.connect(receivers.seats_moved, dispatch_uid="federations.seats_moved")
        signals.game_dated.connect(receivers.game_dated, dispatch_uid="federations.game_dated")
        tournament_signals.tournament_changed.connect(
            receivers.tournament_changed, dispatch_uid="federations.tournament_changed"
        )
        register_messages(MESSAGES)
        extensions.register("tournament", panels.tournament_reports)
        extensions.register("tournament", panels.tournament_open)
        tournament_seeding.register(seeding.open_ratings)
