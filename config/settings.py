"""Settings, read from environment variables with safe defaults for a laptop at the cage.

Bad values are refused loudly (ImproperlyConfigured) rather than silently replaced.
"""

import datetime
import os
import re
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.database_url import database_settings

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off", ""):
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


# DEBUG is off unless asked for: `make run` asks for it, for the local demo. Without DEBUG the app
# refuses to start on anything but a secret key of its own: the laptop key below is in the
# repository for all to read, and whoever knows a site's key can forge its sessions.
DEBUG = env_bool("DEBUG", False)
LAPTOP_SECRET_KEY = "laptop-only-secret-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "")
# Or read from a file of its own (mode 0600), which `make serve` makes on first use, so a laptop at
# a fair keeps one key across restarts without anyone typing it.
SECRET_KEY_FILE = os.environ.get("SECRET_KEY_FILE", "")
if not SECRET_KEY and SECRET_KEY_FILE:
    try:
        SECRET_KEY = Path(SECRET_KEY_FILE).read_text().strip()
    except OSError as exc:
        raise ImproperlyConfigured(f"SECRET_KEY_FILE {SECRET_KEY_FILE} cannot be read: {exc.strerror}") from exc
if not DEBUG and SECRET_KEY in ("", LAPTOP_SECRET_KEY):
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to a key of your own when DEBUG is off, e.g. the output of "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
SECRET_KEY = SECRET_KEY or LAPTOP_SECRET_KEY
# The local demo (`make run`): DEBUG on the repository's laptop key, which no real site may start
# on (above). Every page then says it is the demo (events.demo), so its published passwords and
# made-up figures are never taken for an event's.
DEMO = DEBUG and SECRET_KEY == LAPTOP_SECRET_KEY
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
# True only when the app runs behind a reverse proxy that sets X-Forwarded-For: the audit trail
# then takes the client's address from the entry that proxy added, not from REMOTE_ADDR (the proxy).
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # django-tables2, installed from its own folder without importing it at start-up (config/tables2).
    "config.tables2.apps.Tables2Config",
    # Login throttling and lockout (django-axes): counts failed logins, wrong signing PINs and
    # wrong setup codes alike, per username and address (events.accounts).
    "axes",
    "events",
    "cage",
    "reports",
    "audit",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The app serves its own static files, with or without DEBUG (see the hardening block).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Every page and download after this point, signed in or not, is never stored by a browser or
    # a proxy (Cache-Control: no-store, private); static files, answered above, keep theirs.
    "events.no_store.NoStoreMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The browser's language (or the switch's cookie) on a first visit...
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # ... and once logged in, the language the login chose.
    "events.language.UserLanguageMiddleware",
    # Who acts and from where, for the audit trail; records refusals once each request is answered.
    "audit.middleware.AuditMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Login is required everywhere but the login page itself.
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    # Then every page is held to its line of events/permissions.py: its methods, its people.
    "events.permissions.PagePermissionMiddleware",
    # A form body that is not UTF-8 reaches the form as "\ufffd", which it refuses.
    "events.form_input.Utf8FormMiddleware",
    # A session left idle at a cage terminal or tablet locks (CAGE_IDLE_MINUTES) until its owner's
    # signing PIN unlocks it; the panels' polling does not keep it alive.
    "events.idle.IdleLogoutMiddleware",
    # A GET or HEAD writes nothing: within it each question of the books is answered once
    # (core.reading), however many of a page's parts ask it.
    "core.reading.OneReadingMiddleware",
    # Last, as django-axes asks: turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]
if DEMO:
    # The demo's "Not found" is the product's own page, not DEBUG's (events.demo); before axes, last.
    MIDDLEWARE.insert(-1, "events.demo.NotFoundMiddleware")

# The lockout check comes first: a locked-out username is refused before its password is tried.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "events.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"

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
                # A page read over the network in plain http (HTTPS=false) says so.
                "events.plain_http.plain_http",
                # The local demo says so on every page.
                "events.demo.demo",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# SQLite by default, so one command runs the product on a laptop at the cage. WAL lets readers
