"""The games of the licence at an event: their limits and odds (the games page), each wheel's
layout, each table's poster, and the DRIC's dispute calculators. Who may use which is declared
in events.permissions."""

import re
from decimal import Decimal

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.rules import RuleViolation
from events.not_found import NotThere

from . import calculators as calc
from . import game_rules, services, wheel_layouts
from .access import event_access
from .calculator_kinds import CALCULATORS, Asked
from .forms import GameSettingsForm, TablesLicensedForm, WheelLayoutForm
from .games import get_game
from .models import GameTable
from .views import applied


def _table(access, code: str) -> GameTable:
    table = game_rules.table_by_code(access.event, code)
    if table is None:
        raise NotThere(_("The event has no table %(table)s.") % {"table": code})
    return table


def games(request, slug):
    """Each authorized game with its limits and odds; the administrator enters the figures no
    seed states (the settings its module declares)."""
    access = event_access(request, slug)
    event = access.event
    admin = access.may("events:games", "POST")
    # Each game's form carries its code under its own prefix ("craps-game").
    posted = next((key[: -len("-game")] for key in request.POST if key.endswith("-game")), None)
    rows = []
    for code in event.games:
        game = get_game(code)
        declared = game.settings
        form = None
        tables_form = None
        if admin:
            # The licence's number of tables of the game (T&C 1.3): "blackjack-tables-count".
            data = request.POST if f"{code}-tables-count" in request.POST else None
            tables_form = TablesLicensedForm(
                data, prefix=f"{code}-tables", initial={"count": event.tables_licensed.get(code)}
            )
            if data is not None and tables_form.is_valid():
                count = tables_form.cleaned_data["count"]
                if applied(
                    tables_form,
                    lambda code=code, count=count: services.tables_licensed_set(event=event, game=code, count=count),
                ):
                    messages.success(
                        request,
                        _("Tables of %(game)s the licence allows: %(count)s.") % {"count": count, "game": _name(code)},
                    )
                    return redirect("events:games", slug)
        if declared and admin:
            data = request.POST if posted == code else None
            form = GameSettingsForm(data, settings=declared, initial=_initial(event, code), prefix=code)
            if data is not None and form.is_valid():
                entered = form.entered()
                if applied(
                    form,
                    lambda code=code, entered=entered: services.game_settings_set(
                        event=event, game=code, entered=entered
                    ),
                ):
                    messages.success(request, _("The settings of %(game)s are saved.") % {"game": _name(code)})
                    return redirect("events:games", slug)
        found = game_rules.limits(event, code)
        rows.append(
            {
                "code": code,
                "name": _name(code),
                "limits": game_rules.limits_text(found) if found else None,
                "limits_source": found.source if found else "",
                "missing": game_rules.missing_settings(event, code),
                # A wheel's payoffs are each table's layout's, on the tables page.
                "payoffs": game_rules.payoffs(event, code) if not game.has_wheel_layout else [],
                "wheel_layout": game.has_wheel_layout,
                "house": game_rules.house_advantages(event, code),
                "form": form,
                "tables_licensed": event.tables_licensed.get(code),
                "tables_set_up": event.tables.filter(game=code).count(),
                "tables_form": tables_form,
            }
        )
    if posted is not None and posted not in event.games and not posted.endswith("-tables"):
        messages.error(request, _("The licence does not authorize this game."))
    return render(request, "events/games.html", {"access": access, "event": event, "rows": rows, "admin": admin})


def _initial(event, code: str) -> dict:
    """The figures already entered, as the form shows them."""
    initial = {"game": code}
    for name, value in game_rules.figures(event, code).items():
        if name == "limits":
            initial.update(min_bet=Decimal(value[0]) / 100, max_bet=Decimal(value[1]) / 100)
        elif isinstance(value, int):
            initial[name] = value
        elif isinstance(value, tuple):
            initial[name] = "{}:{}".format(*value)
        else:
            initial[name] = Decimal(value.numerator * 100) / value.denominator
    return initial


