"""WSGI entry point for gunicorn and other application servers."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
application = get_wsgi_application()

from rummy_site.startup import prepare  # noqa: E402  (after Django is set up)

prepare()
