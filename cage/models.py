"""The cage as a double-entry ledger of custody.

Every place cash or chips can be is an Account; every slip is a transaction whose Postings move
value between accounts per instrument (cash, or chips of one denomination) and sum to zero per
instrument. Balances are never stored: they are sums of postings (a sealed day's postings summed
once, as DayTotal, and proven equal to them by check_ledger). Slips, postings and signatures
are append-only: a mistake is corrected by a void, a new slip that reverses the old one.
"""

from enum import StrEnum

from django.conf import settings
from django.db import models
from django.db.models import Exists, F, OuterRef, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.append_only import AppendOnly, AppendOnlyQuerySet
from events.models import ApprovedPurpose, ChipDenomination, Event, GameTable, GamingDay, Person


class Account(models.Model):
    class Kind(models.TextChoices):
        BANK_CASH = "bank_cash", _("Bank cash (General Cashier)")
        CHIP_BANK = "chip_bank", _("Chip bank (Chip Cashier)")
        RUNNER = "runner", pgettext_lazy("account", "Runner")
        TABLE = "table", _("Table tray")
        TIP_POOL = "tip_pool", _("Tip pool")
        DEALER = "dealer", _("Dealer (tips paid)")
        PATRONS = "patrons", _("Patrons")
        SUPPLIER = "supplier", _("Registered supplier")
        TRUST = "trust", _("Licensee's trust account")
        EXPENSES = "expenses", _("Expenses paid")
        OVER_SHORT = "over_short", _("Over/short")

    # Places that hold real cash or chips cannot hold less than nothing; the others are the
    # outside world's side of each movement and go negative as a matter of course.
    CUSTODY = {Kind.BANK_CASH, Kind.CHIP_BANK, Kind.RUNNER, Kind.TABLE, Kind.TIP_POOL, Kind.DEALER}

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="accounts")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    # "bank_cash", "runner:rita", "table:BJ-1": the names the report's variances use.
    code = models.CharField(max_length=60)
    person = models.ForeignKey(Person, on_delete=models.PROTECT, null=True, blank=True)
    table = models.ForeignKey(GameTable, on_delete=models.PROTECT, null=True, blank=True)

    class Meta:
        ordering = ["code"]
        constraints = [models.UniqueConstraint(fields=["event", "code"], name="one_account_code")]
        verbose_name = _("account")
        verbose_name_plural = _("accounts")

    def __str__(self):
        return self.code

    @property
    def is_custody(self) -> bool:
        return self.kind in self.CUSTODY


class SlipType(StrEnum):
    """The slip types by the names the records format and the database give them. All else a type
    is (its label, signatures, fields, service, figures) is its declaration: cage.slip_types."""

    CHIPS_RECEIVED = "chips_received"
    CHIPS_RETURNED = "chips_returned"
    FLOAT_IN = "float_in"
    DEPOSIT = "deposit"
    TABLE_ISSUE = "table_issue"
    TABLE_RETURN = "table_return"
    TABLE_OPEN = "table_open"
    FILL = "fill"
    CREDIT = "credit"
    CHIP_TRANSFER = "chip_transfer"
    TIPS = "tips"
    TABLE_CLOSE = "table_close"
    SALE = "sale"
    REDEMPTION = "redemption"
    RUNNER_ISSUE = "runner_issue"
    RUNNER_RETURN = "runner_return"
    TIP_PAYOUT = "tip_payout"
    COUNT = "count"
    VOID = "void"
    EXPENSE = "expense"
    CLOSE_DAY = "close_day"
    HANDOVER = "handover"


