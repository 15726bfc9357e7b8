"""The licence, the event, its gaming days, its people and roles, its tables and chip set."""

import datetime
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import formats
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from . import games


class Licensee(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)
    address = models.CharField(_("address"), max_length=300, blank=True)
    charitable_registration_number = models.CharField(_("charitable registration number"), max_length=40, blank=True)

    class Meta:
        verbose_name = _("licensee")
        verbose_name_plural = _("licensees")

    def __str__(self):
        return self.name


class Authority(models.TextChoices):
    """Who licenses the event, and so whose rules of play its games follow (T&C 1.3, 3.3): an
    Ontario fair or exhibition licence (AGCO) authorizes blackjack and the wheel of fortune under
    the rules the licence supplies; baccarat and craps are played under the Québec rules."""

    AGCO = "agco", _("Alcohol and Gaming Commission of Ontario")
    RACJ = "racj", _("Régie des alcools, des courses et des jeux (Québec)")


# Whose rules of play each authority's licence supplies (events.games: Game.rules_of), and the
# authority's own name as a licence writes it (data, not translated).
AUTHORITY_RULES = {Authority.AGCO: "ontario", Authority.RACJ: "quebec"}
AUTHORITY_NAMES = {
    Authority.AGCO: "Alcohol and Gaming Commission of Ontario",
    Authority.RACJ: "Régie des alcools, des courses et des jeux",
}


def games_of(authority: str) -> list[str]:
    """The game modules played under this authority's rules, in the registry's order."""
    return [code for code, game in games.REGISTRY.items() if game.rules_of == AUTHORITY_RULES.get(authority)]


