from django import forms
from django.utils.translation import gettext_lazy as _

from . import games
from .form_input import CheckedInput
from .models import Event, GamingDay, Person, Role


class DateInput(forms.DateInput):
    input_type = "date"


class TimeInput(forms.TimeInput):
    input_type = "time"


class EventForm(CheckedInput, forms.Form):
    licensee = forms.CharField(max_length=200)
    licensee_address = forms.CharField(max_length=300, required=False)
    charitable_registration_number = forms.CharField(max_length=40, required=False)
    slug = forms.SlugField(max_length=80, help_text="Short name used in links and files.")
    name = forms.CharField(max_length=200)
    licence_number = forms.CharField(max_length=40)
    licensing_authority = forms.CharField(max_length=200, initial=Event._meta.get_field("licensing_authority").default)
    venue = forms.CharField(max_length=200)
    first_day = forms.DateField(widget=DateInput)
    last_day = forms.DateField(widget=DateInput)
    supplier = forms.CharField(label="Registered supplier", max_length=200)
    supplier_registration_number = forms.CharField(max_length=40, required=False)
    games = forms.MultipleChoiceField(
        label="Games the licence authorizes", choices=games.choices, widget=forms.CheckboxSelectMultiple
    )


class TableForm(CheckedInput, forms.Form):
    code = forms.CharField(label="Table", max_length=20, help_text="For example BJ-1.")
    game = forms.ChoiceField(choices=games.choices)


class DenominationForm(CheckedInput, forms.Form):
    value = forms.DecimalField(label="Value ($)", max_digits=8, decimal_places=2, min_value=0.01)
    colour = forms.CharField(max_length=40, required=False)


class PersonForm(CheckedInput, forms.Form):
    code = forms.SlugField(label="Id", max_length=40, help_text="Short id, for example ann.")
    name = forms.CharField(max_length=200)
    born_on = forms.DateField(label="Date of birth", widget=DateInput)
    identification = forms.CharField(label="Identification shown", max_length=200, required=False)
    supplier_associated = forms.BooleanField(label="Associated with the supplier", required=False)
    registration = forms.ChoiceField(choices=Person.Registration.choices, initial=Person.Registration.GOOD)
    gaming_assistant_number = forms.CharField(label="Gaming-assistant registration no.", max_length=40, required=False)
    role = forms.ChoiceField(choices=[("", "—")] + Role.choices, required=False)
    username = forms.CharField(max_length=150, required=False, help_text="A login for a person who signs.")
    password = forms.CharField(widget=forms.PasswordInput, required=False, min_length=8)

    def clean(self):
        data = super().clean()
        if data.get("username") and not data.get("password"):
            self.add_error("password", "A login needs a password.")
        return data


class RoleForm(CheckedInput, forms.Form):
    person = forms.ModelChoiceField(queryset=Person.objects.none())
    role = forms.ChoiceField(choices=Role.choices)

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["person"].queryset = event.people.all()


class RegistrationForm(CheckedInput, forms.Form):
    person = forms.ModelChoiceField(queryset=Person.objects.none())
    registration = forms.ChoiceField(choices=Person.Registration.choices)

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["person"].queryset = event.people.all()


class DayForm(CheckedInput, forms.Form):
    date = forms.DateField(widget=DateInput)
    opens_at = forms.TimeField(widget=TimeInput)
    closes_at = forms.TimeField(widget=TimeInput, help_text="May be after midnight.")


class ShiftForm(CheckedInput, forms.Form):
    person = forms.ModelChoiceField(queryset=Person.objects.none())
    role = forms.ChoiceField(choices=Role.choices)
    starts_at = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    ends_at = forms.DateTimeField(widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))

    def __init__(self, *args, day: GamingDay, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["person"].queryset = day.event.people.all()


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