# work while a slip is written; IMMEDIATE transactions take the write lock at BEGIN, so two
# cashiers posting at once queue (up to the timeout) instead of failing half-way.
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # Each web worker keeps its connection between requests (checked before reuse): opening one
    # is a new PostgreSQL process, which cost a slip at the window about 15 ms (bench/load.py).
    # The check before reuse is also what lets a standby laptop take over: a connection that died
    # with the primary fails it and is closed, and the request opens one to the server that now
    # takes writes (a list of hosts, config/database_url.py).
    DATABASES = {"default": database_settings(DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
        }
    }
# PostgreSQL with two roles (README: the application's role): `migrate` connects as the owner
# given here, then grants the role of DATABASE_URL reading and adding records, never rewriting them.
MIGRATE_DATABASE_URL = os.environ.get("MIGRATE_DATABASE_URL", "")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Passwords are hashed with argon2. PBKDF2 stays after it so a hash made before argon2 still
# verifies, and is rehashed with argon2 at its owner's next login. Signing PINs have argon2 of
# their own, sized for the window and guarded by the lockout (events/hashers.py).
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "events.hashers.SigningPinHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
# Each person lands on the page their role works from (events.access.landing_url).
LOGIN_REDIRECT_URL = "events:landing"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-ca"
# English and Canadian French (issue: the people at a cage in Ottawa or Gatineau work in French).
# Each name is written in its own language, as a switch shows it. The French catalogue is
# locale/fr_CA/LC_MESSAGES/django.po; `make run` and `make test` compile it (compile_catalogues).
LANGUAGES = [("en-ca", "English"), ("fr-ca", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates and times in each language's own way (templates: |date:"SHORT_DATE_FORMAT", |time:"TIME_FORMAT";
# code: django.utils.formats.date_format). English keeps the cage's 24-hour clock (config/formats).
FORMAT_MODULE_PATH = ["config.formats"]
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "America/Toronto")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"


# --- Hardening ------------------------------------------------------------------------------
# Production mode (DEBUG off) is served over HTTPS, by the app itself or behind a proxy that
# ends TLS: cookies go only over HTTPS, browsers are told to use nothing else (HSTS) and plain
# http is redirected. HTTPS=false turns all of that off for a site served over plain http (a
# laptop on 127.0.0.1, the test suite); with DEBUG on it is off unless asked for.
HTTPS = env_bool("HTTPS", not DEBUG)
# Django's database sessions, each read by a query compiled once (core.sessions).
SESSION_ENGINE = "core.sessions"
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
HSTS_SECONDS = os.environ.get("SECURE_HSTS_SECONDS", "31536000").strip()
if not re.fullmatch(r"[0-9]{1,10}", HSTS_SECONDS):
    raise ImproperlyConfigured(f"SECURE_HSTS_SECONDS must be a whole number of seconds, not {HSTS_SECONDS!r}")
SECURE_HSTS_SECONDS = int(HSTS_SECONDS) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_PRELOAD = HTTPS
# Behind a proxy that ends TLS, the app sees plain http; it trusts the proxy's word that the
# browser used HTTPS only when told which header carries it (e.g. X-Forwarded-Proto), and only
# a proxy that always sets that header, overwriting the browser's, may stand in front.
if os.environ.get("SECURE_PROXY_SSL_HEADER"):
    header = os.environ["SECURE_PROXY_SSL_HEADER"].strip()
    if not re.fullmatch(r"[A-Za-z0-9-]+", header):
        raise ImproperlyConfigured(
            f"SECURE_PROXY_SSL_HEADER must be a header name such as X-Forwarded-Proto, not {header!r}"
        )
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + header.upper().replace("-", "_"), "https")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# A form refused by the CSRF check is on the audit trail and answered with a page that says why.
CSRF_FAILURE_VIEW = "audit.csrf.csrf_failure"

