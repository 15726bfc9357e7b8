"""Settings refuse bad values loudly instead of guessing."""

import datetime

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config.settings import env_bool, env_list, env_positive_int


def test_booleans_are_read_strictly(monkeypatch):
    monkeypatch.setenv("FLAG", "yes")
    assert env_bool("FLAG", False) is True
    monkeypatch.setenv("FLAG", "off")
    assert env_bool("FLAG", True) is False
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="FLAG must be true or false"):
        env_bool("FLAG", True)
    monkeypatch.delenv("FLAG")
    assert env_bool("FLAG", True) is True


def test_lists_are_comma_separated(monkeypatch):
    monkeypatch.setenv("HOSTS", "a.example, b.example,")
    assert env_list("HOSTS", []) == ["a.example", "b.example"]


def test_sqlite_queues_writers_and_uses_wal():
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("SQLite settings only")
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE" and "journal_mode=WAL" in options["init_command"]


def test_lockout_and_idle_limits_are_whole_numbers_of_one_or_more(monkeypatch):
    assert settings.LOGIN_MAX_FAILURES == settings.AXES_FAILURE_LIMIT == 5
    assert settings.LOGIN_LOCK_MINUTES == 15 and settings.AXES_COOLOFF_TIME == datetime.timedelta(minutes=15)
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert settings.CAGE_IDLE_MINUTES == 15 and settings.LOGIN_SETUP_HOURS == 72
    monkeypatch.setenv("LIMIT", "3")
    assert env_positive_int("LIMIT", 5) == 3
    for bad in ("0", "-1", "five", "2.5"):
        monkeypatch.setenv("LIMIT", bad)
        with pytest.raises(ImproperlyConfigured, match="LIMIT must be a whole number of 1 or more"):
            env_positive_int("LIMIT", 5)