def _name(code: str) -> str:
    from .models import game_name

    return game_name(code)


def wheel_layout(request, slug, table):
    code = table
    """A wheel table's segments and odds: shown to everyone on the event, changed by the DRIC or
    the administrator, checked against Wheel of Fortune rules 2 to 5 before anything is kept."""
    access = event_access(request, slug)
    table = _table(access, code)
    if not table.game_module.has_wheel_layout:
        raise NotThere(_("Table %(table)s is not a wheel of fortune: it has no wheel layout.") % {"table": code})
    form = WheelLayoutForm(request.POST or None, initial={"layout": wheel_layouts.text(table.wheel_layout)})
    if request.method == "POST" and form.is_valid():
        if applied(form, lambda: services.wheel_layout_set(table=table, layout_text=form.cleaned_data["layout"])):
            messages.success(request, _("The layout of wheel %(table)s is saved.") % {"table": table.code})
            return redirect("events:wheel_layout", slug, code)
    return render(
        request,
        "events/wheel_layout.html",
        {
            "access": access,
            "event": access.event,
            "wheel": table,
            "paytable": wheel_layouts.paytable(table.wheel_layout or []),
            "segments": len((table.wheel_layout or {}).get("segments", [])),
            "form": form if access.may("events:wheel_layout", "POST") else None,
        },
    )


def poster(request, slug, table):
    code = table
    """The table's poster, PDF, in English or French (?lang=en|fr; the page's language when not
    given)."""
    # ReportLab is imported here, not at start-up: every manage.py command would pay for it.
    from .posters import LANGUAGES, poster_pdf, poster_refusal

    access = event_access(request, slug)
    lang = request.GET.get("lang") or ("fr" if (get_language() or "").startswith("fr") else "en")
    if lang not in LANGUAGES:
        raise NotThere(_("A poster is printed in English (lang=en) or in French (lang=fr)."))
    table = _table(access, code)
    refused = poster_refusal(table)  # said in the page's language, before the poster's is taken
    if refused is not None:
        messages.error(request, refused.text)
        return redirect("events:games", slug)
    try:
        content = poster_pdf(table, lang)
    except RuleViolation as refused:
        messages.error(request, refused.text)
        return redirect("events:games", slug)
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{poster_file_name(access.event.slug, table.code, lang)}"'
    return response


def poster_file_name(slug: str, code: str, lang: str) -> str:
    """The table's code, as the staff know it, rather than a number of the database; anything
    other than letters, digits, dots and hyphens becomes a hyphen, so the header stays whole."""
    safe = re.sub(r"[^A-Za-z0-9.-]+", "-", code).strip("-") or "table"
    return f"poster-{slug}-{safe}-{lang}.pdf"


def calculators(request, slug):
    """The DRIC's dispute calculators (T&C 1.7), one per authorized game that declares one, each
    answering from the query it was sent (GET: nothing is written), with the house advantage
    beside it; a game that declares none is shown with its house advantage alone."""
    access = event_access(request, slug)
    event = access.event
    tables = list(event.tables.all())
    sections = [_calculator_section(event, code, request.GET, tables) for code in event.games]
    return render(request, "events/calculators.html", {"access": access, "event": event, "sections": sections})


def _calculator_section(event, code: str, query, tables: list[GameTable]) -> dict:
    game = get_game(code)
    kind = CALCULATORS.get(game.calculator)
    asked = query.get("calc", "") == code
    own = [t for t in tables if t.game == code]
    chosen = None
    if game.has_wheel_layout:
        # What a wheel pays is its layout's: the wheel chosen in the form, else the first.
        chosen = next((t for t in own if t.code == query.get("wheel")), own[0] if own else None)
    given = Asked(event, code, query if asked else {}, own, chosen)
    return {
        "code": code,
        "name": _name(code),
        "kind": kind,
        "fields": kind.fields(given) if kind else {},
        "answer": kind.answer(given) if kind and asked else None,
        "house": calc.house_section(event, code, chosen),
        "query": given.query,
    }