class SlipCounter(models.Model):
    """The last serial issued per event and slip type; locked while a slip takes the next one,
    so serials come in order with no gaps even with several terminals."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT)
    slip_type = models.CharField(max_length=20)
    last = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "slip_type"], name="one_counter_per_slip_type")]
        verbose_name = _("slip counter")
        verbose_name_plural = _("slip counters")


class SlipQuerySet(AppendOnlyQuerySet):
    """What a void has done to the slips, read in SQL (DESIGN: a void moves nothing until the DRIC
    authorizes it). A void is *asked for* when written with one of its two signatures, *done* once
    both are in (its reversal is posted then, cage.services.signing), *refused* when the DRIC refused
    it (Refusal): a refused void stays on file and the slip it named stands untouched."""

    def voids_done(self):
        """Voids whose reversal is made: signed in full (every capacity of a void; SignedInFull)."""
        return self.filter(slip_type=SlipType.VOID, signed_in_full__isnull=False)

    def voids_waiting(self):
        """Voids asked for and not yet authorized or refused."""
        return self.filter(slip_type=SlipType.VOID, refusal__isnull=True).exclude(pk__in=Slip.objects.voids_done())

    def voided(self):
        """Slips a done void reverses: they count for nothing."""
        return self.filter(Exists(Slip.objects.voids_done().filter(voids=OuterRef("pk"))))

    def standing(self):
        """Slips no done void reverses."""
        return self.exclude(Exists(Slip.objects.voids_done().filter(voids=OuterRef("pk"))))

    def under_void(self):
        """Slips named by a void that is not refused (asked for or done): they take no signature and
        no second void."""
        return self.filter(Exists(Slip.objects.filter(voids=OuterRef("pk"), refusal__isnull=True)))

    def free_of_voids(self):
        return self.exclude(Exists(Slip.objects.filter(voids=OuterRef("pk"), refusal__isnull=True)))

    def with_signers(self):
        """Each slip's signatures read with it, and who signed them, in one query more (not two)."""
        return self.prefetch_related(signers())


class Slip(AppendOnly):
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="slips")
    day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="slips")
    slip_type = models.CharField(max_length=20)
    serial = models.PositiveIntegerField()
    at = models.DateTimeField()
    table = models.ForeignKey(GameTable, on_delete=models.PROTECT, null=True, blank=True)
    runner = models.ForeignKey(Person, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, null=True, blank=True, related_name="counts")
    # The slip a void names. Not one-to-one: a void the DRIC refused stays on file beside the one
    # asked for after it (SlipQuerySet says which stands).
    voids = models.ForeignKey("self", on_delete=models.PROTECT, null=True, blank=True, related_name="void_requests")
    reason = models.TextField(blank=True)
    # What the slip says beyond its postings: counted chips, tip hours, expense details, the
    # records file's ref.
    details = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The cage form's one-time key: a POST sent twice records one slip.
    request_key = models.CharField(max_length=40, null=True, blank=True)

    objects = SlipQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "slip_type", "serial"], name="one_serial_per_slip_type"),
            models.UniqueConstraint(
                fields=["event", "request_key"],
                condition=models.Q(request_key__isnull=False),
                name="one_slip_per_request",
            ),
            models.CheckConstraint(condition=models.Q(serial__gt=0), name="slip_serial_positive"),
        ]
        indexes = [
            models.Index(fields=["day", "slip_type"]),
            # A day's slips in the order they happened: the latest slips a person signed that day
            # (the DRIC's queue, for a role given during the day) and which slips wait, the oldest
            # or the latest first, are read from one end until enough are found, never sorted.
            models.Index(fields=["day", "at", "id"], name="cage_slip_day_in_order"),
        ]
        verbose_name = _("slip")
        verbose_name_plural = _("slips")

    def __str__(self):
        return self.number

    @property
    def number(self) -> str:
        """The serial as people say it: "Fill 4"."""
        from cage.slip_types import SLIP_KINDS  # the declarations read this module

        return f"{SLIP_KINDS[self.slip_type].label} {self.serial}"


class Refusal(AppendOnly):
    """The DRIC's refusal of a slip that waits for her signature before it moves anything: a void
    asked for, a deposit, an expense, a float (T&C 2: she witnesses and authorizes all cage
    transactions). The slip keeps its serial and stays on file as refused, having moved nothing; a
    void's slip stands untouched, and may be named by a new void."""

    slip = models.OneToOneField(Slip, on_delete=models.PROTECT, related_name="refusal")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    refused_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        verbose_name = _("slip refused")
        verbose_name_plural = _("slips refused")

    def __str__(self):
        return _("%(slip)s refused by %(name)s") % {"slip": self.slip, "name": self.person}


