from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Club tournaments and leagues: seating, rounds, results per table, standings."""

    name = "tournaments"
    verbose_name = _("Tournaments")
