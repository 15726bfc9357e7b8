from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.functional import lazy
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core import local
from core.local import moment, zone_name

from . import games, lockout
from .form_input import CheckedInput
from .models import Authority, Event, GamingDay, Person, Role, game_choices, game_name


class DateInput(forms.DateInput):
    input_type = "date"


class TimeInput(forms.TimeInput):
    input_type = "time"


class EventForm(CheckedInput, forms.Form):
    licensee = forms.CharField(label=_("Licensee"), max_length=200)
    licensee_address = forms.CharField(label=_("Licensee's address"), max_length=300, required=False)
    charitable_registration_number = forms.CharField(
        label=_("Charitable registration number"), max_length=40, required=False
    )
    slug = forms.SlugField(label=_("Short name"), max_length=80, help_text=_("Short name used in links and files."))
    name = forms.CharField(label=_("Name"), max_length=200)
    licence_number = forms.CharField(label=_("Licence number"), max_length=40)
    authority = forms.ChoiceField(
        label=_("Licensed by"),
        choices=Authority.choices,
        initial=Authority.AGCO,
        help_text=_(
            "Whose rules of play the games follow: an Ontario licence authorizes blackjack and the wheel of "
            "fortune, a Québec one baccarat and craps (T&C 1.3, 3.3)."
        ),
    )
    licensing_authority = forms.CharField(
        label=_("Licensing authority, as written on the licence"),
        max_length=200,
        required=False,
        help_text=_("Leave empty for the authority's own name."),
    )
    venue = forms.CharField(label=_("Venue"), max_length=200)
    first_day = forms.DateField(label=_("First day"), widget=DateInput)
    last_day = forms.DateField(label=_("Last day"), widget=DateInput)
    supplier = forms.CharField(label=_("Registered supplier"), max_length=200)
    supplier_registration_number = forms.CharField(
        label=_("Supplier's registration number"), max_length=40, required=False
    )
    games = forms.MultipleChoiceField(
        label=_("Games the licence authorizes"), choices=game_choices, widget=forms.CheckboxSelectMultiple
    )
    report_due_on = forms.DateField(
        label=_("Financial report due on"),
        widget=DateInput,
        required=False,
        help_text=_("As the licence sets it; the event's page reminds the DRIC as it nears. It can be set later."),
    )
    trust_bank = forms.CharField(label=_("Trust account: bank"), max_length=200, required=False)
    trust_branch = forms.CharField(label=_("Trust account: branch"), max_length=200, required=False)
    trust_account_last_four = forms.CharField(
        label=_("Trust account: last four digits of its number"),
        # Longer than four, so a whole number pasted here reaches the rule that refuses it, whole.
        max_length=40,
        required=False,
        help_text=_(
            "The licensee's designated trust account, which receives every deposit from the cage and pays the "
            "expenses by cheque. The financial report names it by these; never enter the whole number. It can "
            "be named later, on the trust account page."
        ),
    )

    approved_purposes = forms.CharField(
        label=_("Charitable purposes the licence approved"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        help_text=_(
            "One per line, as the licence words them: the net proceeds are used for these, and the financial "
            "report accounts for them. They can be added later, on the trust account page."
        ),
    )

    def clean_approved_purposes(self) -> list[str]:
        return [line for line in self.cleaned_data["approved_purposes"].splitlines() if line.strip()]


class LicensedGameField(forms.ChoiceField):
    """Offers only the games the licence authorizes. A known game it does not authorize (a page
    opened before the licence changed, or a forged post) is still passed on, so that the service
    refuses it citing T&C 1.5.1 and the refusal is recorded, rather than a bare "not a choice"."""

    def valid_value(self, value):
        return value in games.REGISTRY


class SupplierForm(CheckedInput, forms.Form):
    supplier_registration_number = forms.CharField(
        label=_("Supplier's registration number"),
        max_length=40,
        help_text=_("As the supplier's registration under the Gaming Control Act, 1992 gives it."),
    )


class TablesLicensedForm(CheckedInput, forms.Form):
    count = forms.IntegerField(label=_("Tables the licence allows"), min_value=1, max_value=200)


class TableForm(CheckedInput, forms.Form):
    code = forms.CharField(label=_("Table"), max_length=20, help_text=_("For example BJ-1."))
    game = LicensedGameField(label=_("Game"))

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = lambda: [(code, game_name(code)) for code in event.games]


class DenominationForm(CheckedInput, forms.Form):
    value = forms.DecimalField(label=_("Value ($)"), max_digits=8, decimal_places=2, min_value=0.01)
    colour = forms.CharField(label=_("Colour"), max_length=40, required=False)


USERNAME_HELP = _(
    "For a person who signs. The login gets no password: you are shown a one-time setup code to hand "
    "over, and they choose their own password and signing PIN."
)
LINK_LABEL = _("Link to the existing login with this username")
LINK_HELP = _("For someone who already has a login, such as at an earlier event.")


# Asked of everyone, held for the designated persons (T&C 2): not asked yet, yes, no.
OTHER_ACTIVITIES = [
    ("", _("Not asked yet")),
    ("yes", _("Yes: other activities in the organization beyond its lotteries")),
    ("no", _("No: the organization's lotteries only")),
]


class DeclarationFields(forms.Form):
    """What a person shows and declares, as the terms and conditions ask it of the licensee."""

    identification = forms.CharField(
        label=_("Identification shown"),
        max_length=200,
        required=False,
        help_text=_("Satisfactory to the Registrar; required of every designated person (T&C 1.4.4)."),
    )
    supplier_associated = forms.BooleanField(
        label=_("Associated with the supplier, or works for it"),
        required=False,
        help_text=_(
            "A designated person may not be (T&C 2); the supplier's dealers and runners are registered gaming assistants (T&C 4.2)."
        ),
    )
    supplier_related = forms.BooleanField(
        label=_("Related to the supplier or one of its employees"),
        required=False,
        help_text=_("A designated person may not be (T&C 2)."),
    )
    other_activities = forms.ChoiceField(
        label=_("Other activities in the organization"), choices=OTHER_ACTIVITIES, required=False
    )
    gaming_assistant_number = forms.CharField(
        label=_("Gaming-assistant registration no."), max_length=40, required=False
    )
    terms_acknowledged = forms.BooleanField(
        label=_("The terms and conditions of the licence were brought to their attention"),
        required=False,
        help_text=_("Recorded with the time, for every person who works the event (T&C 1.4.6)."),
    )

    def declarations(self) -> dict:
        d = self.cleaned_data
        return {
            "identification": d["identification"],
            "supplier_associated": d["supplier_associated"],
            "supplier_related": d["supplier_related"],
            "other_activities": {"yes": True, "no": False}.get(d["other_activities"]),
            "gaming_assistant_number": d["gaming_assistant_number"],
        }


class DeclarationsForm(CheckedInput, DeclarationFields):
    """One person's declarations, shown as they stand: what is sent replaces them whole, so the form
    starts from what is recorded and a field left as it was stays so."""

    def __init__(self, *args, person: Person, **kwargs):
        initial = {
            "identification": person.identification,
            "supplier_associated": person.supplier_associated,
            "supplier_related": person.supplier_related,
            "other_activities": {True: "yes", False: "no"}.get(person.other_activities, ""),
            "gaming_assistant_number": person.gaming_assistant_number,
            "terms_acknowledged": person.terms_acknowledged_at is not None,
        }
        super().__init__(*args, initial=initial, **kwargs)
        if person.terms_acknowledged_at is not None:
            # Recorded once, with its time; nothing on this form takes it back.
            field = self.fields["terms_acknowledged"]
            field.disabled = True
            field.help_text = gettext("Recorded at %(time)s %(zone)s (T&C 1.4.6).") % {
                "time": moment(person.terms_acknowledged_at),
                "zone": zone_name(person.terms_acknowledged_at),
            }


class PersonForm(CheckedInput, DeclarationFields):
    code = forms.SlugField(label=_("Id"), max_length=40, help_text=_("Short id, for example ann."))
    name = forms.CharField(label=_("Name"), max_length=200)
    born_on = forms.DateField(label=_("Date of birth"), widget=DateInput)
    registration = forms.ChoiceField(
        label=_("Registration"), choices=Person.Registration.choices, initial=Person.Registration.GOOD
    )
    role = forms.ChoiceField(label=_("Role"), choices=[("", "—")] + Role.choices, required=False)
    username = forms.CharField(label=_("Login (username)"), max_length=150, required=False, help_text=USERNAME_HELP)
    link_existing = forms.BooleanField(label=LINK_LABEL, required=False, help_text=LINK_HELP)

    field_order = ["code", "name", "born_on", "registration", "role"]

    def __init__(self, *args, admin: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        # Only the licensee's administrator gives logins (events.services.login_create): whoever
        # holds a setup code could sign as its owner. Nobody else is offered the fields, and the
        # services refuse them too.
        if not admin:
            del self.fields["username"]
            del self.fields["link_existing"]

    def clean(self):
        data = super().clean()
        if data.get("link_existing") and not data.get("username"):
            self.add_error("username", _("Give the username of the login to link."))
        return data


# A list not chosen from yet says what to choose, not Django's bare "---------".
CHOOSE_PERSON = _("Choose a person")
CHOOSE_ROLE = _("Choose a role")


class LoginGiveForm(CheckedInput, forms.Form):
    """The administrator gives a login to a person already on the event who has none."""

    person = forms.ModelChoiceField(label=_("Person"), queryset=Person.objects.none(), empty_label=CHOOSE_PERSON)
    username = forms.CharField(label=_("Login (username)"), max_length=150, help_text=USERNAME_HELP)
    link_existing = forms.BooleanField(label=LINK_LABEL, required=False, help_text=LINK_HELP)

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["person"].queryset = event.people.filter(user__isnull=True).order_by("name")


class RoleForm(CheckedInput, forms.Form):
    person = forms.ModelChoiceField(label=_("Person"), queryset=Person.objects.none(), empty_label=CHOOSE_PERSON)
    # No role chosen until one is: a slip of the hand never makes someone the DRIC.
    role = forms.ChoiceField(label=_("Role"), choices=[("", CHOOSE_ROLE), *Role.choices])

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["person"].queryset = event.people.all()


class RegistrationForm(CheckedInput, forms.Form):
    person = forms.ModelChoiceField(label=_("Person"), queryset=Person.objects.none(), empty_label=CHOOSE_PERSON)
    registration = forms.ChoiceField(label=_("Registration"), choices=Person.Registration.choices)

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["person"].queryset = event.people.all()


class DayForm(CheckedInput, forms.Form):
    date = forms.DateField(label=_("Date"), widget=DateInput)
    opens_at = forms.TimeField(label=_("Opens at"), widget=TimeInput)
    closes_at = forms.TimeField(label=_("Closes at"), widget=TimeInput, help_text=_("May be after midnight."))


class ShiftForm(CheckedInput, forms.Form):
    person = forms.ModelChoiceField(label=_("Person"), queryset=Person.objects.none(), empty_label=CHOOSE_PERSON)
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)
    starts_at = forms.DateTimeField(label=_("Starts at"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    ends_at = forms.DateTimeField(label=_("Ends at"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))

    def __init__(self, *args, day: GamingDay, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["person"].queryset = day.event.people.all()


class EarlierDayChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return local.day(obj.date)


class RosterCopyForm(CheckedInput, forms.Form):
    """Copy the shifts of an earlier day of the event (events.services.roster_copy): the days
    offered are those with shifts to copy."""

    source = EarlierDayChoice(label=_("Copy the shifts of"), queryset=GamingDay.objects.none())

    def __init__(self, *args, day: GamingDay, **kwargs):
        super().__init__(*args, **kwargs)
        earlier = day.event.days.filter(date__lt=day.date, shifts__isnull=False).distinct().order_by("-date")
        self.fields["source"].queryset = earlier


class PinForm(CheckedInput, forms.Form):
    """The owner sets their signing PIN. Nothing is ever rendered back into these fields, and the
    browser is asked not to fill them in: a session left open at the cage must not set a PIN."""

    password = forms.CharField(
        label=_("Your current password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
    )
    pin = forms.CharField(
        label=_("New signing PIN"),
        help_text=_("4 to 8 digits; not one digit repeated, not digits in a row like 1234."),
        max_length=8,
        widget=forms.PasswordInput(attrs={"autocomplete": "off", "inputmode": "numeric"}),
    )
    pin_again = forms.CharField(
        label=_("The new PIN again"),
        max_length=8,
        widget=forms.PasswordInput(attrs={"autocomplete": "off", "inputmode": "numeric"}),
    )

    def clean(self):
        data = super().clean()
        if data.get("pin") and data.get("pin_again") and data["pin"] != data["pin_again"]:
            self.add_error("pin_again", _("The two PINs differ; type the same PIN twice."))
        return data


PASSWORD_HELP = _("At least 8 characters; not a common password, not digits only, not like your name.")


def _secret(label, help_text="", **attrs):
    """A field for a secret: never rendered back, and the browser is asked not to fill it in."""
    return forms.CharField(
        label=label,
        help_text=help_text,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off", **attrs}),
    )


def _code_example() -> SafeString:
    # The example code on one line: at a tablet's width it broke at a hyphen, and read as two.
    example = format_html('<span class="unbroken">{}</span>', "K7QM-2XPD-9RTF")
    return mark_safe(
        escape(gettext("As written on the paper you were given, such as %(example)s.")) % {"example": example}
    )


class LoginSetupForm(forms.Form):
    """A new login's owner gives their username and setup code and chooses a password and PIN."""

    username = forms.CharField(
        label=_("Username"), max_length=150, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )
    code = forms.CharField(
        label=_("Setup code"),
        max_length=40,
        help_text=lazy(_code_example, SafeString)(),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}),
    )
    password = _secret(_("Your new password"), PASSWORD_HELP, autocomplete="new-password")
    password_again = _secret(_("The new password again"), autocomplete="new-password")
    pin = forms.CharField(
        label=_("Your signing PIN"),
        help_text=_("4 to 8 digits; not one digit repeated, not digits in a row like 1234."),
        max_length=8,
        widget=forms.PasswordInput(attrs={"autocomplete": "off", "inputmode": "numeric"}),
    )
    pin_again = forms.CharField(
        label=_("The PIN again"),
        max_length=8,
        widget=forms.PasswordInput(attrs={"autocomplete": "off", "inputmode": "numeric"}),
    )

    def clean(self):
        data = super().clean()
        if data.get("password") and data.get("password_again") and data["password"] != data["password_again"]:
            self.add_error("password_again", _("The two passwords differ; type the same password twice."))
        if data.get("pin") and data.get("pin_again") and data["pin"] != data["pin_again"]:
            self.add_error("pin_again", _("The two PINs differ; type the same PIN twice."))
        return data


class PasswordChangeForm(forms.Form):
    """The logged-in user changes their own password."""

    old_password = _secret(_("Your current password"), autocomplete="current-password")
    new_password = _secret(_("New password"), PASSWORD_HELP, autocomplete="new-password")
    new_password_again = _secret(_("The new password again"), autocomplete="new-password")

    def clean(self):
        data = super().clean()
        new, again = data.get("new_password"), data.get("new_password_again")
        if new and again and new != again:
            self.add_error("new_password_again", _("The two passwords differ; type the same password twice."))
        return data


class GameSettingsForm(CheckedInput, forms.Form):
    """The licence's figures for one game whose seed states none: one field (two for the limits)
    per setting its module declares (events.games.base.Setting). The module's typical figure is
    shown as an example, never filled in: the figure is the licence's."""

    game = forms.CharField(widget=forms.HiddenInput, max_length=30)

    def __init__(self, *args, settings=(), **kwargs):
        from django.utils.translation import gettext

        super().__init__(*args, **kwargs)
        self.settings = settings
        for setting in settings:
            label = gettext(setting.label)
            if setting.kind == "limits":
                low, high = setting.typical
                self.fields["min_bet"] = forms.DecimalField(
                    label=_("Minimum bet ($)"), max_digits=8, decimal_places=2, min_value=0.01
                )
                self.fields["max_bet"] = forms.DecimalField(
                    label=_("Maximum bet ($)"), max_digits=8, decimal_places=2, min_value=0.01
                )
                self.fields["min_bet"].widget.attrs["placeholder"] = f"{low / 100:.2f}"
                self.fields["max_bet"].widget.attrs["placeholder"] = f"{high / 100:.2f}"
            elif setting.kind == "odds":
                self.fields[setting.name] = forms.CharField(
                    label=label,
                    max_length=12,
                    # The bet's own usual odds as the example: 8:1 beside the player bet misled.
                    help_text=_("Two whole numbers, to:per, such as %(example)s.")
                    % {"example": "{}:{}".format(*setting.typical)},
                )
                self.fields[setting.name].widget.attrs["placeholder"] = "{}:{}".format(*setting.typical)
            elif setting.kind == "count":
                self.fields[setting.name] = forms.IntegerField(label=label, min_value=1, max_value=99)
                self.fields[setting.name].widget.attrs["placeholder"] = str(setting.typical)
            elif setting.kind == "fraction":
                self.fields[setting.name] = forms.DecimalField(
                    label=_("%(setting)s (%%)") % {"setting": label},
                    max_digits=5,
                    decimal_places=2,
                    min_value=0,
                    max_value=25,
                )
                self.fields[setting.name].widget.attrs["placeholder"] = (
                    str(float(setting.typical) * 100).rstrip("0").rstrip(".")
                )

    def entered(self) -> dict:
        """What was typed, by setting name, as events.services.game_settings_set takes it."""
        d = self.cleaned_data
        found = {}
        for setting in self.settings:
            if setting.kind == "limits":
                found[setting.name] = (str(d["min_bet"]), str(d["max_bet"]))
            else:
                found[setting.name] = str(d[setting.name])
        return found


class WheelLayoutForm(CheckedInput, forms.Form):
    layout = forms.CharField(
        label=_("Segments, in wheel order"),
        widget=forms.Textarea(attrs={"rows": 16, "cols": 24}),
        max_length=6000,
        help_text=_("One segment a line: the symbol painted on it, a space, and the odds it pays, such as $5 5:1."),
    )


class LoginForm(AuthenticationForm):
    """Django's login form, saying a wrong username or password in the product's words: how many
    tries are left before that username is locked at this terminal (events.lockout), which
    Django's own words did not say."""

    def get_invalid_login_error(self):
        # The username comes back as typed, the password empty: the keyboard starts at the password.
        self.fields["username"].widget.attrs.pop("autofocus", None)
        self.fields["password"].widget.attrs["autofocus"] = True
        username = self.cleaned_data.get("username") or ""
        left = lockout.tries_left(self.request, username) if self.request is not None else None
        if not left:
            message = gettext("The username or the password is wrong; both are case-sensitive.")
        else:
            message = ngettext(
                "The username or the password is wrong; both are case-sensitive. %(left)s more wrong try locks "
                "this username at this terminal for %(minutes)s minutes.",
                "The username or the password is wrong; both are case-sensitive. %(left)s more wrong tries lock "
                "this username at this terminal for %(minutes)s minutes.",
                left,
            ) % {"left": left, "minutes": lockout.lock_minutes(self.request)}
        return forms.ValidationError(message, code="invalid_login")


class UnlockForm(CheckedInput, forms.Form):
    """The owner of a locked session types their signing PIN (events.views_accounts.unlock). The
    PIN is never rendered back, and the browser is asked not to remember it."""

    pin = forms.CharField(
        label=_("Your signing PIN"),
        strip=False,
        max_length=8,
        widget=forms.PasswordInput(attrs={"autocomplete": "off", "inputmode": "numeric", "autofocus": True}),
    )