class Posting(AppendOnly):
    # No index of their own: the two indexes below begin with them, and every posting written
    # (half a million in a season) would keep the extra two up to date for nothing.
    slip = models.ForeignKey(Slip, on_delete=models.PROTECT, related_name="postings", db_index=False)
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="postings", db_index=False)
    # The slip's gaming day, copied onto each of its postings (cage.services.ledger.write_postings),
    # so that a place's balance reads its postings of the days not yet sealed from its own index and
    # takes the sealed days from their totals (DayTotal). check_ledger proves it is the slip's day.
    # Left nullable in SQLite's column (0022): making it NOT NULL would rebuild the table and drop
    # its guards; PostgreSQL's column is NOT NULL.
    day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="+", db_index=False)
    # Null is cash; otherwise chips of this denomination.
    denomination = models.ForeignKey(ChipDenomination, on_delete=models.PROTECT, null=True, blank=True)
    amount = models.BigIntegerField(help_text=_("cents; positive into the account"))

    class Meta:
        ordering = ["id"]
        constraints = [models.CheckConstraint(condition=~models.Q(amount=0), name="posting_amount_not_zero")]
        indexes = [
            # A place's postings of a day: every sum over them (the day's totals as it closes, a day's
            # sheets) reads this index alone, its amounts included, never the table's rows. A
            # balance reads the running totals instead (RunningTotal), which sum the same.
            models.Index(fields=["account", "day", "denomination", "amount"], name="cage_posting_by_place_day"),
            # A slip's postings by instrument: how PostgreSQL's balance check reads them (migration 0009).
            models.Index(fields=["slip", "denomination"], name="cage_posting_by_slip"),
            # A counted place's last movement of the day (cage.selectors.counts), read from the latest
            # back: the cage home asks it on every refresh.
            models.Index(fields=["account", "day", "slip"], name="cage_posting_last_move"),
        ]
        verbose_name = _("posting")
        verbose_name_plural = _("postings")

    def __str__(self):
        return f"{self.account} {self.amount:+d}"


class Signature(AppendOnly):
    slip = models.ForeignKey(Slip, on_delete=models.PROTECT, related_name="signatures")
    capacity = models.CharField(max_length=20)
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="signatures")
    signed_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["slip", "capacity"], name="one_signature_per_capacity"),
            # One person never signs two capacities: the preparer never authorizes.
            models.UniqueConstraint(fields=["slip", "person"], name="one_capacity_per_person"),
        ]
        verbose_name = _("signature")
        verbose_name_plural = _("signatures")

    def __str__(self):
        return f"{self.capacity}: {self.person}"


class SignedInFull(AppendOnly):
    """That a slip has every signature it waits for (SlipKind.signed_in_full), written with the
    signature that completes it, in the same transaction (cage.services.ledger, .signing), and
    proved against the signatures by check_ledger.

    Why a record of its own: which slips still wait is asked on every refresh of the cage home and
    the DRIC's queue. Counted from the signatures, it read every slip of the day and all their
    signatures; with this record it is the day's slips with none, read by index (issue 25)."""

    slip = models.OneToOneField(Slip, on_delete=models.PROTECT, related_name="signed_in_full")
    # The completing signature's time (the slip's own, for a slip that waits for no signature).
    signed_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        verbose_name = _("slip signed in full")
        verbose_name_plural = _("slips signed in full")

    def __str__(self):
        return _("%(slip)s signed in full") % {"slip": self.slip}


