"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
application = get_asgi_application()

from rummy_site.startup import prepare  # noqa: E402  (after Django is set up)

prepare()
