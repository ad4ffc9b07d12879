from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationsConfig(AppConfig):
    """Federations of clubs: their organisers, member clubs, the register of persons across
    clubs and the links from the clubs' players to it."""

    name = "federations"
    verbose_name = _("Federations")

    def ready(self) -> None:
        # Built on games and tournaments; neither imports this app.
        from federations.services.messages import MESSAGES
        from games.text.errors import register_messages

        register_messages(MESSAGES)