class NotSignedInFull(models.Model):
    """A slip written without every signature it waits for, until the signature that completes it:
    then its SignedInFull is written and this row deleted, in the same transaction (cage.services
    .ledger, .signing). check_ledger proves each slip has exactly one of the two.

    Why a row of its own: which slips still wait is asked on every refresh of the cage home and the
    DRIC's queue. Asked of the day's slips without a SignedInFull, it visited every slip of the day,
    5,000 on a season's day, for the few that wait; asked of these, it visits the day's slips not
    signed in full, which the day's waiting, refused and voided-while-waiting slips bound (issue 25).
    Derived, not a record: it holds nothing a slip, its signatures and SignedInFull do not say."""

    slip = models.OneToOneField(Slip, on_delete=models.CASCADE, related_name="not_signed_in_full")
    day = models.ForeignKey(GamingDay, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["id"]
        verbose_name = _("slip not signed in full")
        verbose_name_plural = _("slips not signed in full")

    def __str__(self):
        return _("%(slip)s not signed in full") % {"slip": self.slip}


def signers() -> models.Prefetch:
    """A slip's signatures and who signed them, in one query (SlipQuerySet.with_signers, or
    prefetch_related_objects for slips already read); made afresh each time, as a queryset is."""
    return models.Prefetch("signatures", queryset=Signature.objects.select_related("person"))


class SlipPrint(models.Model):
    """Each printing of a slip. The cage's first copy is the original, every later one a reprint.

    The original belongs to the people who work the slip (events.access.Access.prints_original:
    those who may sign slips, the cage and, on their own slips, the floor). Anyone else who may
    print it (the auditor, the licensee's administrator) prints a copy for reading: marked so on
    the sheet, never the original, and outside the cage's numbering of its copies.
    """

    slip = models.ForeignKey(Slip, on_delete=models.PROTECT, related_name="prints")
    printed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    printed_at = models.DateTimeField(auto_now_add=True)
    for_reading = models.BooleanField(
        default=False, help_text=_("A copy for reading, printed by someone who only reads: never the original.")
    )

    class Meta:
        ordering = ["id"]
        verbose_name = _("slip printing")
        verbose_name_plural = _("slip printings")


class OpenerSignOff(AppendOnly):
    """The DRIC's sign-off of an opener that differs from what its table's last closer left.

    DESIGN (gaming day): the next day's openers must match the last closers; a difference is
    flagged and signed, never silently absorbed. The opener slip records the difference in its
    details ("closer_check"); the DRIC, who approves variances and the control sheets (T&C 2),
    signs it off from her own session, and the day cannot close until she has.
    """

    class Via(models.TextChoices):
        APP = "app", _("In the app, from the DRIC's own session")
        RECORDS_FILE = "records_file", _("With the day's close in a records file")

    slip = models.OneToOneField(Slip, on_delete=models.PROTECT, related_name="sign_off")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    signed_at = models.DateTimeField()
    via = models.CharField(max_length=20, choices=Via.choices, default=Via.APP)

    class Meta:
        ordering = ["id"]
        verbose_name = _("opener sign-off")
        verbose_name_plural = _("opener sign-offs")

    def __str__(self):
        return _("%(slip)s: signed off by %(name)s") % {"slip": self.slip, "name": self.person}


class CountShown(AppendOnly):
    """A blind count set beside the books: the figures first typed for a place, kept once the
    count form has shown them next to the expected balance (nightly reconciliation: counts are
    blind). Until the place moves again, a count of it must carry these figures: opening a fresh
    form after seeing the books does not give a second blind count."""

    day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="+")
    account_code = models.CharField(max_length=60)  # "bank_cash", "runner:rita", "tip_pool"
    # The count as typed: {"account", "chips", "pieces"}; an opener's also "signed": {capacity: person id},
    # so that its counter and its verifier are named as such (cage.forms.SlipForm.opener_standing).
    figures = models.JSONField()
    # The day's last slip when the books were shown; a movement of the place after it ends this.
    after_slip_id = models.BigIntegerField(default=0)
    person = models.ForeignKey(Person, on_delete=models.PROTECT, null=True, related_name="+")
    shown_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("count set beside the books")
        verbose_name_plural = _("counts set beside the books")