class Event(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    slug = models.SlugField(_("short name"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=200)
    licensee = models.ForeignKey(Licensee, on_delete=models.PROTECT, related_name="events", verbose_name=_("licensee"))
    licence_number = models.CharField(_("licence number"), max_length=40)
    authority = models.CharField(_("licensed by"), max_length=8, choices=Authority.choices, default=Authority.AGCO)
    # The authority's own name, as it is written on the licence: data, not translated.
    licensing_authority = models.CharField(
        _("licensing authority"), max_length=200, default="Alcohol and Gaming Commission of Ontario"
    )
    venue = models.CharField(_("venue"), max_length=200)
    first_day = models.DateField(_("first day"))
    last_day = models.DateField(_("last day"))
    supplier = models.CharField(_("registered supplier"), max_length=200)
    supplier_registration_number = models.CharField(_("supplier's registration number"), max_length=40, blank=True)
    # T&C 1.5.1: only the games the licence authorizes; codes of events.games modules.
    games = models.JSONField(_("authorized games"), default=list)
    # T&C 1.3: the number of tables of each game the licence approves, {game code: tables}; a game
    # not in it has no number entered yet.
    tables_licensed = models.JSONField(_("tables the licence allows"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLANNED)
    # The licensee's designated trust account, which receives every deposit from the cage and pays
    # the expenses by cheque: named on the financial report by its bank, branch and last four
    # digits, never by its whole number (T&C 2.7; cage.services.bank_slips).
    trust_bank = models.CharField(_("trust account's bank"), max_length=200, blank=True)
    trust_branch = models.CharField(_("trust account's branch"), max_length=200, blank=True)
    # Four digits, or none yet: checked by events.trust_account (no database rule: SQLite's own
    # connections, such as the backup's check, know no regular expressions).
    trust_account_last_four = models.CharField(_("trust account's last four digits"), max_length=4, blank=True)
    # In cents: what the trust account held before the event's first float left it, as its statement
    # shows; the bank reconciliation starts from it and no cheque is for more than the account holds
    # (cage.selectors.bank_slips.trust_reconciliation). None until entered.
    trust_opening_balance = models.BigIntegerField(_("trust account's opening balance"), null=True, blank=True)
    # The date the licence sets for the financial report (T&C 2.7); its filing is the report's
    # (reports.filing).
    report_due_on = models.DateField(_("financial report due on"), null=True, blank=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-first_day", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(last_day__gte=models.F("first_day")),
                name="event_last_day_not_before_first",
            ),
            models.CheckConstraint(
                condition=models.Q(trust_opening_balance__gte=0) | models.Q(trust_opening_balance__isnull=True),
                name="event_trust_opening_balance_not_negative",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("events:detail", args=[self.slug])

    def clean(self):
        unknown = [code for code in self.games if code not in games.REGISTRY]
        if unknown:
            raise ValidationError({"games": _("Unknown game module: %(codes)s") % {"codes": ", ".join(unknown)}})
        if self.first_day and self.last_day and self.last_day < self.first_day:
            raise ValidationError({"last_day": _("The last day cannot come before the first day.")})

    def game_names(self):
        return [game_name(code) for code in self.games]


class GamingDay(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", _("Setup")
        OPEN = "open", _("Open")
        RECONCILING = "reconciling", _("Reconciling")
        CLOSED = "closed", _("Closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="days", verbose_name=_("event"))
    date = models.DateField(_("date"))
    # Scheduled opening hours; the closing time may fall after midnight (the next calendar day).
    opens_at = models.TimeField(_("opens at"), null=True, blank=True)
    closes_at = models.TimeField(_("closes at"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.SETUP)

    class Meta:
        verbose_name = _("gaming day")
        verbose_name_plural = _("gaming days")
        ordering = ["date"]
        constraints = [models.UniqueConstraint(fields=["event", "date"], name="one_gaming_day_per_date")]

    def __str__(self):
        return f"{self.event.slug} {self.date.isoformat()}"

    def opening_hours(self) -> tuple[datetime.datetime, datetime.datetime] | None:
        """The scheduled opening as naive local datetimes, or None when no hours are set."""
        if self.opens_at is None or self.closes_at is None:
            return None
        start = datetime.datetime.combine(self.date, self.opens_at)
        end = datetime.datetime.combine(self.date, self.closes_at)
        if end <= start:
            end += datetime.timedelta(days=1)
        return start, end


class ChipDenomination(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="denominations", verbose_name=_("event"))
    # The exact string the records file uses as the key ("1", "0.50", "25").
    key = models.CharField(_("key"), max_length=12)
    value_cents = models.PositiveIntegerField(_("value in cents"))
    colour = models.CharField(_("colour"), max_length=40, blank=True)

    class Meta:
        verbose_name = _("chip")
        verbose_name_plural = _("chip set")
        ordering = ["value_cents"]
        constraints = [
            models.UniqueConstraint(fields=["event", "value_cents"], name="one_chip_per_value"),
            models.UniqueConstraint(fields=["event", "key"], name="one_chip_per_key"),
            models.CheckConstraint(condition=models.Q(value_cents__gt=0), name="chip_value_positive"),
        ]

    def __str__(self):
        if self.colour:
            return _("%(value)s (%(colour)s)") % {"value": self.value_label, "colour": self.colour}
        return self.value_label

    @property
    def value_label(self) -> str:
        """The chip's face value as people read it: "$5", "$0.50" in English; "5 $", "0,50 $" in
        French (the records file's key, "0.50", is for machines)."""
        cents = self.value_cents % 100
        value = formats.number_format(Decimal(self.value_cents) / 100, decimal_pos=2 if cents else 0)
        return _("$%(value)s") % {"value": value}

    @staticmethod
    def key_for(value: Decimal) -> str:
        """The canonical key of a value: whole dollars without decimals, else two decimals."""
        return str(int(value)) if value == value.to_integral_value() else f"{value:.2f}"


class GameTable(models.Model):
    class State(models.TextChoices):
        CLOSED = "closed", _("Closed")
        OPEN = "open", _("Open")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tables", verbose_name=_("event"))
    code = models.CharField(_("table"), max_length=20)
    game = models.CharField(_("game"), max_length=30)
    # Changed only by the cage's opener and closer services, under a row lock.
    state = models.CharField(_("state"), max_length=6, choices=State.choices, default=State.CLOSED)
    # A wheel of fortune's layout, as events.games.wheel_of_fortune.Layout.to_json() writes it
    # (its segments in wheel order, each symbol's odds, its bet limits): what the wheel pays is a
    # property of the wheel (seed 001, Wheel of Fortune rules 2 to 5), so each wheel table keeps
    # its own. Null for the other games. Set by events.services.wheel_layout_set, which checks it
    # against the rules first.
    wheel_layout = models.JSONField(_("wheel layout"), null=True, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["code"]
        # "BJ-1" and "bj-1" are one table to a cashier reading a slip: unique whatever the case.
        constraints = [models.UniqueConstraint("event", Lower("code"), name="one_table_code_any_case")]

    def __str__(self):
        return self.code

    @property
    def game_module(self):
        return games.get_game(self.game)

    @property
    def game_name(self) -> str:
        return game_name(self.game)


class GameSettings(models.Model):
    """The figures of one licensed game that no seed states, entered by the licensee's
    administrator as the licence sets them (T&C 1.3) and posted with the rules (T&C 3.5): the
    settings the game module declares (events.games.base.Setting), such as the betting limits of
    baccarat and craps (the Québec sections 37 and 95.14 give the rules of play, not the limits),
    a baccarat tie's payout and the banker's commission. Blackjack and the wheel take theirs from
    seed 001 and have none. Set by events.services.game_settings_set, which checks each figure.

    `figures` holds them by the module's setting names, as the module takes them: limits
    [minimum, maximum] in cents, odds [to, per], a fraction as "numerator/denominator"."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="game_settings", verbose_name=_("event"))
    game = models.CharField(_("game"), max_length=30)
    figures = models.JSONField(_("figures"), default=dict)

    class Meta:
        verbose_name = _("game settings")
        verbose_name_plural = _("game settings")
        ordering = ["game"]
        constraints = [models.UniqueConstraint(fields=["event", "game"], name="one_settings_per_game")]

    def __str__(self):
        return f"{self.event.slug} {self.game}"


class ApprovedPurpose(models.Model):
    """A charitable purpose the licence approved the event's net proceeds for (T&C 1.3: the event is
    conducted as the application and the licence set out), entered as the licence words it. Cheques
    from the trust account for it are the use of proceeds the financial report accounts for
    (cage.models.Cheque.purpose; T&C 2.7). Never deleted: a purpose mistyped is corrected to the
    licence's words until the report is filed (events.proceeds.purpose_correct)."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="approved_purposes")
    name = models.CharField(_("approved purpose"), max_length=200)

    class Meta:
        ordering = ["id"]
        # The same purpose in other letters' case is the same purpose (events.proceeds): the index
        # holds it when two windows add or correct one in the same moment.
        constraints = [models.UniqueConstraint("event", Lower("name"), name="one_approved_purpose_any_case")]
        verbose_name = _("approved purpose")
        verbose_name_plural = _("approved purposes")

    def __str__(self):
        return self.name


def game_name(code: str) -> str:
    """A game's name in the active language: "Wheel of Fortune", or "Roue de la fortune" in French.
    The game modules hold both names and know no language (they import nothing of Django)."""
    return games.get_game(code).name(get_language())


def game_choices() -> list[tuple[str, str]]:
    """The games, for a form's choices: evaluated as the form is shown, in the reader's language."""
    return [(code, game_name(code)) for code in games.REGISTRY]


# The roles as the terms and conditions name them (seed 001; in French seed 000's words).
class Role(models.TextChoices):
    DRIC = "dric", _("Designated Representative in Charge")
    GENERAL_CASHIER = "general_cashier", _("General Cashier")
    CHIP_CASHIER = "chip_cashier", _("Chip Cashier")
    RUNNER = "runner", _("Chip/table runner")
    DEALER = "dealer", _("Dealer")
    AUDITOR = "auditor", _("Auditor")


# T&C 2: the three positions the licensee must designate.
DESIGNATED = (Role.DRIC, Role.GENERAL_CASHIER, Role.CHIP_CASHIER)


class Person(models.Model):
    class Registration(models.TextChoices):
        GOOD = "good", _("Good standing")
        REFUSED = "refused", pgettext_lazy("registration", "Refused")
        REVOKED = "revoked", _("Revoked")
        SUSPENDED = "suspended", _("Suspended")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="people", verbose_name=_("event"))
    # A short id, unique in the event: the records file's person id ("ann").
    code = models.SlugField(_("id"), max_length=40)
    name = models.CharField(_("name"), max_length=200)
    born_on = models.DateField(_("date of birth"))
    identification = models.CharField(_("identification shown"), max_length=200, blank=True)
    supplier_associated = models.BooleanField(_("associated with the supplier"), default=False)
    # T&C 2: designated persons are neither related to nor associated with the registered supplier
    # or its employees, and have other activities in the organization beyond its lotteries.
    supplier_related = models.BooleanField(_("related to the supplier or one of its employees"), default=False)
    other_activities = models.BooleanField(
        _("has other activities in the organization beyond its lotteries"), null=True, blank=True
    )
    # T&C 1.4.6: the terms and conditions were brought to their attention, when it was recorded.
    terms_acknowledged_at = models.DateTimeField(
        _("terms and conditions brought to their attention"), null=True, blank=True
    )
    registration = models.CharField(
        _("registration"), max_length=10, choices=Registration.choices, default=Registration.GOOD
    )
    gaming_assistant_number = models.CharField(_("gaming-assistant registration number"), max_length=40, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="people",
        verbose_name=_("login"),
        help_text=_("The login this person signs with."),
    )

    class Meta:
        verbose_name = _("person")
        verbose_name_plural = _("people")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "code"], name="one_person_code"),
            models.UniqueConstraint(fields=["event", "user"], name="one_person_per_login_per_event"),
        ]

    def __str__(self):
        return self.name

    def age_on(self, day: datetime.date) -> int:
        years = day.year - self.born_on.year
        if (day.month, day.day) < (self.born_on.month, self.born_on.day):
            years -= 1
        return years

    def role_codes(self) -> set[str]:
        # Read from a prefetch when there is one: the records importer asks for every signature of
        # a season, and each .all() builds a queryset.
        prefetched = getattr(self, "_prefetched_objects_cache", {}).get("assignments")
        if prefetched is not None:
            return {a.role for a in prefetched}
        from events.selectors import roles_of  # once per page, or per slip's transaction

        return set(roles_of(self.pk))


class Assignment(models.Model):
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="assignments", verbose_name=_("person"))
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)

    class Meta:
        verbose_name = _("role assignment")
        verbose_name_plural = _("role assignments")
        ordering = ["role"]
        constraints = [models.UniqueConstraint(fields=["person", "role"], name="one_assignment_per_role")]

    def __str__(self):
        return _("%(person)s as %(role)s") % {"person": self.person, "role": self.get_role_display()}


class Shift(models.Model):
    """A person on duty in one role during part of a gaming day (the roster)."""

    day = models.ForeignKey(GamingDay, on_delete=models.CASCADE, related_name="shifts", verbose_name=_("gaming day"))
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="shifts", verbose_name=_("person"))
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    starts_at = models.DateTimeField(_("starts at"))
    ends_at = models.DateTimeField(_("ends at"))

    class Meta:
        verbose_name = _("shift")
        verbose_name_plural = _("roster")
        ordering = ["starts_at"]
        constraints = [
            models.CheckConstraint(condition=models.Q(ends_at__gt=models.F("starts_at")), name="shift_ends_after_start")
        ]

    def __str__(self):
        return f"{self.person} {self.role} {self.starts_at:%H:%M}-{self.ends_at:%H:%M}"


