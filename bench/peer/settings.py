"""The smallest Django project that runs django-hordak: its models, on the database in PEER_URL."""

import os
from urllib.parse import urlsplit

_url = urlsplit(os.environ["PEER_URL"])
SECRET_KEY = "bench-peer-only"
USE_TZ = True
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "mptt", "djmoney", "hordak"]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": _url.path.lstrip("/"),
        "USER": _url.username or "postgres",
        "HOST": _url.hostname or "127.0.0.1",
        "PORT": _url.port or 5432,
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
HORDAK_DEFAULT_CURRENCY = "CAD"
HORDAK_INTERNAL_CURRENCY = "CAD"
HORDAK_CURRENCIES = ["CAD"]