class CloseSignature(models.Model):
    """A signature of the day's close made before the close is complete: the General Cashier
    prepares it, the Chip Cashier verifies it and the DRIC approves it, each from their own session
    or with their signing PIN (DESIGN: slips and signatures). The close slip is written, and the day
    locks, once all three have signed; until then these rows say who has.

    Anything posted to the day after the preparation means it no longer stands: the General
    Cashier prepares the close again, and these rows are replaced (the audit trail keeps them).
    """

    day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="close_signatures")
    capacity = models.CharField(max_length=20)  # "prepared_by", "verified_by", "approved_by"
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    signed_at = models.DateTimeField()
    # The day's last slip when the close was prepared: a slip after it undoes the preparation.
    after_slip_id = models.BigIntegerField(default=0)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["day", "capacity"], name="one_close_signature_per_capacity")]
        verbose_name = _("signature of the day's close")
        verbose_name_plural = _("signatures of the day's close")


class LedgerLink(AppendOnly):
    """One link of the event's hash chain (core.chain): what one write added to the ledger (a slip
    with its postings and signatures, a later signature with the postings it moved, a refusal, an
    opener's sign-off), as the canonical text that was hashed, and its SHA-256 digest chained to the
    link before it. Written in the same transaction as the rows it describes; never changed."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="+")
    seq = models.PositiveBigIntegerField()
    day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="+")
    slip = models.ForeignKey(Slip, on_delete=models.PROTECT, related_name="links")
    kind = models.CharField(max_length=12)
    # The exact text hashed (core.chain.canonical): what an export carries and an inspector recomputes.
    content = models.TextField()
    digest = models.CharField(max_length=64)

    class Meta:
        ordering = ["event", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["event", "seq"], name="one_link_per_seq"),
            models.CheckConstraint(condition=models.Q(seq__gt=0), name="link_seq_positive"),
        ]
        verbose_name = _("link of the ledger's chain")
        verbose_name_plural = _("links of the ledger's chain")

    def __str__(self):
        return f"{self.seq} {self.digest[:16]}"


class DaySeal(AppendOnly):
    """A locked day's seal: the digest of the ledger chain's last link when the day closed, printed
    beside the three signatures on its sheets, its close slip and the financial report, so that the
    paper the designated persons signed names the chain as it stood (core.chain)."""

    day = models.OneToOneField(GamingDay, on_delete=models.PROTECT, related_name="seal")
    seq = models.PositiveBigIntegerField(help_text=_("the link the seal names"))
    digest = models.CharField(max_length=64)
    # The audit trail's chain as it stood at the close (audit.chain): a trail cut short below it
    # is caught. None for a day closed by a records file, whose trail is written after its close.
    audit_seq = models.PositiveBigIntegerField(null=True, blank=True)
    audit_digest = models.CharField(max_length=64, blank=True)
    sealed_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        verbose_name = _("seal of a gaming day")
        verbose_name_plural = _("seals of gaming days")

    def __str__(self):
        return f"{self.day}: {self.digest}"


class RunningTotal(models.Model):
    """What one place has gained (+) or given (-) of one instrument so far on one gaming day: its
    postings of the day, added up as each slip's are written (cage.services.running_totals, in the
    slip's own transaction). check_ledger proves every row equals its postings.

    Why a row of its own: a place's balance is its sealed days' totals (DayTotal) and its movements
    of the days not sealed. Summed from the open day's postings, the cage home's inventory read
    every posting of the day, 10,000 on a season's day, on every refresh, and a custody check at the
    window read every posting of its place's day (issue 25); summed from these, each reads a row per
    place and instrument. Derived, not a record: it holds nothing the postings do not say, and it is
    updated in place, so the application's role may change it on PostgreSQL.

    One row a place, day and instrument: its key is the denomination with cash as 0 (a posting's
    null), so that a movement adds to its row in one statement on either database
    (INSERT ... ON CONFLICT on that key: cage.services.running_totals)."""

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="+", db_index=False)
    day = models.ForeignKey(GamingDay, on_delete=models.CASCADE, related_name="+", db_index=False)
    # Null is cash; otherwise chips of this denomination.
    denomination = models.ForeignKey(
        ChipDenomination, on_delete=models.CASCADE, null=True, blank=True, related_name="+", db_index=False
    )
    amount = models.BigIntegerField(help_text=_("cents; positive into the account so far that day"))

    class Meta:
        ordering = ["id"]
        constraints = [
            # Its key, and how a balance reads a place's days not sealed (by place and day).
            models.UniqueConstraint(
                F("account"), F("day"), Coalesce(F("denomination"), Value(0)), name="one_running_total"
            )
        ]
        # A day's, as it closes (cage.services.day_totals): written once a row, never as it is added to.
        indexes = [models.Index(fields=["day"], name="cage_runningtotal_day")]
        verbose_name = _("running total of a place")
        verbose_name_plural = _("running totals of places")

    def __str__(self):
        return f"{self.day} {self.account} {self.amount:+d}"


class DayTotal(AppendOnly):
    """What one place gained (+) or gave (-) of one instrument over a sealed gaming day: the day's
    postings of that place summed as the day closed (cage.services.day_totals), one row per place
    and instrument that moved. A place's balance is its sealed days' totals and its postings of the
    days not sealed (cage.selectors.places.balances_read), so a slip at the window and a day's
    sheets read a day's worth of rows, not the whole event's. Balances are still sums of postings:
    check_ledger proves every day's totals equal its postings."""

    day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="+")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+", db_index=False)
    # Null is cash; otherwise chips of this denomination.
    denomination = models.ForeignKey(ChipDenomination, on_delete=models.PROTECT, null=True, blank=True)
    amount = models.BigIntegerField(help_text=_("cents; positive into the account over the day"))

    class Meta:
        ordering = ["id"]
        constraints = [models.CheckConstraint(condition=~models.Q(amount=0), name="day_total_not_zero")]
        # A place's sealed days summed from the index alone, as its postings are.
        indexes = [models.Index(fields=["account", "denomination", "amount"], name="cage_daytotal_balances")]
        verbose_name = _("day's total of a place")
        verbose_name_plural = _("days' totals of places")

    def __str__(self):
        return f"{self.day} {self.account} {self.amount:+d}"


