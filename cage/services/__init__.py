"""Every action that moves value or signs. Views and the records importer call these only."""

from .day import close_day, close_problems, day_reconcile
from .ledger import CAPACITIES, account_get, balance, balances
from .slips import (
    EXPENSE_CATEGORIES,
    chips_received,
    chips_returned,
    count,
    credit,
    deposit,
    expense,
    fill,
    float_in,
    redemption,
    runner_issue,
    runner_return,
    sale,
    table_close,
    table_issue,
    table_open,
    table_return,
    tip_payout,
    tips,
    void,
)

__all__ = [
    "CAPACITIES", "EXPENSE_CATEGORIES", "account_get", "balance", "balances", "chips_received",
    "chips_returned", "close_day", "close_problems", "count", "credit", "day_reconcile", "deposit",
    "expense", "fill", "float_in", "redemption", "runner_issue", "runner_return", "sale",
    "table_close", "table_issue", "table_open", "table_return", "tip_payout", "tips", "void",
]
