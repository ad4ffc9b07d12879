from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """Games and hands at the table; the rules engine lives in engine (no Django)."""

    name = "games"
    verbose_name = _("Games")
