"""Settings read from the environment: SQLite and in-process tasks by default, the full stack when told."""

from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.cache import cache_config
from config.mail import email_config

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# Production is the safe reading: nothing insecure happens unless DJANGO_DEBUG says so.
DEBUG = env.bool("DJANGO_DEBUG", default=False)
PRODUCTION = env.bool("DJANGO_PRODUCTION", default=False)

if PRODUCTION:
    if DEBUG:
        raise ImproperlyConfigured("DJANGO_DEBUG must be off when DJANGO_PRODUCTION is on.")
    SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
    if not SECRET_KEY:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_PRODUCTION is on.")
else:
    SECRET_KEY = env.str(
        "DJANGO_SECRET_KEY", default="dev-only-insecure-key-do-not-use-in-production"
    )

ALLOWED_HOSTS = env.list(
    "DJANGO_ALLOWED_HOSTS", default=[] if PRODUCTION else ["127.0.0.1", "localhost", "testserver"]
)
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "scoring",
    "club",
    "live",
    "tournaments",
    "entries",
    "seasons",
    "prizes",
    "pad",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A session opened by a referee's private link: one tournament's tables, until revoked.
    "tournaments.middleware.RefereeLinkMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last: it answers a locked-out sign-in (django-axes).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "tournaments.context_processors.director_link",
                "tournaments.context_processors.live_stream",
            ],
        },
    },
]

