from django.apps import AppConfig


class RummySiteConfig(AppConfig):
    """The project itself, as an app: site-wide templates tags and management commands."""

    name = "rummy_site"
    verbose_name = "Rummy site"