# Content-Security-Policy (django-csp): scripts, styles, images and fetches from this site only;
# no inline script, style or event handler anywhere (they live in static/), no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Static files: WhiteNoise serves them from the app itself, no web server to configure. The demo
# and the tests find them in their folders (static/ and each app's) at start-up. The production
# server (`make serve`) sets STATIC_ROOT and collects them there first: each file's name then
# carries a hash of its content, compressed copies sit beside it, and browsers may keep them
# for a year (a changed file is a new name), so a tablet on the fair's Wi-Fi fetches them once.
WHITENOISE_USE_FINDERS = True
if os.environ.get("STATIC_ROOT"):
    STATIC_ROOT = os.environ["STATIC_ROOT"]
    WHITENOISE_USE_FINDERS = False
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

# Where the event's own certificate authority and the server's certificate live (events.local_ca):
# made by `make serve` on first use, the authority's key never leaving this folder.
TLS_DIR = Path(os.environ.get("TLS_DIR", BASE_DIR / "var" / "tls"))

# A 500 shows templates/500.html and nothing else; what went wrong goes to the log: warnings and
# errors (django.request's 500s with their traceback, refused hosts, CSRF failures) to stderr,
# and also to the file LOG_FILE names.
LOG_FILE = os.environ.get("LOG_FILE", "")
LOG_HANDLERS = {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}}
if LOG_FILE:
    LOG_HANDLERS["file"] = {"class": "logging.handlers.WatchedFileHandler", "filename": LOG_FILE, "formatter": "plain"}
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "handlers": LOG_HANDLERS,
    "root": {"handlers": list(LOG_HANDLERS), "level": "WARNING"},
    # Instead of Django's own handlers (its DEBUG-only console would print each error twice):
    # every django.* logger, runserver's request lines included, comes to the handlers above.
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}


# Cage window: an amount above this many dollars asks the cashier to tick "I confirm the amount of
# …" before it is recorded (cage.fields.ConfirmLargeAmounts). Whole dollars or dollars and cents.
def env_cents(name: str, default_dollars: str) -> int:
    value = os.environ.get(name, default_dollars).strip()
    if not re.fullmatch(r"[0-9]{1,8}(\.[0-9]{1,2})?", value):
        raise ImproperlyConfigured(f"{name} must be dollars such as 5000 or 5000.00, not {value!r}")
    whole, _point, part = value.partition(".")
    return int(whole) * 100 + int(part.ljust(2, "0"))


CAGE_CONFIRM_ABOVE_CENTS = env_cents("CAGE_CONFIRM_ABOVE", "5000")


def env_positive_int(name: str, default: int) -> int:
    value = os.environ.get(name, str(default)).strip()
    if not re.fullmatch(r"[0-9]{1,6}", value) or int(value) < 1:
        raise ImproperlyConfigured(f"{name} must be a whole number from 1 to 999999, not {value!r}")
    return int(value)


# Receipt printers on the cage's network that slips may be sent to straight from the server
# (ESC/POS over TCP: cage.receipt_printer), by name: "name=host[:port]" separated by commas, e.g.
# RECEIPT_PRINTERS="cage-left=192.168.1.50:9100,cage-right=192.168.1.51" (port 9100 when none is
# given). A terminal picks one of these names; the server never connects to an address a browser sends.
PRINTER_ITEM = r"([A-Za-z0-9][A-Za-z0-9_.-]{0,39})=([A-Za-z0-9][A-Za-z0-9.-]{0,252})(?::([0-9]{1,5}))?"


def env_printers(name: str) -> dict[str, tuple[str, int]]:
    printers = {}
    for item in env_list(name, []):
        found = re.fullmatch(PRINTER_ITEM, item)
        port = int(found.group(3) or 9100) if found else 0
        if not found or not 1 <= port <= 65535 or found.group(1) in printers:
            raise ImproperlyConfigured(
                f"{name} must be printers named once each as name=host or name=host:port, separated by commas "
                f"(e.g. cage-left=192.168.1.50:9100,cage-right=192.168.1.51), not {item!r}"
            )
        printers[found.group(1)] = (found.group(2), port)
    return printers


