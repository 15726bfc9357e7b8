"""On PostgreSQL the application's own role cannot rewrite history (cage.db_roles): whoever holds
its password can read the records and add to them through the application's rules, but not UPDATE,
DELETE or TRUNCATE them, lift their triggers or switch them off. Run where .ci/run runs the suite
as that role (APP_ROLE); skipped elsewhere."""

import os

import pytest
from django.db import DatabaseError, connection, transaction

from cage.db_roles import APPEND_ONLY, NEVER_DELETED
from tests.cage.helpers import stock

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


@pytest.fixture(autouse=True)
def as_the_application(application_role):
    if connection.vendor != "postgresql" or not application_role:
        pytest.skip("runs on PostgreSQL as the application's role (APP_ROLE=… make test-postgres, as .ci/run does)")


def refused(sql: str):
    with pytest.raises(DatabaseError, match="permission denied|must be owner|superuser"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql)


def test_the_application_acts_as_its_own_role():
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == os.environ["APP_ROLE"]


@pytest.mark.parametrize("model", APPEND_ONLY, ids=lambda m: m._meta.db_table)
def test_no_record_is_updated_deleted_or_truncated(cast, model):
    stock(cast)
    table = model._meta.db_table
    refused(f"UPDATE {table} SET id = id")
    refused(f"DELETE FROM {table}")
    refused(f"TRUNCATE {table} CASCADE")


@pytest.mark.parametrize("model", NEVER_DELETED, ids=lambda m: m._meta.db_table)
def test_a_record_completed_later_is_never_deleted_or_truncated(cast, model):
    table = model._meta.db_table
    refused(f"DELETE FROM {table}")
    refused(f"TRUNCATE {table} CASCADE")


def test_no_trigger_is_lifted_and_replication_mode_is_refused(cast):
    refused("ALTER TABLE cage_posting DISABLE TRIGGER ALL")
    refused("DROP TRIGGER cage_posting_append_only ON cage_posting")
    refused("SET session_replication_role = replica")
