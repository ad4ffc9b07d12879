"""EMAIL_URL: unset, the site sends no e-mail; set, it configures Django's mailer (through
dj-email-url); a value that names no e-mail server stops the site with a message naming it."""

from __future__ import annotations

from tests.test_settings import manage

SHOW = "from django.conf import settings; print(settings.EMAIL_ENABLED, getattr(settings, 'MAILERS', None))"


def shown(stdout: str) -> str:
    return stdout.strip().splitlines()[-1]


def test_an_smtp_address_configures_the_default_mailer() -> None:
    done = manage("shell", "-c", SHOW, EMAIL_URL="smtp://club:pw@mail.example.org:587/?tls=True")
    assert done.returncode == 0, done.stderr
    line = shown(done.stdout)
    assert line.startswith("True {'default': {'BACKEND': 'django.core.mail.backends.smtp.EmailBackend'")
    assert "'host': 'mail.example.org', 'port': 587, 'username': 'club', 'password': 'pw'" in line
    assert "'use_tls': True" in line


def test_unset_the_site_sends_nothing_and_a_bad_value_is_a_loud_error() -> None:
    unset = manage("shell", "-c", SHOW, EMAIL_URL="")
    assert unset.returncode == 0 and shown(unset.stdout) == "False None"
    bad = manage("check", EMAIL_URL="mail.example.org")
    assert bad.returncode != 0 and "EMAIL_URL must be an e-mail server's address" in bad.stderr