class SigningPin(models.Model):
    """A login's signing PIN: typed on the cage's screen when its owner signs someone else's slip.

    Set by its owner only (events.services.pin_set, or at the login's setup), stored hashed like a
    password. Wrong tries count as failed logins of its owner (django-axes), so the same lockout
    covers the PIN and the password (events.services.pin_verify).
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="signing_pin")
    pin_hash = models.CharField(max_length=128)
    set_at = models.DateTimeField()

    def __str__(self):
        return f"signing PIN of {self.user}"


class LoginSetup(models.Model):
    """The one-time setup code of a login someone else made (events.services.login_create).

    The login has no usable password until its owner gives the username and this code on the
    setup page and chooses their own password and signing PIN: whoever made the login hands the
    code over on paper and never knows either. Only a hash of the code is kept; it works once,
    and not after expires_at.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="login_setup")
    code_hash = models.CharField(max_length=128)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    made_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    # Four eyes on a designated person's login once the event has opened: the code works only after
    # a designated person of the event other than its owner confirms it from their own session.
    person = models.ForeignKey(Person, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    confirm_needed = models.BooleanField(default=False)
    confirmed_by = models.ForeignKey(Person, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    confirmed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"setup code of {self.user}"

    @property
    def waits_for_confirmation(self) -> bool:
        return self.confirm_needed and self.confirmed_by_id is None


class Appointment(models.Model):
    """A role given to someone, or a login of theirs set up, while a gaming day is open (events.services;
    a login from the moment it can sign, whenever its code was made): flagged on the
    DRIC's queue and the close page, with every slip the person signs that day, until a second
    designated person acknowledges it (T&C 2: no one alone; whoever gives roles and logins could
    otherwise add a signer of their own in the middle of a day)."""

    class Given(models.TextChoices):
        ROLE = "role", _("Role")
        LOGIN = "login", _("Login")

    day = models.ForeignKey(GamingDay, on_delete=models.CASCADE, related_name="appointments")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="appointments")
    given = models.CharField(max_length=8, choices=Given.choices)
    role = models.CharField(max_length=20, choices=Role.choices, blank=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    made_at = models.DateTimeField()
    acknowledged_by = models.ForeignKey(Person, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    acknowledged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["made_at", "id"]
        verbose_name = _("role or login given during a gaming day")
        verbose_name_plural = _("roles and logins given during a gaming day")

    def __str__(self):
        return f"{self.person} {self.given} {self.role} {self.day}"


class LanguagePreference(models.Model):
    """The language a login chose with the switch in the header: it follows its owner from screen
    to screen (a cage terminal, the DRIC's desk). Without one, the browser's language is used."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language_preference")
    language = models.CharField(_("language"), max_length=10)  # one of settings.LANGUAGES

    def __str__(self):
        return f"{self.user}: {self.language}"
