"""Settings, read from the environment; with nothing set, the embedded default needs no server.

Embedded: SQLite in WAL mode (var/db.sqlite3), Celery over kombu's SQLAlchemy transport on a
SQLite file (var/celery.sqlite), mail delivered to the local outbox page (/outbox/).
Production: DATABASE_URL (PostgreSQL), REDIS_URL (Celery broker), EMAIL_BACKEND (an anymail
backend, with its ANYMAIL_* variables, or Django's SMTP backend with EMAIL_URL).
"""

import base64
import secrets
from pathlib import Path

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env") if (BASE_DIR / ".env").exists() else None

VAR_DIR = Path(env.str("VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def _embedded_secret_key() -> str:
    """A key kept in var/ so signed links survive restarts of the embedded service."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = env.str("SECRET_KEY", default="") or _embedded_secret_key()
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[SITE_URL])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "anymail",
    "django_ratelimit",
    "accounts",
    "games",
    "cardsets",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # the language: its cookie (the switcher, or the profile at sign-in), else Accept-Language (accounts.languages)
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # inbound webhook bodies the ESP's parser cannot read: 400 (not retried), never 500
    "games.inbound.MalformedWebhooks",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.mail_refused",
                "games.context_processors.waiting_on_me",
            ],
            # Django's default loaders (DIRS, then the apps'), cached as by default; then each title's own
            # templates, named titles/<slug>/<file> (games/title_files.py)
            "loaders": [
                (
                    "django.template.loaders.cached.Loader",
                    [
                        "django.template.loaders.filesystem.Loader",
                        "django.template.loaders.app_directories.Loader",
                        "games.title_files.Loader",
                    ],
                )
            ],
        },
    },
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets pages read while the worker writes; IMMEDIATE takes the write lock up front so two
    # submits queue instead of failing half way.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=10000;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    # A kept connection is tested (SELECT 1) before a request first uses it, so one a database
    # restart dropped is replaced instead of failing that request (issue 22; config/errors.py
    # answers what still cannot reach the database with a 503 "try again in a moment").
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend with orjson for JSON; values travel apart from the SQL (server-side binding)
    # instead of being quoted into it in Python, which the write path's binary bulk writes need
    # (config/postgresql/base.py and games/pending.py say why: the sweep's batches, issue 13)
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = True
    # A server that is down refuses at once, but one out of reach would hold a request (and its
    # gunicorn thread) for minutes: give up after this many seconds (a 503). ?connect_timeout= wins.
    DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", 5)
    # psycopg prepares a statement a connection has run this many times, so PostgreSQL stops
    # parsing and planning it again: bench/submit.py, same run, answers 113 -> 175 per second.
    # "none" turns it off, for a pooler in transaction mode that cannot keep prepared statements.
    _prepare = env.str("DATABASE_PREPARE_THRESHOLD", default="5").strip().lower()
    if _prepare != "none" and not (_prepare.isascii() and _prepare.isdigit() and len(_prepare) <= 4):
        raise ImproperlyConfigured(f"DATABASE_PREPARE_THRESHOLD must be a number of runs or 'none', not {_prepare!r}")
    DATABASES["default"]["OPTIONS"]["prepare_threshold"] = None if _prepare == "none" else int(_prepare)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
# Players sign in by a link mailed to them (django-sesame: signed, single use, expiring in minutes);
# organisers may keep a password.
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend", "sesame.backends.ModelBackend"]
SESAME_MAX_AGE = 15 * 60
SESAME_ONE_TIME = True
SESSION_COOKIE_AGE = 14 * 24 * 3600  # a sign-in lasts two weeks
LOGIN_URL = "sign-in"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en"
# each named in its own language, as a switcher shows them; every one is complete (tests/i18n)
LANGUAGES = [
    ("en", "English"),
    ("pt", "Português"),
    ("ja", "日本語"),
    ("es", "Español"),
    ("fr", "Français"),
    ("de", "Deutsch"),
]
# an app's catalogue is in its locale/; a title's (not an app: titles never import Django) in its own
LOCALE_PATHS = sorted(str(p) for p in (BASE_DIR / "games" / "titles").glob("*/locale"))
LANGUAGE_COOKIE_NAME = "cafe_language"
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
# Django's default finders, then each title's own static files, as titles/<slug>/<file> (games/title_files.py)
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "games.title_files.Finder",
]
WHITENOISE_USE_FINDERS = True

# Signed seat links: valid this long after they were sent (a fresh one comes with every email).
# the yearly vacation allowance each player has per game (a game may set fewer days)
VACATION_DAYS = env.int("VACATION_DAYS", default=14)
SEAT_LINK_MAX_AGE = env.int("SEAT_LINK_MAX_AGE", default=60 * 60 * 24 * 90)

# Mail. The Notification table is the outbox; the "default" mailer is what actually delivers:
# EMAIL_BACKEND names an anymail backend (its ANYMAIL_* variables configure it) or Django's SMTP
# backend (configured by EMAIL_URL, e.g. smtp+tls://user:pass@mail.example.org:587).
_mail_options = {}
if env.str("EMAIL_URL", default=""):
    _smtp = env.email_url("EMAIL_URL")
    _mail_options = {
        k: v
        for k, v in {
            "host": _smtp.get("EMAIL_HOST"),
            "port": _smtp.get("EMAIL_PORT"),
            "username": _smtp.get("EMAIL_HOST_USER"),
            "password": _smtp.get("EMAIL_HOST_PASSWORD"),
            "use_tls": _smtp.get("EMAIL_USE_TLS"),
            "use_ssl": _smtp.get("EMAIL_USE_SSL"),
        }.items()
        if v not in (None, "")
    }
# Every send gives up after this many seconds (SMTP and the ESPs' HTTP APIs alike) and is retried
# like any temporary failure: a mail server that accepts and never answers holds nothing up for long.
MAIL_TIMEOUT = env.float("MAIL_TIMEOUT", default=15.0)
_mail_backend = env.str("EMAIL_BACKEND", default="games.mail.LocalMailboxBackend")
if _mail_backend == "django.core.mail.backends.smtp.EmailBackend":
    _mail_options["timeout"] = MAIL_TIMEOUT  # anymail's ESPs take theirs from ANYMAIL below
MAILERS = {"default": {"BACKEND": _mail_backend, "OPTIONS": _mail_options}}
# Replies to game emails come back to <prefix><token>@REPLY_DOMAIN through anymail's inbound webhook.
REPLY_DOMAIN = env.str("REPLY_DOMAIN", default="localhost")
REPLY_LOCAL_PREFIX = env.str("REPLY_LOCAL_PREFIX", default="play+")
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Café turns <turns@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# ESP settings (e.g. ANYMAIL_MAILGUN_API_KEY) and the inbound webhook's basic-auth secret
# (ANYMAIL_WEBHOOK_SECRET="user:password", required for replies by email to be accepted).
ANYMAIL = {k.removeprefix("ANYMAIL_"): v for k, v in env.ENVIRON.items() if k.startswith("ANYMAIL_")}
ANYMAIL.setdefault("REQUESTS_TIMEOUT", MAIL_TIMEOUT)  # an ESP's HTTP API, as SMTP: retried when slow

# --- channels (games.channels): chat webhooks -------------------------------------------------
# Hosts a user-given webhook URL may reach although they resolve to a private or local address
# (the SSRF guard refuses those otherwise). Empty by default.
CHANNEL_ALLOWED_HOSTS = env.list("CHANNEL_ALLOWED_HOSTS", default=[])
# Chat posts recorded in the local outbox (/outbox/) instead of sent: on by default exactly when
# mail goes to the local outbox too (the embedded default), so a game tried on one machine posts
# nowhere; set CHAT_LOCAL=0 to post for real with local mail.
CHAT_LOCAL = env.bool("CHAT_LOCAL", default=_mail_backend == "games.mail.LocalMailboxBackend")

# Celery: Redis when REDIS_URL is set, else a SQLite file that needs no server.
REDIS_URL = env.str("REDIS_URL", default="")

# The cache holds the sign-in rate limits (django-ratelimit) and a few short-lived notes, so every
# web process must share it: Redis when REDIS_URL is set, else a directory in var/ on this one
# machine. Its counters are not atomic there (django_ratelimit.E003): near a limit, two requests at
# the same instant may both pass, which the embedded service can live with.
if REDIS_URL:
    # Fail-soft (config/cache.py): with Redis down or hung, a read is a miss and the rate limits count
    # in each web process's memory (so at most N times a limit with N processes; sign-in still works).
    # Each try waits at most these timeouts; after a failure Redis is left alone for a few seconds.
    CACHES = {
        "default": {
            "BACKEND": "config.cache.FailSoftRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "cache",
            "OPTIONS": {"socket_connect_timeout": 0.3, "socket_timeout": 0.3, "BREAKER_SECONDS": 5},
        }
    }
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]  # Django's own Redis cache increments atomically
    # With the broker down, an answer's after-commit .delay() fails at once (Celery's default policy
    # retries 3 times 0.2 s apart: 0.6 s a task); one retry still reconnects a connection Redis dropped
    # in a restart. What is not queued stays pending: beat's sweep sends it (games/dispatch.py).
    CELERY_TASK_PUBLISH_RETRY_POLICY = {
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.1,
        "interval_max": 0.1,
    }
    CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 2}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]

CELERY_BROKER_URL = (
    env.str("CELERY_BROKER_URL", default="") or REDIS_URL or f"sqla+sqlite:///{VAR_DIR / 'celery.sqlite'}"
)
# Mail goes through its own queue, taken by its own worker process (the Procfile's "mailer"), so a
# slow or hung mail server never holds up the sweep, timeouts and bots, and they never hold up mail.
CELERY_MAIL_QUEUE = env.str("CELERY_MAIL_QUEUE", default="mail")
CELERY_TASK_ROUTES = ("config.celery.route_task",)
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
# A task is acknowledged once done, and redelivered if its worker dies: every task is idempotent
# (the sweep's batches re-check each seat under its game's lock; a sent email is never resent).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_BEAT_SCHEDULE = {
    "sweep": {"task": "games.tasks.sweep", "schedule": crontab(minute="*")},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# --- replies by email with no provider (games/mailin/) ------------------------------------------
# `manage.py smtpd` receives replies for REPLY_DOMAIN itself (its MX points at the service); or
# REPLY_IMAP_URL names an ordinary mailbox whose plus-addresses are the reply addresses, e.g.
# imaps://turns%40example.org:password@imap.example.org/INBOX?processed=Processed (read each minute).
REPLY_IMAP_URL = env.str("REPLY_IMAP_URL", default="")
if REPLY_IMAP_URL:
    from games.mailin.addresses import MailboxURLError, parse_mailbox_url

    try:
        parse_mailbox_url(REPLY_IMAP_URL)
    except MailboxURLError as e:
        raise ImproperlyConfigured(str(e)) from None
    CELERY_BEAT_SCHEDULE["read_reply_mailbox"] = {
        "task": "games.tasks.read_reply_mailbox",
        "schedule": crontab(minute="*"),
    }
REPLY_MAIL_MAX_BYTES = env.int("REPLY_MAIL_MAX_BYTES", default=1_000_000)  # a reply is text: 1 MB is plenty
REPLY_SMTP_MAX_RECIPIENTS = env.int("REPLY_SMTP_MAX_RECIPIENTS", default=5)
REPLY_SMTP_MESSAGES_PER_HOUR = env.int("REPLY_SMTP_MESSAGES_PER_HOUR", default=60)  # per peer address
REPLY_SMTP_CONNECTIONS_PER_MINUTE = env.int("REPLY_SMTP_CONNECTIONS_PER_MINUTE", default=30)  # per peer address
REPLY_SMTP_CONNECTIONS = env.int("REPLY_SMTP_CONNECTIONS", default=100)  # open at once, from everyone
REPLY_MAIL_KEEP_DAYS = env.int("REPLY_MAIL_KEEP_DAYS", default=30)  # handled messages are then deleted
# --- end of replies by email with no provider ---------------------------------------------------

# Card sets (cardsets/): bot games a set must pass before it is usable, and upload limits in bytes.
CARDSET_CHECK_GAMES = env.int("CARDSET_CHECK_GAMES", default=200)
CARDSET_CHECK_STALL_MINUTES = env.int("CARDSET_CHECK_STALL_MINUTES", default=10)
CARDSET_UPLOAD_BYTES = 1_000_000  # one uploaded file (a YAML file or a zip)
CARDSET_ZIP_BYTES = 2_000_000  # all a zip's files, unpacked

if not DEBUG:
    SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=SITE_URL.startswith("https://"))
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=False)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
BEHIND_PROXY = env.bool("BEHIND_PROXY", default=False)  # the proxy sets X-Forwarded-Proto and -For
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

# --- Web push (issue 25; games/channels/push.py) ----------------------------------------------
# VAPID: the key pair the service signs its pushes with. Given by the environment (the private key
# as base64url of its 32 raw bytes, as web-push tools print it), or made on the first run and kept
# in var/ beside the secret key, so browsers' subscriptions survive restarts (they are bound to it).


def _vapid_private_key() -> str:
    given = env.str("VAPID_PRIVATE_KEY", default="")
    if given:
        return given.strip()
    path = VAR_DIR / "vapid_private_key"
    if not path.exists():
        # a P-256 private key is a number in [1, n-1] (n: the curve's order); no library needed
        n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
        raw = (secrets.randbelow(n - 1) + 1).to_bytes(32, "big")
        path.write_text(base64.urlsafe_b64encode(raw).decode().rstrip("="))
        path.chmod(0o600)
    return path.read_text().strip()


VAPID_PRIVATE_KEY = _vapid_private_key()
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")  # checked against the private key at start
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:turns@localhost")  # how a push service reaches us
# Each push: how long the push service keeps it for an offline device, and how long we wait for it.
PUSH_TTL_SECONDS = env.int("PUSH_TTL_SECONDS", default=24 * 3600)
PUSH_TIMEOUT_SECONDS = env.float("PUSH_TIMEOUT_SECONDS", default=5.0)
# Push endpoints come from browsers: only https, never on loopback/private/link-local addresses,
# except these hosts (which may also be plain http): for tests and a push service of one's own.
PUSH_LOCAL_HOSTS = env.list("PUSH_LOCAL_HOSTS", default=[])
# urllib3 logs each request's path at DEBUG, and a push endpoint's path is the device's secret
LOGGING["loggers"]["urllib3.connectionpool"] = {"level": "INFO"}
# --- end of web push ----------------------------------------------------------------------------
