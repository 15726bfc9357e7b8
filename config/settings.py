"""Settings, read from environment variables with safe defaults for a laptop at the cage.

Bad values are refused loudly (ImproperlyConfigured) rather than silently replaced.
"""

import os
import re
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

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


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "laptop-only-secret-key-do-not-use-in-production"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "events",
    "cage",
    "reports",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Login is required everywhere but the login page itself.
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    # Then every page is held to its line of events/permissions.py: its methods, its people.
    "events.permissions.PagePermissionMiddleware",
    # A form body that is not UTF-8 reaches the form as "\ufffd", which it refuses.
    "events.form_input.Utf8FormMiddleware",
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
    try:
        DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    except Exception as exc:  # dj_database_url raises several types for a bad URL
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {exc}") from exc
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": BASE_DIR / "db.sqlite3",
        }
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "events:home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-ca"
TIME_ZONE = os.environ.get("TIME_ZONE", "America/Toronto")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"


# Cage window: an amount above this many dollars asks the cashier to tick "I confirm the amount of
# …" before it is recorded (cage.fields.ConfirmLargeAmounts). Whole dollars or dollars and cents.
def env_cents(name: str, default_dollars: str) -> int:
    value = os.environ.get(name, default_dollars).strip()
    if not re.fullmatch(r"[0-9]{1,8}(\.[0-9]{1,2})?", value):
        raise ImproperlyConfigured(f"{name} must be dollars such as 5000 or 5000.00, not {value!r}")
    whole, _point, part = value.partition(".")
    return int(whole) * 100 + int(part.ljust(2, "0"))


CAGE_CONFIRM_ABOVE_CENTS = env_cents("CAGE_CONFIRM_ABOVE", "5000")


# Signing PINs (events.services.pin_verify): this many wrong tries in a row lock a person's PIN
# for this many minutes, so the signing field on the cage's screen cannot be used to guess it.
def env_positive_int(name: str, default: int) -> int:
    value = os.environ.get(name, str(default)).strip()
    if not re.fullmatch(r"[0-9]{1,6}", value) or int(value) < 1:
        raise ImproperlyConfigured(f"{name} must be a whole number of 1 or more, not {value!r}")
    return int(value)


SIGNING_PIN_MAX_FAILURES = env_positive_int("SIGNING_PIN_MAX_FAILURES", 5)
SIGNING_PIN_LOCK_MINUTES = env_positive_int("SIGNING_PIN_LOCK_MINUTES", 15)

# The DRIC's queue: a slip in transit or waiting for a signature this many minutes stands out
# (T&C 2: witness and authorize all cage transactions in a timely manner).
CAGE_QUEUE_OVERDUE_MINUTES = env_positive_int("CAGE_QUEUE_OVERDUE_MINUTES", 15)
# The cage home's inventory and tables panels refresh themselves this often.
CAGE_REFRESH_SECONDS = env_positive_int("CAGE_REFRESH_SECONDS", 20)