class PaperBook(AppendOnly):
    """A book of blank paper slips of one slip type, printed before an outage so that the cage can
    go on on paper (DESIGN: when the network or the power fails). Its slips carry the paper serials
    `first` to `first + count - 1` of the type's paper series, a series of its own ("Fill P-0012")
    that never repeats and never meets the system's serials ("Fill 12"). Printing the book reserves
    them; the Chip Cashier holds the books."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="paper_books")
    slip_type = models.CharField(max_length=20)
    first = models.PositiveIntegerField()
    count = models.PositiveIntegerField()
    # None: printed from the command line (manage.py paper_slips), whose audit entry says so.
    printed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    printed_at = models.DateTimeField()

    class Meta:
        ordering = ["slip_type", "first"]
        constraints = [
            models.UniqueConstraint(fields=["event", "slip_type", "first"], name="one_paper_book_per_first_serial"),
            models.CheckConstraint(condition=models.Q(first__gt=0, count__gt=0), name="paper_book_serials_positive"),
        ]
        verbose_name = _("book of paper slips")
        verbose_name_plural = _("books of paper slips")

    @property
    def last(self) -> int:
        return self.first + self.count - 1

    def __str__(self):
        from cage.slip_types import SLIP_KINDS  # the declarations read this module

        return f"{SLIP_KINDS[self.slip_type].label} {paper_serial(self.first)}–{paper_serial(self.last)}"


def paper_serial(number: int) -> str:
    """A paper serial as printed and said: "P-0012" (the system's serials are plain numbers)."""
    return f"P-{number:04d}"


class PaperBookPrint(AppendOnly):
    """Each printing of a book of paper slips: the first is the book, every later one a reprint,
    stamped so on every slip it prints."""

    book = models.ForeignKey(PaperBook, on_delete=models.PROTECT, related_name="prints")
    # None: printed from the command line (manage.py paper_slips), whose audit entry says so.
    printed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    printed_at = models.DateTimeField()
    language = models.CharField(max_length=8)

    class Meta:
        ordering = ["id"]
        verbose_name = _("printing of a book of paper slips")
        verbose_name_plural = _("printings of books of paper slips")


class PaperSerial(AppendOnly):
    """What became of one paper serial of a book: entered (the slip written from it), entered as
    void (the paper slip is marked VOID and kept), or returned unused (counted by the Chip Cashier
    at the close). A serial of a book with no such row is not yet accounted for."""

    class Outcome(models.TextChoices):
        ENTERED = "entered", _("Entered")
        VOID = "void", _("Void")
        UNUSED = "unused", _("Returned unused")
        # Not in the book at the close and never entered: the DRIC records it missing, with why.
        MISSING = "missing", _("Missing")

    book = models.ForeignKey(PaperBook, on_delete=models.PROTECT, related_name="serials")
    number = models.PositiveIntegerField()
    outcome = models.CharField(max_length=8, choices=Outcome.choices)
    day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="paper_serials")
    slip = models.OneToOneField(Slip, on_delete=models.PROTECT, null=True, blank=True, related_name="paper")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["book", "number"]
        constraints = [
            models.UniqueConstraint(fields=["book", "number"], name="one_outcome_per_paper_serial"),
            models.CheckConstraint(
                condition=models.Q(outcome="entered", slip__isnull=False) | ~models.Q(outcome="entered"),
                name="entered_paper_serial_names_its_slip",
            ),
        ]
        verbose_name = _("paper serial accounted for")
        verbose_name_plural = _("paper serials accounted for")

    @property
    def serial(self) -> str:
        return paper_serial(self.number)


