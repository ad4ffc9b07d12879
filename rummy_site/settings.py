"""Settings, read from the environment.

Defaults run out of the box on a laptop for development (SQLite file, DEBUG on, every host
allowed). With DEBUG=0 the site is in production mode: it refuses to start without a real
SECRET_KEY and ALLOWED_HOSTS, and passes ``manage.py check --deploy``. ``make run`` serves a
club in production mode on plain HTTP (HTTPS=0; rummy_site/management/commands/serve.py).
"""

from __future__ import annotations

import ipaddress
import os
import zoneinfo
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {raw!r}")


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip()
    if not (value.isascii() and value.isdigit()) or int(value) < minimum:
        raise ImproperlyConfigured(f"{name} must be a whole number of at least {minimum}, not {raw!r}")
    return int(value)


def env_seconds(name: str, default: float, *, minimum: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not minimum <= value < 86_400:
        raise ImproperlyConfigured(f"{name} must be a number of seconds of at least {minimum}, not {raw!r}")
    return value


def env_url(name: str) -> str:
    """An http(s) address without a trailing slash, or "" when unset."""
    raw = os.environ.get(name, "").strip().rstrip("/")
    if not raw:
        return ""
    scheme, _, rest = raw.partition("://")
    host = rest.split("/", 1)[0]
    if scheme.lower() not in ("http", "https") or not host or any(c.isspace() for c in raw):
        raise ImproperlyConfigured(f"{name} must be an http:// or https:// address, not {raw!r}")
    return raw


def env_rate(name: str, default: str) -> str:
    """A throttle rate as DRF writes it: a count per second, minute, hour or day ("300/min")."""
    raw = os.environ.get(name, "").strip() or default
    count, _, period = raw.partition("/")
    if not (count.isascii() and count.isdigit()) or period[:1] not in ("s", "m", "h", "d"):
        raise ImproperlyConfigured(f"{name} must be a count per period such as 300/min, not {raw!r}")
    return raw


def env_networks(name: str, default: list[str]) -> list[str]:
    """A comma-separated list of addresses or networks (192.168.1.10, 10.0.0.0/8, ::1)."""
    found = env_list(name, default)
    for item in found:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ImproperlyConfigured(f"{name} must list addresses or networks, not {item!r}") from None
    return found


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """One of ``choices``, in any case."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    for choice in choices:
        if raw.lower() == choice.lower():
            return choice
    raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, not {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

_DEV_SECRET = "dev-only-insecure-key-never-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Production mode (DEBUG=0) needs a long random SECRET_KEY, e.g. "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    SECRET_KEY = _DEV_SECRET
elif not DEBUG and (SECRET_KEY == _DEV_SECRET or len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5):
    raise ImproperlyConfigured("SECRET_KEY is too weak for production: use at least 50 random characters.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["*"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is not set. Production mode needs the site's host names.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
for _origin in CSRF_TRUSTED_ORIGINS:
    if _origin.partition("://")[0].lower() not in ("http", "https") or not _origin.partition("://")[2]:
        raise ImproperlyConfigured(
            f"CSRF_TRUSTED_ORIGINS must list http:// or https:// addresses, not {_origin!r}"
        )
# The address other phones open the site at, for shared links and QR codes (games/web/links.py):
# PUBLIC_URL in production (https://rummy.example.org); LAN_URL is what `make run` found on
# the Wi-Fi (http://192.168.1.5:8000), used when the organiser's browser is at localhost;
# without either, LAN_DETECT looks for this machine's LAN address then.
PUBLIC_URL = env_url("PUBLIC_URL")
LAN_URL = env_url("LAN_URL")
LAN_DETECT = env_bool("LAN_DETECT", DEBUG)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "axes",
    "django_htmx",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_tasks_db",
    "rummy_site",
    "games",
    # Before tournaments: its rebuild_derived extends tournaments' own (the first app listed
    # wins a command's name).
    "federations",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Under /api/ every error is a problem document, never an HTML page (rummy_site/api.py).
    "rummy_site.api.ApiErrorPages",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Static files gzipped, pages never (BREACH; rummy_site/compression.py). Before WhiteNoise,
    # which answers static requests itself: this sees its responses on their way out.
    "rummy_site.compression.StaticGZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Outside the session and CSRF middleware, so it sees the cookies they set.
    "rummy_site.pwa.BackgroundCopies",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # An address without a language prefix answers in the reader's language (cookie, then
    # Accept-Language, then LANGUAGE_CODE), and says it varies on them (rummy_site/languages.py).
    "rummy_site.languages.ReaderLanguage",
    "rummy_site.api.ApiLanguage",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The request's address for the audit log; the session's "last seen" (games/web/sessions.py).
    "games.web.sessions.SessionSeen",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Hostile input stops here: too big a body, unstorable text. Inside the others, so its
    # answer has the user's language and the security headers; its check runs before any
    # middleware's process_view (CSRF reads the form there) and before any view.
    "rummy_site.input_guard.HostileInput",
    # The same Idempotency-Key must be the same request (422 otherwise).
    "rummy_site.idempotency.IdempotencyKeys",
    # Last, as django-axes asks: turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Work that spans games (ratings, season standings) runs in `manage.py worker` processes
# beside the web server, queued in the site's own database: nothing else to install or run, on
# SQLite as on PostgreSQL (docs/design/leagues.md, "The derived numbers").
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# A club's job holds a lease its worker renews every third of it; a job whose lease lapsed is a
# dead worker's. Every worker process (`manage.py worker`) sweeps this often: a club with marks
# and no job queued or alive is queued again. So a club whose worker died is whole again within
# about lease + sweep seconds and the job's own time (docs/design/leagues.md, "Faults").
DERIVED_LEASE_SECONDS = env_seconds("DERIVED_LEASE_SECONDS", 30, minimum=0.3)
DERIVED_SWEEP_SECONDS = env_seconds("DERIVED_SWEEP_SECONDS", 10, minimum=0.1)

ROOT_URLCONF = "rummy_site.urls"
WSGI_APPLICATION = "rummy_site.wsgi.application"
ASGI_APPLICATION = "rummy_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "rummy_site.context_processors.signup",
            ],
        },
    },
]

try:
    DATABASES = {
        "default": dj_database_url.config(
            default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
            conn_max_age=env_int("CONN_MAX_AGE", 60),
            conn_health_checks=True,
        )
    }
except ValueError as error:  # an unknown scheme or a malformed address
    raise ImproperlyConfigured(
        f"DATABASE_URL is not a database address dj-database-url reads: {error}"
    ) from None
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several phones saving at once on a club laptop: writers queue for the lock (IMMEDIATE,
    # up to 20 s) instead of failing with "database is locked", and WAL lets readers go on.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
# The one limit on a request body (JSON, forms; a form's uploaded files have their own): more is
# answered 413 before anything reads it (rummy_site/input_guard.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("MAX_BODY_BYTES", 2_621_440, minimum=1024)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes checks every login (the site's and the admin's) before Django's own backend.
AUTHENTICATION_BACKENDS = [
    "rummy_site.auth_backends.SiteAxesBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Off on an invite-only site: accounts are then made only from a club's invite link.
SIGNUP_OPEN = env_bool("SIGNUP_OPEN", True)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGES = [
    ("en", _("English")),
    ("cs", _("Czech")),
    ("sk", _("Slovak")),
    ("pl", _("Polish")),
    ("nb", _("Norwegian Bokmål")),
]
# The site's own language (LANGUAGE_CODE=cs for a Czech club): what an address without a language
# prefix answers in when the reader chose none in the language menu and his phone asks for none
# of the five (rummy_site/languages.py). Its addresses carry no prefix; an old link with its
# prefix (/cs/…) still answers, as does every language's.
LANGUAGE_CODE = env_choice("LANGUAGE_CODE", "en", tuple(code for code, _name in LANGUAGES))
# Each language by its own name, as the language menu lists it ("Čeština", not Django's adverb
# "česky"); never translated, so a reader finds his language whatever the page's language.
LANGUAGE_NAMES = {
    "en": "English",
    "cs": "Čeština",
    "sk": "Slovenčina",
    "pl": "Polski",
    "nb": "Norsk bokmål",
}
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates in the European order (rummy_site/formats/en); the other languages keep Django's.
FORMAT_MODULE_PATH = ["rummy_site.formats"]
TIME_ZONE = os.environ.get("TIME_ZONE", "").strip() or "Europe/Prague"
try:
    zoneinfo.ZoneInfo(TIME_ZONE)
except (zoneinfo.ZoneInfoNotFoundError, ValueError):
    raise ImproperlyConfigured(
        f"TIME_ZONE must be a time zone name such as Europe/Prague, not {TIME_ZONE!r}"
    ) from None
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Names the release in page ETags (games/web/release.py); unset, a digest of the sources does.
RELEASE = os.environ.get("RELEASE", "")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# In development WhiteNoise serves straight from the app and project static folders.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
# Source maps are read only by a browser's developer tools, never by a phone: compressing them
# (half the collected bytes) made every start of the server a minute slower.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "map"]

# The REST API (rummy_site/api.py, docs/design/api.md): session for the site's own pages, bearer
# tokens (personal, or a game's edit link) for everyone else; every error a problem document.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.auth.BearerAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["games.api.auth.TokenScope"],
    "DEFAULT_PAGINATION_CLASS": "games.api.common.CursorPage",
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "rummy_site.api.problem_handler",
    # Every body is JSON, through the site's one reader (games/web/input.py) and of the schema's
    # types: form encodings would carry every value as text, past the schema's types.
    "DEFAULT_PARSER_CLASSES": ["games.api.common.StrictJSONParser"],
    "DEFAULT_THROTTLE_CLASSES": ["games.api.auth.AnonThrottle", "games.api.auth.TokenThrottle"],
    # Per anonymous address, and per token (or user, or game link): a scoreboard polling every
    # few seconds stays far below; a script hammering the site does not. Counted in the
    # database with one atomic upsert (games/services/rates.py), so several servers and
    # parallel connections count together.
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_rate("API_ANON_RATE", "300/min"),
        "user": env_rate("API_USER_RATE", "1200/min"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
SPECTACULAR_SETTINGS = {
    "TITLE": "Rummy score sheet API",
    "DESCRIPTION": "Games, hands, the rules engine, clubs, players, tournaments, seasons and ratings.",
    "VERSION": "1",
    "OAS_VERSION": "3.0.3",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": "/api/v1",
    # One name for the rule families wherever they are listed (a game's family, a season's).
    "ENUM_NAME_OVERRIDES": {
        "FamilyEnum": "engine.rules.FAMILIES",
        "PenaltyKindEnum": "tournaments.services.penalties.PENALTY_KINDS",
        # Choice sets named alike elsewhere keep their names beside the federations' own.
        "VisibilityEnum": "games.models.Club.Visibility",
        "CountsEnum": "tournaments.models.Season.Counts",
        "StateEnum": ["confirmed", "waiting", "disputed"],
        "ActionEnum": "games.models.AuditEntry.Action",
        "FederationVisibilityEnum": "federations.models.Federation.Visibility",
        "FederationCountsEnum": "federations.models.Federation.Counts",
        "FederationMembershipStateEnum": "federations.models.FederationClub.State",
        "FederationActionEnum": "federations.models.FederationChange.Action",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "rummy_site.api.add_problem_responses",
    ],
}

# Login throttling (django-axes; docs/DESIGN.md, "Hardening"): 10 failed logins lock out the
# account at that address and, separately, the address (for every account) for 15 minutes; 50
# from anywhere lock the account everywhere. Each failure during the lockout restarts it.
# Unlock: manage.py axes_reset / axes_reset_username.
AXES_FAILURE_LIMIT = 10
# New accounts per address per hour: a club's members signing up on one Wi-Fi get through, a
# script making accounts does not (counted like the API's limits, games/services/rates.py).
SIGNUPS_PER_HOUR = env_int("SIGNUPS_PER_HOUR", 20, minimum=1)
# Invite tokens looked up per address per hour (opening an invite link is one): a club's
# members on one Wi-Fi get through, a script trying tokens does not.
INVITE_TRIES_PER_HOUR = env_int("INVITE_TRIES_PER_HOUR", 60, minimum=1)
# Searches and check-ins at a tournament's door per address per hour: a hall of players on one
# Wi-Fi checking themselves in get through, a script ticking off the whole list does not.
CHECK_IN_TRIES_PER_HOUR = env_int("CHECK_IN_TRIES_PER_HOUR", 300, minimum=1)
# Password reset links an organiser may make per hour, and tries to use one per address per
# hour (games/services/resets.py): enough for a club evening, too few to guess or to spam.
RESET_LINKS_PER_HOUR = env_int("RESET_LINKS_PER_HOUR", 10, minimum=1)
RESET_TRIES_PER_HOUR = env_int("RESET_TRIES_PER_HOUR", 20, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
# The account alone, from every address together (rummy_site/auth_backends.py).
LOGIN_ACCOUNT_FAILURE_LIMIT = 5 * AXES_FAILURE_LIMIT
AXES_RESET_ON_SUCCESS = False  # a success from an address must not wipe the count of other accounts
AXES_LOCKOUT_CALLABLE = "rummy_site.security.lockout_response"
AXES_CLIENT_IP_CALLABLE = "rummy_site.security.client_ip"
AXES_USERNAME_CALLABLE = "rummy_site.security.login_username"
AXES_DISABLE_ACCESS_LOG = True  # failures are kept (for the lockout); successful logins are not logged
AXES_VERBOSE = False  # its start-up banner, once per process, says nothing an operator needs
# Reverse proxies in front of the site, each appending the client's address to X-Forwarded-For:
# the address for throttling is that many entries from the right (0: REMOTE_ADDR).
PROXY_COUNT = env_int("PROXY_COUNT", 0 if DEBUG else 1)
# Where those proxies are: X-Forwarded-For is believed only from these (a proxy on this machine
# by default); a request straight from anywhere else is counted by its own address.
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES", ["127.0.0.0/8", "::1/128"])

# Content Security Policy: no inline script or style anywhere, nothing from other origins.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}

# Production behind a TLS-terminating proxy; HTTPS=0 for a club's laptop on plain HTTP, where a
# redirect to HTTPS or a Secure-only cookie would lock every phone out.
HTTPS = env_bool("HTTPS", not DEBUG)
if not DEBUG and HTTPS:
    # Behind a TLS-terminating reverse proxy (see README, "Deploying").
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    # A load balancer's health check speaks plain HTTP to the server itself.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True

# LOG_FORMAT=json: one JSON object per line, and a line per request (rummy_site/logs.py); every
# line's secrets (tokens in addresses) are scrubbed in either format.
LOG_FORMAT = env_choice("LOG_FORMAT", "text", ("text", "json"))
LOG_LEVEL = env_choice(
    "LOG_LEVEL", "INFO" if not DEBUG else "WARNING", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
)
if LOG_FORMAT == "json":
    MIDDLEWARE.insert(0, "rummy_site.logs.RequestLog")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "quiet_client_errors": {"()": "rummy_site.security.QuietClientErrors"},
        "scrub_tokens": {"()": "rummy_site.logs.ScrubTokens"},
    },
    "formatters": {"json": {"()": "rummy_site.logs.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["scrub_tokens"],
            **({"formatter": "json"} if LOG_FORMAT == "json" else {}),
        }
    },
    "loggers": {
        # Django's own console handler would print each of its lines a second time beside the
        # root's: its records go to the root alone.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # An ordinary 403/400 is one WARNING line, without a traceback.
        "django.request": {"filters": ["quiet_client_errors"]},
        # The debug server's request lines (make dev) through the scrubbing handler, once.
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
        # The request lines are what LOG_FORMAT=json asks for, whatever LOG_LEVEL says.
        "rummy_site.requests": {"level": "INFO"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}


# E-mail, for the ordinary "forgot your password" by e-mail: only when EMAIL_URL names a server
# (smtp://user:password@host:587/?tls=True, or console:// to print the mails; dj-email-url reads
# it). Without it the site sends nothing, and the reset page says to ask an organiser for a reset
# link instead. Django's mailers (MAILERS) are set only then: the EMAIL_* settings are deprecated.
EMAIL_URL = os.environ.get("EMAIL_URL", "").strip()
EMAIL_ENABLED = bool(EMAIL_URL)
if EMAIL_ENABLED:
    import dj_email_url

    try:
        _email = dj_email_url.parse(EMAIL_URL) if "://" in EMAIL_URL else {}
    except Exception:  # the message below says what is wrong; the parser's would not
        _email = {}
    if not _email.get("EMAIL_BACKEND"):
        raise ImproperlyConfigured(
            "EMAIL_URL must be an e-mail server's address (smtp://…, submission://…, console://), "
            f"not {EMAIL_URL!r}"
        )
    _options: dict[str, object] = {}
    if _email["EMAIL_BACKEND"].endswith("smtp.EmailBackend"):
        _options = {
            "host": _email["EMAIL_HOST"],
            "port": _email["EMAIL_PORT"],
            "username": _email["EMAIL_HOST_USER"] or None,
            "password": _email["EMAIL_HOST_PASSWORD"] or None,
            "use_tls": _email["EMAIL_USE_TLS"],
            "use_ssl": _email["EMAIL_USE_SSL"],
            "timeout": _email["EMAIL_TIMEOUT"] or 20,
        }
    elif _email.get("EMAIL_FILE_PATH"):
        _options = {"file_path": _email["EMAIL_FILE_PATH"]}
    MAILERS = {"default": {"BACKEND": _email["EMAIL_BACKEND"], "OPTIONS": _options}}
    DEFAULT_FROM_EMAIL = (
        os.environ.get("DEFAULT_FROM_EMAIL", "").strip()
        or _email.get("DEFAULT_FROM_EMAIL")
        or "webmaster@localhost"
    )
    SERVER_EMAIL = _email.get("SERVER_EMAIL") or DEFAULT_FROM_EMAIL

# Error reports to Sentry when SENTRY_DSN is set; sentry_sdk is not even imported otherwise.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
if SENTRY_DSN:
    from rummy_site.logs import init_sentry

    try:
        init_sentry(SENTRY_DSN, environment="development" if DEBUG else "production")
    except Exception as error:  # sentry_sdk's BadDsn, or whatever its parser finds wrong
        raise ImproperlyConfigured(f"SENTRY_DSN is not a Sentry DSN: {error}") from None
