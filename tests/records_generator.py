"""A deterministic generator of cage-records/1 files: a multi-day event that uses every record type.

`generated_event(seed=1, days=3, records_per_day=60)` returns a file (a dict) that imports cleanly:
it keeps its own books of every place (chip bank, bank cash, trays, runners, patrons, tip pool) and
only writes records the rules allow. Each day opens its tables (with a flagged opener variance from
the second day), sells chips at the cage and through runners, fills, credits, redeems, takes tips,
voids a few slips of each voidable kind, pays expenses and deposits, then runners hand back, tables
close with a win or a loss, tips are paid out, bank cash and the chip bank are counted (now and then
with a variance) and the day closes. The last day may be left open with a table still open.

The same seed gives the same file, so a failing round trip or import can be replayed.
"""

import datetime
import random

DENOMINATIONS = {"0.50": 50, "1": 100, "5": 500, "25": 2500, "100": 10000}
KEYS = list(DENOMINATIONS)
DRIC, GC, CC = "ann", "gus", "cora"
RUNNERS = ["rita", "ron", "rae"]
DEALERS = ["dana", "dev", "del", "dot"]
# A licence authorizes the games of its authority's rules (T&C 1.3, 3.3): an Ontario (AGCO) event
# blackjack and the wheel of fortune, a Québec (RACJ) one baccarat and craps.
GAMES = {"agco": ["blackjack", "wheel_of_fortune"], "racj": ["baccarat", "craps"]}
TABLES = {
    "agco": {
        "BJ-1": "blackjack",
        "BJ-2": "blackjack",
        "WOF-1": "wheel_of_fortune",
        "BJ-3": "blackjack",
        "WOF-2": "wheel_of_fortune",
    },
    "racj": {"BAC-1": "baccarat", "BAC-2": "baccarat", "CR-1": "craps", "BAC-3": "baccarat", "CR-2": "craps"},
}
# A floor of more tables keeps the same mix of games: about two of the first game to one of the second.
_MIX = {
    "agco": ["blackjack", "blackjack", "wheel_of_fortune", "blackjack", "wheel_of_fortune"],
    "racj": ["baccarat", "baccarat", "craps", "baccarat", "craps"],
}
_PREFIX = {"blackjack": "BJ", "wheel_of_fortune": "WOF", "baccarat": "BAC", "craps": "CR"}


def table_list(count: int | None, authority: str = "agco") -> dict[str, str]:
    """The default five tables, or `count` tables in the mix above (codes BJ-1, WOF-1, ...)."""
    if count is None:
        return dict(TABLES[authority])
    mix = _MIX[authority]
    tables, numbers = {}, dict.fromkeys(_PREFIX, 0)
    for i in range(count):
        game = mix[i % len(mix)]
        numbers[game] += 1
        tables[f"{_PREFIX[game]}-{numbers[game]}"] = game
    return tables


VOIDABLE = {"fill", "credit", "sale", "redemption", "runner_issue", "runner_return"}