class PaperWritten(AppendOnly):
    """The paper slips of a book written during an outage, as the cage says once the system is back:
    every serial of the book up to `last` was written (a book is used in order). Each of them is
    then entered, or entered as void, before any new slip of the day: their written times come
    first (cage.services.paper)."""

    day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="+")
    book = models.ForeignKey(PaperBook, on_delete=models.PROTECT, related_name="written")
    last = models.PositiveIntegerField()
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    declared_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        verbose_name = _("paper slips written during an outage")
        verbose_name_plural = _("paper slips written during outages")


class PaperConfirmation(AppendOnly):
    """A signer's word that the paper slip bears their signature: given from their own session or
    with their signing PIN at the window, as the slip is entered or later. Until each signer of an
    entered paper slip has given it, the slip stands out on the DRIC's queue."""

    class Via(models.TextChoices):
        SESSION = "session", _("From their own session")
        PIN = "pin", _("With their signing PIN")

    signature = models.OneToOneField(Signature, on_delete=models.PROTECT, related_name="confirmation")
    confirmed_at = models.DateTimeField()
    via = models.CharField(max_length=8, choices=Via.choices)

    class Meta:
        ordering = ["id"]
        verbose_name = _("signature confirmed on a paper slip")
        verbose_name_plural = _("signatures confirmed on paper slips")


class PaperDraft(models.Model):
    """A paper slip of an outage as typed, waiting for the others: once every paper slip said
    written is typed (or entered as void), they are posted together in the order of their written
    times (cage.services.paper.drafts_post), so that the cashier may type them in any order, book
    by book. A scratch copy of the paper, not a record: it goes once its slip is posted."""

    day = models.ForeignKey(GamingDay, on_delete=models.CASCADE, related_name="+")
    book = models.ForeignKey(PaperBook, on_delete=models.PROTECT, related_name="drafts")
    number = models.PositiveIntegerField()
    written_at = models.DateTimeField()
    # The form as typed (PINs left out), to show again; and what the slip type's service takes.
    typed = models.JSONField(default=dict)
    fields = models.JSONField(default=dict)
    signed = models.JSONField(default=dict)  # capacity: person id
    confirmed = models.JSONField(default=dict)  # capacity: PaperConfirmation.Via
    entered_by = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    typed_at = models.DateTimeField()
    # Why it could not be posted when its turn came: it waits for its correction.
    refusal = models.TextField(blank=True)

    class Meta:
        ordering = ["written_at", "id"]
        constraints = [models.UniqueConstraint(fields=["book", "number"], name="one_draft_per_paper_serial")]
        verbose_name = _("paper slip typed, to be posted")
        verbose_name_plural = _("paper slips typed, to be posted")

    @property
    def label(self) -> str:
        from cage.slip_types import SLIP_KINDS  # the declarations read this module

        return f"{SLIP_KINDS[self.book.slip_type].label} {paper_serial(self.number)}"


