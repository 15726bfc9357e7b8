"""DATABASE_URL with a list of PostgreSQL hosts (config/database_url.py): the standby laptop's URL
reaches psycopg as the lists libpq takes, a URL of one host reads as before, and a malformed one
is refused, naming what is wrong without repeating the password."""

import dj_database_url
import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.utils import ConnectionHandler

from config.database_url import database_settings
from tests.test_hardening import SITE_KEY, manage, setting

STANDBY_URL = "postgres://cage:s3cret@laptop-a:5432,laptop-b:5432/cage?target_session_attrs=read-write"


def test_the_standby_laptops_url_names_both_hosts_and_asks_for_the_one_that_takes_writes():
    settings = database_settings(STANDBY_URL, conn_max_age=60, conn_health_checks=True)
    assert settings == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "cage",
        "USER": "cage",
        "PASSWORD": "s3cret",
        "HOST": "laptop-a,laptop-b",
        "PORT": "5432,5432",
        "OPTIONS": {"target_session_attrs": "read-write", "connect_timeout": 3, "tcp_user_timeout": 5000},
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
        "DISABLE_SERVER_SIDE_CURSORS": False,
    }


def test_django_hands_psycopg_the_lists_libpq_takes():
    connection = ConnectionHandler({"default": database_settings(STANDBY_URL)})["default"]
    params = connection.get_connection_params()
    assert (params["host"], params["port"], params["dbname"]) == ("laptop-a,laptop-b", "5432,5432", "cage")
    assert params["target_session_attrs"] == "read-write" and params["connect_timeout"] == 3


def test_the_url_may_set_its_own_timeouts_and_leave_ports_out():
    settings = database_settings(
        "postgresql://cage@laptop-a,laptop-b/cage?target_session_attrs=read-write&connect_timeout=10"
    )
    assert (settings["HOST"], settings["PORT"]) == ("laptop-a,laptop-b", "")
    assert settings["OPTIONS"] == {
        "target_session_attrs": "read-write",
        "connect_timeout": 10,
        "tcp_user_timeout": 5000,
    }
    # One port given: the other host's is libpq's default, an empty item of the list.
    assert database_settings("postgres://cage@a,b:5433/cage?target_session_attrs=primary")["PORT"] == ",5433"


def test_ipv6_hosts_in_brackets_and_a_password_with_an_at_sign_and_a_comma():
    settings = database_settings(
        "postgres://cage:p%40ss%2Cword@[::1]:5432,[fd00::2]:5433/cage?target_session_attrs=read-write"
    )
    assert (settings["HOST"], settings["PORT"], settings["PASSWORD"]) == ("::1,fd00::2", "5432,5433", "p@ss,word")


@pytest.mark.parametrize(
    "url",
    [
        "postgres://cage:s3cret@laptop-a:5432/cage",
        "postgres://cage:s3cret@laptop-a/cage?sslmode=require&target_session_attrs=read-write",
        "sqlite:////var/cage/cage.sqlite3",
    ],
)
def test_a_url_of_one_host_reads_as_dj_database_url_reads_it(url):
    assert database_settings(url, conn_max_age=60) == dj_database_url.parse(url, conn_max_age=60)


@pytest.mark.parametrize(
    ("url", "refusal"),
    [
        ("postgres://cage:s3cret@laptop-a:5432,laptop-b:5432/cage", "add ?target_session_attrs=read-write"),
        ("postgres://cage:s3cret@laptop-a,,laptop-b/cage?target_session_attrs=read-write", "an empty host"),
        ("postgres://cage:s3cret@laptop-a,/cage?target_session_attrs=read-write", "an empty host"),
        ("postgres://cage:s3cret@laptop-a:5432,laptop-b:99999/cage?target_session_attrs=read-write", "from 1 to 65535"),
        ("postgres://cage:s3cret@laptop-a:0,laptop-b/cage?target_session_attrs=read-write", "from 1 to 65535"),
        ("postgres://cage:s3cret@laptop-a:54x2,laptop-b/cage?target_session_attrs=read-write", "host or host:port"),
        ("postgres://cage:s3cret@::1,::2/cage?target_session_attrs=read-write", "IPv6 address goes in brackets"),
        ("postgres://cage:s3cret@laptop-a/cage?target_session_attrs=readwrite", "must be one of any, read-write"),
        ("postgres://cage:s3cret@a,b/cage?target_session_attrs=read-write&target_session_attrs=any", "more than once"),
        ("mysql://cage:s3cret@laptop-a,laptop-b/cage", "only a PostgreSQL URL"),
        ("postgres://cage:s3cret@laptop-a:5432:5433/cage", "is not a database URL"),
        ("oracle-ish://cage:s3cret@laptop-a/cage", "is not a database URL"),
    ],
)
def test_a_malformed_url_is_refused_saying_what_is_wrong_without_the_password(url, refusal):
    with pytest.raises(ImproperlyConfigured, match="^DATABASE_URL") as refused:
        database_settings(url)
    assert refusal in str(refused.value) and "s3cret" not in str(refused.value)


def test_settings_read_the_list_and_check_a_kept_connection_before_reusing_it():
    """A worker keeps its connection (CONN_MAX_AGE) but checks it first (CONN_HEALTH_CHECKS): one
    that died with the primary is closed, and the request connects to the server that now takes writes."""
    names = ('DATABASES["default"]["HOST"]', 'DATABASES["default"]["CONN_MAX_AGE"]')
    names += ('DATABASES["default"]["CONN_HEALTH_CHECKS"]',)
    assert setting(*names, SECRET_KEY=SITE_KEY, DATABASE_URL=STANDBY_URL) == ["'laptop-a,laptop-b'", "60", "True"]
    run = manage("check", SECRET_KEY=SITE_KEY, DATABASE_URL=STANDBY_URL.replace("laptop-b:5432", "laptop-b:5432x"))
    assert run.returncode != 0 and "DATABASE_URL: 'laptop-b:5432x' in its list of hosts is not host" in run.stderr
    assert "s3cret" not in run.stderr
