"""The SQL of the ledger's append-only guards on SQLite, shared by the migrations that create them
(0006_ledger_guards) and by those that must create them again after Django rebuilt a table (on
SQLite most ALTERs rebuild the table, and its triggers go with it). Not a migration: the loader
skips modules whose names begin with an underscore."""


def sqlite_append_only(table: str, *, replace: bool = False) -> list[str]:
    """The triggers that refuse any UPDATE or DELETE of `table`'s rows; `replace` drops any left first."""
    statements = []
    for op in ("UPDATE", "DELETE"):
        name = f"{table}_append_only_{op.lower()}"
        if replace:
            statements.append(f"DROP TRIGGER IF EXISTS {name}")
        statements.append(
            f"""
CREATE TRIGGER {name} BEFORE {op} ON {table}
BEGIN
    SELECT RAISE(ABORT, '{table} rows are append-only: {op} refused');
END
"""
        )
    return statements


def guard_tables(connection, tables, *, postgres_function: str) -> None:
    """Append-only triggers on each of `tables`: on PostgreSQL calling `postgres_function` (one the
    guarding migrations made: cage_refuse_change, audit_refuse_change), on SQLite raising."""
    with connection.cursor() as cursor:
        for table in tables:
            if connection.vendor == "postgresql":
                cursor.execute(
                    f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                    f"FOR EACH ROW EXECUTE FUNCTION {postgres_function}();"
                )
            elif connection.vendor == "sqlite":
                for statement in sqlite_append_only(table):
                    cursor.execute(statement)


def unguard_tables(connection, tables) -> None:
    with connection.cursor() as cursor:
        for table in tables:
            if connection.vendor == "postgresql":
                cursor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};")
            elif connection.vendor == "sqlite":
                for suffix in ("update", "delete"):
                    cursor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only_{suffix}")