# No DATABASE_URL: a SQLite file in the project folder, so `make run` works on a bare machine.
DATABASE_URL = env.str("DATABASE_URL", default="") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
DATABASES = {"default": env.db_url_config(DATABASE_URL)}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DATABASE_CONN_MAX_AGE", default=0))
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Referees write at the same time: wait for the lock instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("timeout", 20)
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
if env.str("DJANGO_TEST_DB_NAME", default=""):
    DATABASES["default"]["TEST"] = {"NAME": env.str("DJANGO_TEST_DB_NAME")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: it refuses a sign-in once an account or an address failed too often.
AUTHENTICATION_BACKENDS = [
    "config.auth.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:signed_in"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# The currency of entry fees (docs/director.md), as the cash summary names it.
BELOTE_CURRENCY = env.str("BELOTE_CURRENCY", default="EUR")

LANGUAGES = [("en", _("English")), ("nl", _("Dutch")), ("fr", _("French")), ("fi", _("Finnish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("DJANGO_TIME_ZONE", default="Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Outside production, static files are served from their source folders (no collectstatic
# needed for `make run`, whether DEBUG is on or off); production serves the collected ones.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# How many proxies (a TLS terminator, a load balancer) stand in front of the site: the client's
# address is then read from X-Forwarded-For (config/addresses.py); 0 ignores the header.
PROXY_COUNT = env.int("DJANGO_NUM_PROXIES", default=0)

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_CONTENT_TYPE_NOSNIFF = True
    # HSTS is opt-in: once a browser saw it, the site is HTTPS-only for it for that long.
    SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=False)
    SECURE_HSTS_PRELOAD = env.bool("DJANGO_HSTS_PRELOAD", default=False)
    # Usually the TLS proxy redirects http to https; the site can do it too.
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SSL_REDIRECT", default=False)
X_FRAME_OPTIONS = "DENY"

# E-mail (a registration's confirmation with its private link): none is sent until a server
# is set, e.g. BELOTE_EMAIL_URL=smtp+tls://user:password@smtp.example.org:587 (django-environ's
# forms); consolemail:// prints them, as a development aid; filemail:///abs/path writes them
# as files there (filemail://folder: under the project folder).
vars().update(email_config(env.str("BELOTE_EMAIL_URL", default="dummymail://"), base=BASE_DIR))
DEFAULT_FROM_EMAIL = env.str("BELOTE_EMAIL_FROM", default="belote@localhost")
# The site's address, for links in e-mails sent outside a request (a place freed by a higher
# capacity tells the waiting entry its private link).
BELOTE_SITE_URL = env.str(
    "BELOTE_SITE_URL",
    default=f"https://{ALLOWED_HOSTS[0]}"
    if PRODUCTION and ALLOWED_HOSTS
    else "http://localhost:8000",
).rstrip("/")

# Content Security Policy (django-csp): scripts, styles, fonts and images from the site only,
# no inline script, style or event handler (the pages need none), no framing. WebAssembly may
# be compiled ('wasm-unsafe-eval', which allows no JavaScript eval): the scoring engine runs
# on the phone in Pyodide, in a worker loaded from the site itself (docs/offline.md).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", "'wasm-unsafe-eval'"],
        "worker-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# `manage.py backup` writes times to the microsecond (Django's JSON keeps milliseconds).
SERIALIZATION_MODULES = {"json_exact": "tournaments.management.exact_json"}

# Sign-in lockout (django-axes): after AXES_FAILURE_LIMIT failures from one address (any
# account), or for one account from one address, sign-ins from there are refused (429, a page
# that says so) for the cool-off time. Not per account alone: then anyone who knows a
# username could lock its owner out everywhere; the right password from an address that
# has not failed gets in (docs/security.md, "Sign-in lockout"). Attempts are kept in the database, so
# a cache outage does not lift the lockout.
AXES_FAILURE_LIMIT = env.int("BELOTE_LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("BELOTE_LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = ["ip_address", ["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "tournaments.views.accounts.locked_out"
AXES_CLIENT_IP_CALLABLE = "config.addresses.client_address"
AXES_VERBOSE = False
# No log of successful sign-ins: it would open a session for every API sign-in.
AXES_DISABLE_ACCESS_LOG = True

# A Redis cache outage costs speed, never a request: the data is in the database.
CACHES = {"default": cache_config(env.str("CACHE_URL", default="") or "locmemcache://")}

# The live stream (live/stream/, docs/scaling.md). LIVE_STREAM_URL:
# where pages open it (e.g. "/stream", routed by the proxy to the stream hosts); empty, the
# pages poll, as on `make run`. The web tier and the workers publish each tournament's new
# versions on LIVE_REDIS_URL (by default the cache's Redis); a stream host listens there
# and fetches the regions from LIVE_STREAM_ORIGIN, the web tier as the hosts reach it
# (under a name of ALLOWED_HOSTS and as HTTPS, X-Forwarded-Proto: SECURE_SSL_REDIRECT
# spares it; live.stream.app.StreamApp).
LIVE_STREAM_URL = env.str("BELOTE_LIVE_STREAM_URL", default="").rstrip("/")
# A stream host's guards (live/stream/guard.py): the open streams one client address
# may hold there (past that 429, and its pages poll; 0: no cap), and the seconds a new
# connection has to send its request's headers before the host closes it.
STREAM_MAX_PER_CLIENT = env.int("BELOTE_STREAM_MAX_PER_CLIENT", default=20)
STREAM_HEADER_TIMEOUT_SECONDS = env.float("BELOTE_STREAM_HEADER_TIMEOUT", default=10.0)
LIVE_STREAM_ORIGIN = env.str("BELOTE_LIVE_STREAM_ORIGIN", default="")
_cache_url = env.str("CACHE_URL", default="")
LIVE_REDIS_URL = env.str("BELOTE_LIVE_REDIS_URL", default="") or (
    _cache_url.replace("rediscache://", "redis://", 1)
    if LIVE_STREAM_URL and _cache_url.startswith("rediscache://")
    else ""
)
if LIVE_STREAM_URL and not LIVE_REDIS_URL:
    raise ImproperlyConfigured(
        "BELOTE_LIVE_STREAM_URL needs Redis: set CACHE_URL to rediscache://… or BELOTE_LIVE_REDIS_URL."
    )

# Celery: without a broker the tasks run in process, eagerly, so the site works alone.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
if CELERY_BROKER_URL.startswith("redis://"):
    # kombu's Redis transport with the fix that lets a worker ride out a Redis outage.
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_TIME_LIMIT = 5 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task held by a worker that died comes back after this many seconds (Redis' default is an
# hour); our tasks last well under a minute, so ten minutes is safe and keeps standings fresh.
# A broker that does not answer is given up on quickly: a request that sends a task must not
# wait for it (the change is committed; the reconcile sends what could not be sent).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 600, "socket_connect_timeout": 2}
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.1,
}
CELERY_TIMEZONE = TIME_ZONE
# Every tournament whose standings are behind its changes is sent a recompute: by the worker
# each time it (re)connects to the broker (config/celery_app.py), and every
# RECONCILE_SECONDS by beat, so a lost recompute never waits long.
RECONCILE_SECONDS = env.int("BELOTE_RECONCILE_SECONDS", default=20)
CELERY_BEAT_SCHEDULE = {
    "reconcile-standings": {
        "task": "tournaments.tasks.reconcile_standings",
        "schedule": RECONCILE_SECONDS,
    },
    # Score pad games nobody opened for PAD_EXPIRY_DAYS are deleted (pad/tasks.py).
    "delete-expired-pads": {"task": "pad.tasks.delete_expired_pads", "schedule": 6 * 60 * 60},
}

# The score pad (docs/api.md, "The score pad"): a saved game nobody opened (by either of its
# addresses) for this many days is deleted; one filed with a club is kept.
PAD_EXPIRY_DAYS = env.int("BELOTE_PAD_EXPIRY_DAYS", default=180)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # The token first: its `WWW-Authenticate` challenge makes "sign in first" a 401.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "club.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # Every write is JSON: deal entries and house rules are nested objects.
    "DEFAULT_PARSER_CLASSES": ["config.api_parsers.SafeJSONParser"],
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "tournaments.api.errors.api_exception_handler",
    # Counted in the shared cache; without it (down) nothing is throttled, nothing fails.
    "DEFAULT_THROTTLE_CLASSES": [
        "config.api_throttles.AnonymousThrottle",
        "config.api_throttles.UserThrottle",
        "config.api_throttles.TokenThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        # A scoreboard polls every few seconds; a club room shares one address.
        "anon": env.str("BELOTE_THROTTLE_ANON", default="600/min"),
        "user": env.str("BELOTE_THROTTLE_USER", default="1200/min"),
        "token": env.str("BELOTE_THROTTLE_TOKEN", default="1200/min"),
        # Scoped rates (a view's `throttle_scope`): `api_sign_in` is the password exchange of
        # POST /api/v1/auth/token/, per client address.
        "api_sign_in": env.str("BELOTE_API_SIGN_IN_RATE", default="10/minute"),
        # Online registrations (the API's and the page's), per client address.
        "registration": env.str("BELOTE_REGISTRATION_RATE", default="20/hour"),
        # The door's self check-in page (searches and check-ins), per client address: a
        # room of players on the club's one Wi-Fi address checks in within a few minutes.
        "self_check_in": env.str("BELOTE_SELF_CHECK_IN_RATE", default="60/min"),
        # New score pad games (POST /api/v1/pads/), per client address: friends at a club's
        # tables share its Wi-Fi, a script filling the database does not get far.
        "pad": env.str("BELOTE_PAD_RATE", default="30/hour"),
    },
    # Throttles count by client address: trust X-Forwarded-For only from this many proxies
    # in front of the site (0: the connection's address), so a client cannot pick its own.
    "NUM_PROXIES": PROXY_COUNT,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Belote club API",
    # The long description (getting started, signing in, errors) is the hook's, from docs/.
    "DESCRIPTION": "Clubs, tournaments, schedules, deal entry, standings and club rankings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.api.schema.add_error_responses",
        "tournaments.api.schema.describe_security_schemes",
        "tournaments.api.schema.integer_ids",
    ],
    "ENUM_NAME_OVERRIDES": {
        "SeatEnum": "tournaments.models.Seat",
        "SideEnum": "tournaments.models.Side",
        "SuitEnum": "tournaments.api.deal_serializers.SUITS",
        "RankEnum": "tournaments.api.deal_serializers.RANKS",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "MatchStatusEnum": "tournaments.models.Match.Status",
        "RegistrationStatusEnum": "entries.models.Registration.Status",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", default="INFO")},
    # One line per task run is noise (the demo alone runs hundreds); failures still show.
    "loggers": {"celery.app.trace": {"level": "WARNING"}},
}