class FillRequest(AppendOnly):
    """A dealer's request, from her tablet, for a fill of her table: the chips she wants. It moves
    nothing; the Chip Cashier makes it into a fill (the slip that moves the chips), or declines it,
    or the dealer withdraws it (FillRequestOutcome). Written once, never changed."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="fill_requests")
    day = models.ForeignKey(GamingDay, on_delete=models.PROTECT, related_name="fill_requests")
    table = models.ForeignKey(GameTable, on_delete=models.PROTECT, related_name="+")
    chips = models.JSONField(default=dict)  # {denomination key: count}, in the event's order
    note = models.TextField(blank=True)
    asked_by = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["day", "at"])]
        verbose_name = _("fill request")
        verbose_name_plural = _("fill requests")


class FillRequestOutcome(AppendOnly):
    """What became of a fill request, once: made into a fill (the slip), withdrawn by the dealer who
    asked, or declined by the Chip Cashier with a reason. A request with no outcome is open."""

    class Outcome(models.TextChoices):
        MADE = "made", _("Made into a fill")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DECLINED = "declined", _("Declined")

    request = models.OneToOneField(FillRequest, on_delete=models.PROTECT, related_name="outcome")
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    slip = models.OneToOneField(Slip, on_delete=models.PROTECT, null=True, blank=True, related_name="fill_request")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField(blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(outcome="made", slip__isnull=False) | ~models.Q(outcome="made"),
                name="made_fill_request_names_its_fill",
            ),
        ]
        verbose_name = _("fill request answered")
        verbose_name_plural = _("fill requests answered")


class BankSlip(models.Model):
    """The bank's deposit slip for one deposit from the cage to the trust account: its number and the
    date the bank stamped on it, entered by the General Cashier once the deposit is made, and checked
    by the DRIC against the stamped copy. A copy of each goes with the financial report (T&C 2.7).

    One to one with the cage's deposit slip. Corrected by the General Cashier until the DRIC has
    checked it, fixed after; never deleted, and every change is on the audit trail."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="bank_slips")
    deposit = models.OneToOneField(Slip, on_delete=models.PROTECT, related_name="bank_slip")
    number = models.CharField(max_length=40)
    stamped_on = models.DateField()
    entered_by = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    entered_at = models.DateTimeField()
    checked_by = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    checked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["stamped_on", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="one_bank_slip_per_number_per_event"),
            models.CheckConstraint(
                condition=models.Q(checked_by__isnull=True, checked_at__isnull=True)
                | models.Q(checked_by__isnull=False, checked_at__isnull=False),
                name="bank_slip_checked_by_someone_at_a_time",
            ),
        ]

    def __str__(self):
        return self.number


class Cheque(models.Model):
    """A cheque drawn on the licensee's trust account: the cheque register. Each expense is paid by
    one (never cash from the cage), entered by the General Cashier with its number, date and payee
    (cage.services.cheques); its amount is the expense's. The net proceeds are used by cheques for
    the purposes the licence approved (`purpose`, at the amount written): each cheque pays an expense
    or a purpose, never both. Corrected by the General Cashier until the report is filed, never
    deleted, and every change is on the audit trail."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="cheques")
    number = models.CharField(max_length=20)
    written_on = models.DateField()
    payee = models.CharField(max_length=200)
    amount = models.BigIntegerField()  # cents
    expense = models.OneToOneField(Slip, on_delete=models.PROTECT, related_name="cheque", null=True, blank=True)
    purpose = models.ForeignKey(
        ApprovedPurpose, on_delete=models.PROTECT, related_name="cheques", null=True, blank=True
    )
    entered_by = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    entered_at = models.DateTimeField()

    class Meta:
        ordering = ["written_on", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="one_cheque_per_number_per_event"),
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="cheque_amount_positive"),
            models.CheckConstraint(
                condition=models.Q(expense__isnull=False, purpose__isnull=True)
                | models.Q(expense__isnull=True, purpose__isnull=False),
                name="cheque_pays_an_expense_or_a_purpose",
            ),
        ]

    def __str__(self):
        return self.number