RECEIPT_PRINTERS = env_printers("RECEIPT_PRINTERS")


# The DRIC's queue: a slip in transit or waiting for a signature this many minutes stands out
# (T&C 2: witness and authorize all cage transactions in a timely manner).
CAGE_QUEUE_OVERDUE_MINUTES = env_positive_int("CAGE_QUEUE_OVERDUE_MINUTES", 15)
# The DRIC's queue shows this many slips at once, the oldest first, and says how many more wait (a
# page each): its size and time stay bounded whatever the number waiting, and "Approve all shown"
# never takes more than one page. 25, as the cage home's panels: more than a screen holds, and a page
# of rows, each with its forms, is most of what the queue costs to show on every refresh.
CAGE_QUEUE_ROWS = env_positive_int("CAGE_QUEUE_ROWS", 25)
# The cage home's inventory and tables panels refresh themselves this often.
CAGE_REFRESH_SECONDS = env_positive_int("CAGE_REFRESH_SECONDS", 20)
# The cage home lists at most this many rows per panel (slips waiting, fill requests), the latest,
# and says how many more: its size and time stay the same however many slips wait.
CAGE_HOME_PANEL_ROWS = env_positive_int("CAGE_HOME_PANEL_ROWS", 25)


# Lockout (django-axes). LOGIN_MAX_FAILURES wrong tries in a row (a password at the login page or
# wherever a password is asked again, a signing PIN typed on a slip, a setup code) for one
# username from one address lock that username there for LOGIN_LOCK_MINUTES. A try during the
# lock is not counted and does not move its end; a right password or PIN sets the count back to 0.
LOGIN_MAX_FAILURES = env_positive_int("LOGIN_MAX_FAILURES", 5)
LOGIN_LOCK_MINUTES = env_positive_int("LOGIN_LOCK_MINUTES", 15)
AXES_FAILURE_LIMIT = LOGIN_MAX_FAILURES
AXES_COOLOFF_TIME = datetime.timedelta(minutes=LOGIN_LOCK_MINUTES)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# And an address, whatever usernames it tries: this many failed logins from one address lock every
# login there for LOGIN_LOCK_MINUTES (events.lockout.AddressAwareHandler).
LOGIN_ADDRESS_MAX_FAILURES = env_positive_int("LOGIN_ADDRESS_MAX_FAILURES", 20)
AXES_HANDLER = "events.lockout.AddressAwareHandler"
# A wrong signing PIN counts against that person's PIN, apart from their login (events.lockout).
AXES_USERNAME_CALLABLE = "events.lockout.lockout_key"
# The address a try counts from is the client's, the one the audit trail records: REMOTE_ADDR, or
# behind a reverse proxy (BEHIND_PROXY) the address that proxy added last to X-Forwarded-For.
# Without it every try behind a proxy would come from the proxy's address, and a few wrong
# passwords from anyone would lock that username for everyone. (Axes reads its AXES_IPWARE_*
# settings only through django-ipware, which the product does not install; this callable is the
# one place the client's address is worked out, for the lockout and the trail alike.)
AXES_CLIENT_IP_CALLABLE = "events.lockout.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# The lockout page is our own, translated, with when the lock ends.
AXES_LOCKOUT_CALLABLE = "events.views_accounts.locked_out"

# A session with no activity for this many minutes locks, and its owner's signing PIN unlocks it
# (a login with no PIN is logged out: events.idle); the panels' refresh is not activity. Short: a
# cage terminal is left unattended at a busy window.
CAGE_IDLE_MINUTES = env_positive_int("CAGE_IDLE_MINUTES", 15)

# A one-time setup code, handed over on paper to the person a login was made for, works this many
# hours (events.services.login_create).
LOGIN_SETUP_HOURS = env_positive_int("LOGIN_SETUP_HOURS", 72)
