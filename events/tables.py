import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import GameTable, Person


class GameTableTable(tables.Table):
    code = tables.Column(verbose_name=gettext_lazy("Table"), attrs={"td": {"class": "code"}})
    game = tables.Column(accessor="game_name", verbose_name=gettext_lazy("Game"), orderable=False)
    state = tables.Column(verbose_name=gettext_lazy("State"))
    # The posted rules, limits and odds (T&C 3.5) in both languages, and a wheel's layout.
    poster = tables.Column(verbose_name=gettext_lazy("Poster"), empty_values=(), orderable=False)

    class Meta:
        model = GameTable
        fields = ("code", "game", "state")
        attrs = {"class": "grid", "id": "tables"}

    def render_poster(self, record):
        url = reverse("events:poster", args=[record.event.slug, record.code])
        links = format_html(
            '<a href="{}?lang=en" class="poster-en">{}</a> · <a href="{}?lang=fr" class="poster-fr">{}</a>',
            url,
            _("English"),
            url,
            _("French"),
        )
        if record.game_module.has_wheel_layout:
            layout = reverse("events:wheel_layout", args=[record.event.slug, record.code])
            links = format_html('{} · <a href="{}" class="layout">{}</a>', links, layout, _("Wheel layout"))
        return links


class PersonTable(tables.Table):
    # A declared column takes no verbose name from the model: it is named here, translated.
    born_on = tables.DateColumn(verbose_name=gettext_lazy("Date of birth"), attrs={"td": {"class": "date"}})
    roles = tables.Column(verbose_name=gettext_lazy("Roles"), empty_values=(), orderable=False)
    login = tables.Column(accessor="user__username", verbose_name=gettext_lazy("Login"), default="—")
    # Left out for those who cannot record them (the People page's exclude).
    declarations = tables.Column(verbose_name=gettext_lazy("Declarations"), empty_values=(), orderable=False)

    def render_login(self, record, value):
        # A login made for someone stays unusable until they set it up with their code.
        if record.user is not None and not record.user.has_usable_password():
            return format_html('{} <span class="muted">({})</span>', value, _("waiting for setup"))
        return value

    class Meta:
        model = Person
        fields = (
            "code",
            "name",
            "born_on",
            "identification",
            "supplier_associated",
            "registration",
            "gaming_assistant_number",
        )
        # What the setup reads first, within a tablet's width: who, their roles, their declarations.
        sequence = ("code", "name", "roles", "declarations", "...")
        attrs = {"class": "grid", "id": "people"}

    def render_declarations(self, record):
        from .designation import designated
        from .services import declarations_missing

        url = reverse("events:person_declarations", args=[record.event.slug, record.code])
        link = format_html('<a href="{}" class="declare">{}</a>', url, _("Record…"))
        missing = declarations_missing(record) if designated(record) else []
        if missing:
            # What keeps the first day shut, or the position from being given once opened (T&C 1.4.4, 1.4.6, 2).
            return format_html(
                '{} <span class="fails">{}</span>', link, _("incomplete: %(missing)s") % {"missing": ", ".join(missing)}
            )
        return link

    def render_roles(self, record):
        return ", ".join(a.get_role_display() for a in record.assignments.all()) or "—"