def cash(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def value(chips: dict[str, int]) -> int:
    return sum(DENOMINATIONS[k] * n for k, n in chips.items())


def nonzero(chips: dict[str, int]) -> dict[str, int]:
    return {k: n for k, n in chips.items() if n}


class _Books:
    """What each place holds, in chips per denomination and cash in cents."""

    def __init__(self, tables):
        self.chip_bank = dict.fromkeys(KEYS, 0)
        self.bank_cash = 0
        self.patrons = dict.fromkeys(KEYS, 0)
        self.tip_pool = dict.fromkeys(KEYS, 0)
        self.trays = {t: dict.fromkeys(KEYS, 0) for t in tables}
        self.runner_chips = {r: dict.fromkeys(KEYS, 0) for r in RUNNERS}
        self.runner_cash = dict.fromkeys(RUNNERS, 0)
        self.open_tables: set[str] = set()


def move(source: dict, target: dict, chips: dict[str, int]) -> None:
    for k, n in chips.items():
        source[k] -= n
        target[k] += n
        assert source[k] >= 0, (source, chips)


class _Writer:
    def __init__(
        self, seed: int, days: int, records_per_day: int, leave_last_day_open: bool, tables=None, authority="agco"
    ):
        self.authority = authority
        self.tables = table_list(tables, authority)
        self.rng = random.Random(seed)
        self.days = days
        self.records_per_day = records_per_day
        self.most_step = max(1, min(20, 2 * 12 * 3600 // max(records_per_day, 1)))
        self.leave_last_day_open = leave_last_day_open
        self.books = _Books(self.tables)
        self.first = datetime.date(2026, 9, 11)
        self.serial = 0

    # --- helpers ---------------------------------------------------------------------------

    def some_chips(self, held: dict[str, int], most: int = 30) -> dict[str, int]:
        """A random handful of what `held` holds (at least one chip), or {} when it holds nothing."""
        keys = [k for k, n in held.items() if n]
        if not keys:
            return {}
        chosen = self.rng.sample(keys, self.rng.randint(1, min(3, len(keys))))
        return nonzero({k: self.rng.randint(1, min(most, held[k])) for k in chosen})

    def tick(self) -> str:
        # About 20 s between records, closer on a busy floor, so a day's records fit before 23:00.
        step = self.rng.randint(0, self.most_step) if self.now.hour < 23 else 0
        self.now += datetime.timedelta(seconds=step)
        return self.now.isoformat(timespec="seconds")

    def record(self, kind: str, signed: dict, **fields) -> dict:
        record = {"type": kind, "at": self.tick(), **fields, "signed": signed}
        if kind in VOIDABLE:
            self.serial += 1
            record["ref"] = f"{kind}-{self.serial}"
        self.records.append(record)
        return record

    def dealer(self, table: str) -> str:
        return DEALERS[list(self.tables).index(table) % len(DEALERS)]

    # --- a day ---------------------------------------------------------------------------

    def day(self, n: int) -> dict:
        date = self.first + datetime.timedelta(days=n)
        self.now = datetime.datetime.combine(date, datetime.time(10, 0))
        self.records: list[dict] = []
        self.voidable: list[dict] = []
        last_open = self.leave_last_day_open and n == self.days - 1
        self.stock(n)
        self.open_tables(n)
        for runner in RUNNERS:
            self.runner_issue(runner)
        for _ in range(self.records_per_day):
            self.floor()
        if last_open:
            return {"date": date.isoformat(), "records": self.records}
        self.close(n)
        return {"date": date.isoformat(), "records": self.records}

    def stock(self, n: int) -> None:
        b = self.books
        if n == 0:
            scale = max(1, len(self.tables) // 5)
            chips = {"0.50": 400 * scale, "1": 4000 * scale, "5": 2000 * scale, "25": 400 * scale, "100": 60 * scale}
            self.record("chips_received", {"received_by": CC, "witnessed_by": DRIC}, chips=chips)
            move(dict.fromkeys(KEYS, 10**9), b.chip_bank, chips)
        float_cents = self.rng.randint(20, 40) * 100_000
        self.record("float_in", {"received_by": GC, "witnessed_by": DRIC}, cash=cash(float_cents))
        b.bank_cash += float_cents

    def open_tables(self, n: int) -> None:
        b = self.books
        for i, table in enumerate(self.tables):
            tray = b.trays[table]
            if not any(tray.values()):
                chips = {"1": 100, "5": 60, "25": 10}
                self.record(
                    "table_issue", {"issued_by": CC, "received_by": self.dealer(table)}, table=table, chips=chips
                )
                move(b.chip_bank, tray, chips)
            counted = dict(tray)
            fields = {}
            if n and i == 0:
                # From the second day: an opener that differs from the last closer, flagged with a reason.
                key = next(k for k in KEYS if counted[k])
                counted[key] -= 1
                fields["reason"] = f"one ${key} chip missing from the tray overnight"
            self.record(
                "table_open",
                {"counted_by": self.dealer(table), "verified_by": CC},
                table=table,
                chips=nonzero(counted),
                **fields,
            )
            b.trays[table] = counted
            b.open_tables.add(table)

    def runner_issue(self, runner: str) -> None:
        b = self.books
        chips = self.some_chips({k: b.chip_bank[k] // 4 for k in ("1", "5", "25")}, most=40)
        if chips:
            r = self.record("runner_issue", {"issued_by": CC, "received_by": runner}, runner=runner, chips=chips)
            move(b.chip_bank, b.runner_chips[runner], chips)
            self.voidable.append(r)

    def floor(self) -> None:
        b = self.books
        kind = self.rng.choices(
            ["sale", "runner_sale", "runner_issue", "fill", "credit", "redemption", "tips", "void", "count_runner"],
            weights=[20, 15, 4, 12, 8, 15, 6, 3, 2],
        )[0]
        table = self.rng.choice(sorted(b.open_tables)) if b.open_tables else None
        runner = self.rng.choice(RUNNERS)
        if kind == "sale":
            chips = self.some_chips({k: b.chip_bank[k] // 3 for k in KEYS})
            if chips:
                r = self.record("sale", {"sold_by": CC, "authorized_by": DRIC}, chips=chips, cash=cash(value(chips)))
                move(b.chip_bank, b.patrons, chips)
                b.bank_cash += value(chips)
                self.voidable.append(r)
        elif kind == "runner_sale":
            chips = self.some_chips(b.runner_chips[runner], most=10)
            if chips:
                r = self.record(
                    "sale",
                    {"sold_by": runner, "authorized_by": DRIC},
                    runner=runner,
                    chips=chips,
                    cash=cash(value(chips)),
                )
                move(b.runner_chips[runner], b.patrons, chips)
                b.runner_cash[runner] += value(chips)
                self.voidable.append(r)
        elif kind == "runner_issue":
            self.runner_issue(runner)
        elif kind == "fill" and table:
            chips = self.some_chips({k: b.chip_bank[k] // 5 for k in ("1", "5", "25")}, most=20)
            if chips:
                r = self.record(
                    "fill",
                    {"issued_by": CC, "carried_by": runner, "received_by": self.dealer(table), "authorized_by": DRIC},
                    table=table,
                    runner=runner,
                    chips=chips,
                )
                move(b.chip_bank, b.trays[table], chips)
                self.voidable.append(r)
        elif kind == "credit" and table:
            chips = self.some_chips({k: n // 3 for k, n in b.trays[table].items()}, most=20)
            if chips:
                r = self.record(
                    "credit",
                    {"released_by": self.dealer(table), "carried_by": runner, "received_by": CC, "authorized_by": DRIC},
                    table=table,
                    runner=runner,
                    chips=chips,
                )
                move(b.trays[table], b.chip_bank, chips)
                self.voidable.append(r)
        elif kind == "redemption":
            chips = self.some_chips(b.patrons, most=25)
            if chips and value(chips) <= b.bank_cash:
                r = self.record(
                    "redemption", {"paid_by": GC, "authorized_by": DRIC}, chips=chips, cash=cash(value(chips))
                )
                move(b.patrons, b.chip_bank, chips)
                b.bank_cash -= value(chips)
                self.voidable.append(r)
        elif kind == "tips" and table:
            chips = self.some_chips({k: min(n, 4) for k, n in b.patrons.items() if k in ("0.50", "1", "5")}, most=4)
            if chips:
                self.record("tips", {"counted_by": self.dealer(table), "verified_by": CC}, table=table, chips=chips)
                move(b.patrons, b.tip_pool, chips)
        elif kind == "void":
            self.void()
        elif kind == "count_runner":
            held = nonzero(b.runner_chips[runner])
            self.record(
                "count",
                {"counted_by": GC, "verified_by": CC},
                account=runner,
                chips=held,
                cash=cash(b.runner_cash[runner]),
            )

    def void(self) -> None:
        """Void a recent slip of the day, when what it moved can still be moved back."""
        b = self.books
        for target in reversed(self.voidable[-8:]):
            chips = target["chips"]
            kind = target["type"]
            runner = target.get("runner")
            if kind == "fill":
                ok = target["table"] in b.open_tables and all(
                    b.trays[target["table"]][k] >= n for k, n in chips.items()
                )
            elif kind == "credit":
                ok = target["table"] in b.open_tables and all(b.chip_bank[k] >= n for k, n in chips.items())
            elif kind == "sale":
                ok = all(b.patrons[k] >= n for k, n in chips.items()) and (
                    b.runner_cash[runner] >= value(chips) if runner else b.bank_cash >= value(chips)
                )
            elif kind == "redemption":
                ok = all(b.chip_bank[k] >= n for k, n in chips.items())
            elif kind == "runner_issue":
                ok = all(b.runner_chips[runner][k] >= n for k, n in chips.items())
            else:  # runner_return
                ok = all(b.chip_bank[k] >= n for k, n in chips.items()) and b.bank_cash >= int(
                    target.get("cash", "0.00").replace(".", "")
                )
            if not ok:
                continue
            self.voidable.remove(target)
            requester = self.rng.choice([CC, GC])
            self.record(
                "void",
                {"requested_by": requester, "authorized_by": DRIC},
                void=target["ref"],
                reason=f"{kind} written in error",
            )
            if kind == "fill":
                move(b.trays[target["table"]], b.chip_bank, chips)
            elif kind == "credit":
                move(b.chip_bank, b.trays[target["table"]], chips)
            elif kind == "sale":
                move(b.patrons, b.runner_chips[runner] if runner else b.chip_bank, chips)
                if runner:
                    b.runner_cash[runner] -= value(chips)
                else:
                    b.bank_cash -= value(chips)
            elif kind == "redemption":
                move(b.chip_bank, b.patrons, chips)
                b.bank_cash += value(chips)
            elif kind == "runner_issue":
                move(b.runner_chips[runner], b.chip_bank, chips)
            else:
                move(b.chip_bank, b.runner_chips[runner], chips)
                cents = int(target.get("cash", "0.00").replace(".", ""))
                b.bank_cash -= cents
                b.runner_cash[runner] += cents
            return

    def close(self, n: int) -> None:
        b = self.books
        # The last day to close hands the trays back and returns chips to the supplier.
        last = n == self.days - (2 if self.leave_last_day_open else 1)
        for runner in RUNNERS:
            chips = nonzero(b.runner_chips[runner])
            if chips or b.runner_cash[runner]:
                fields = {"chips": chips}
                if b.runner_cash[runner]:
                    fields["cash"] = cash(b.runner_cash[runner])
                r = self.record("runner_return", {"returned_by": runner, "received_by": CC}, runner=runner, **fields)
                move(b.runner_chips[runner], b.chip_bank, chips)
                b.bank_cash += b.runner_cash[runner]
                b.runner_cash[runner] = 0
                if chips:
                    self.voidable.append(r)
        for table in sorted(b.open_tables):
            tray = b.trays[table]
            # Patrons win or lose against the table: what they lost is in the closer.
            closer = {
                k: tray[k] + self.rng.randint(-min(tray[k], 15), min(b.patrons[k], 15))
                if k in ("1", "5", "25")
                else tray[k]
                for k in KEYS
            }
            for k in KEYS:
                b.patrons[k] -= closer[k] - tray[k]
            b.trays[table] = closer
            self.record(
                "table_close", {"counted_by": self.dealer(table), "verified_by": CC}, table=table, chips=nonzero(closer)
            )
        b.open_tables.clear()
        if last:
            for table in self.tables:
                chips = nonzero(b.trays[table])
                if chips:
                    self.record(
                        "table_return", {"returned_by": self.dealer(table), "received_by": CC}, table=table, chips=chips
                    )
                    move(b.trays[table], b.chip_bank, chips)
            back = {"0.50": b.chip_bank["0.50"] // 2, "100": b.chip_bank["100"]}
            self.record("chips_returned", {"returned_by": CC, "witnessed_by": DRIC}, chips=nonzero(back))
            move(b.chip_bank, dict.fromkeys(KEYS, 0), nonzero(back))
        pool = value(b.tip_pool)
        if pool and pool <= b.bank_cash:
            hours = {d: self.rng.choice([2, 3.5, 4, 6]) for d in DEALERS}
            self.record("tip_payout", {"paid_by": GC, "verified_by": CC, "authorized_by": DRIC}, hours=hours)
            move(b.tip_pool, b.chip_bank, nonzero(b.tip_pool))
            b.bank_cash -= pool
        deposit = b.bank_cash // 2
        if deposit:
            self.record("deposit", {"deposited_by": GC, "witnessed_by": DRIC}, cash=cash(deposit))
            b.bank_cash -= deposit
        self.record(
            "expense",
            {"approved_by": DRIC},
            category=["supplier_equipment", "licence_fee", "advertising"][n % 3],
            description=f"Day {n + 1}: rental and fees",
            cash=cash(self.rng.randint(50, 300) * 100),
            invoice=f"INV-{n + 1:03d}",
        )
        counted_cash, fields = b.bank_cash, {}
        if n % 2 == 1 and counted_cash >= 500:
            counted_cash -= 500
            fields["reason"] = "five dollars short at the count"
        self.record(
            "count", {"counted_by": GC, "verified_by": CC}, account="bank_cash", cash=cash(counted_cash), **fields
        )
        b.bank_cash = counted_cash
        counted, fields = dict(b.chip_bank), {}
        if n % 2 == 0 and counted["1"]:
            counted["1"] -= 2
            fields["reason"] = "two $1 chips missing"
        self.record(
            "count", {"counted_by": GC, "verified_by": CC}, account="chip_bank", chips=nonzero(counted), **fields
        )
        b.chip_bank = counted
        self.record("close_day", {"prepared_by": GC, "verified_by": CC, "approved_by": DRIC})

    def file(self) -> dict:
        days = [self.day(n) for n in range(self.days)]
        return {
            "format": "cage-records/1",
            "event": {
                "slug": "generated-fair",
                "name": "Generated Fair Casino",
                "licence_number": "G-2026-0001",
                "licensee": "Generated Agricultural Society",
                "supplier": "Northern Gaming Supply Ltd.",
                "venue": "Hall C",
                "games": GAMES[self.authority],
                "chip_denominations": KEYS,
                **({"authority": self.authority} if self.authority != "agco" else {}),
            },
            "people": [
                {"id": DRIC, "name": "Ann Leblanc", "born_on": "1968-04-02", "roles": ["dric"]},
                {"id": GC, "name": "Gus Tremblay", "born_on": "1975-11-20", "roles": ["general_cashier"]},
                {"id": CC, "name": "Cora Singh", "born_on": "1981-06-09", "roles": ["chip_cashier"]},
                *(
                    {"id": r, "name": r.title() + " Runner", "born_on": "1999-02-14", "roles": ["runner"]}
                    for r in RUNNERS
                ),
                *(
                    {"id": d, "name": d.title() + " Dealer", "born_on": "1990-03-03", "roles": ["dealer"]}
                    for d in DEALERS[:-1]
                ),
                # A dealer who works for the supplier: a registered Gaming Assistant (T&C 4.2).
                {
                    "id": DEALERS[-1],
                    "name": "Dot Supplier-Dealer",
                    "born_on": "1985-05-05",
                    "roles": ["dealer"],
                    "supplier_associated": True,
                    "gaming_assistant_number": "GA-7731",
                },
            ],
            "tables": [{"id": t, "game": g} for t, g in self.tables.items()],
            "days": days,
        }


def generated_event(
    seed: int = 1,
    days: int = 3,
    records_per_day: int = 60,
    leave_last_day_open: bool = False,
    tables: int | None = None,
    authority: str = "agco",
):
    """A cage-records/1 file (a dict) of `days` gaming days, each with about `records_per_day`
    floor records plus its opening and closing records, on the five default tables or on `tables`
    tables of the same mix of games, of an Ontario (AGCO) licence or (`authority="racj"`) a Québec one."""
    return _Writer(seed, days, records_per_day, leave_last_day_open, tables, authority).file()


def record_count(data: dict) -> int:
    return sum(len(day["records"]) for day in data["days"])
