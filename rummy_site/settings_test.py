"""Test settings: the normal settings with fast hashing and static files without a manifest.

DATABASE_URL still chooses the database, so the same suite runs on SQLite and PostgreSQL.
"""

import os

os.environ.setdefault("DEBUG", "1")

from rummy_site.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}  # noqa: F405

# Throttling stays on in tests; only Django's test client login() (which passes no request to
# authenticate) skips it. Tests that need a clean slate reset axes themselves.
AUTHENTICATION_BACKENDS = [
    "tests.auth_backends.AxesBackendAllowingTestClientLogin",
    "django.contrib.auth.backends.ModelBackend",
]

# Shared links name the test server itself: it listens on loopback only, so a LAN address
# (LAN_DETECT) would not reach it. Tests that check the other cases override these.
PUBLIC_URL = ""
LAN_URL = ""
LAN_DETECT = False

# Tests written before the worker see the derived numbers right after the commit, as the
# immediate backend runs the same job there; the pipeline's own tests switch to the database
# backend and run the worker's loop (tests/tournaments/pipeline.py).
TASKS = {
    "default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"},
}
