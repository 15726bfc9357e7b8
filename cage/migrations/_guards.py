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
