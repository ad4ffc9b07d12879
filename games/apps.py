from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """Games and hands at the table; the rules engine lives in engine (no Django)."""

    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_logged_out

        from games.web.sessions import on_login, on_logout

        user_logged_in.connect(on_login, dispatch_uid="games_session_login")
        user_logged_out.connect(on_logout, dispatch_uid="games_session_logout")
