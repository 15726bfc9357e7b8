"""The window's busiest rows, drawn in Python: the DRIC's queue and the cage home's slips waiting for
signatures and its latest slips of the day, which every terminal asks for on each refresh
(`{% queue_rows %}`, `{% pending_rows %}`, `{% day_slip_rows %}`).

Why: the template language resolves each of a row's forty-odd variables through its chain of
lookups, and translates and localizes each of its words again for every row: about 0.3 ms a row,
25 rows a page, more than the rest of the page together (issue 25). Here a page's words are
translated once, and each row is put together in Python, each value escaped, as Django's admin puts
together the rows of its change lists (admin_list.items_for_result). The words are the same msgids
the templates had, so the catalogues translate them as before; numbers and times are localized as
the template's filters do. A row costs about a fifth of what it cost in the template.
"""

import html

from django import template
from django.utils import dateformat, formats, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from cage.templatetags.cage_i18n import each_unbroken

register = template.Library()


def _e(value) -> str:
    """A value as HTML, as the template escapes it: what is already HTML as it is, the rest escaped
    (Django's own escape is the standard library's, behind a wrapper costlier than the escaping)."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def _said(text: str, **values) -> str:
    """A translated sentence with its values put in, as {% blocktranslate %} does: the values
    escaped, the sentence itself not (a translator's text is trusted as the template's own)."""
    return text % {name: _e(value) for name, value in values.items()}


def _csrf_input(context) -> str:
    """The CSRF token's hidden input, as {% csrf_token %} renders it: the context's one token, the
    same in every form of the page."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


class _Page:
    """What the rows of one page share and say alike, worked out once: the time of day and the
    minutes waited as the reader's language writes them, and the capacities still to sign."""

    def __init__(self, context):
        self.csrf = _csrf_input(context)
        self.time_format = formats.get_format("TIME_FORMAT")
        self.said: dict = {}

    def clock(self, at) -> str:
        """{{ at|time:"TIME_FORMAT" }}: the time in the event's zone."""
        local = timezone.localtime(at)
        key = ("clock", local.hour, local.minute, local.second)
        if key not in self.said:
            self.said[key] = _e(dateformat.time_format(local, self.time_format))
        return self.said[key]

    def minutes(self, minutes: int) -> str:
        """ "12 min": how long a slip has waited."""
        key = ("minutes", minutes)
        if key not in self.said:
            self.said[key] = _said(
                ngettext("%(minutes)s min", "%(minutes)s min", minutes), minutes=formats.localize(minutes)
            )
        return self.said[key]

    def still_to_sign(self, missing, sep: str) -> str:
        """The capacities a slip waits for, each with the roles that sign it: "Authorized by
        (DRIC)"."""
        key = ("missing", sep, *(id(c) for c in missing))
        if key not in self.said:
            self.said[key] = sep.join(
                f'{_e(c.label)} <span class="muted">({_e(c.roles_label())})</span>' for c in missing
            )
        return self.said[key]

    @staticmethod
    def about(item) -> str:
        """What the slip is about, and its chips below."""
        if not item.chips:
            return _e(item.what)
        return f'{_e(item.what)}<br><span class="muted">{each_unbroken(item.chips)}</span>'


# --- the DRIC's queue -----------------------------------------------------------------------------


class _Queue(_Page):
    """One page of the DRIC's queue: who reads it, what she may do, its words translated once."""

    def __init__(self, context):
        super().__init__(context)
        access = context["access"]
        self.dric = bool(access.person) and "dric" in access.roles
        self.approvable = set(context["approvable"])
        self.voidable = set(context["voidable"])
        self.refusable = set(context["refusable"])
        self.key = context["request_key_input"]
        self.approve = gettext("Approve")
        self.authorize = gettext("Authorize")
        not_hers = gettext("Not the DRIC's to sign: it waits for those under Still to sign.")
        self.not_hers = f'<span class="muted">{not_hers}</span>'
        self.refuse_open = gettext("Refuse…")
        self.withdraw_open = gettext("Withdraw…")
        self.refused_slip = gettext("Nothing moves; the slip stays on file as refused.")
        self.refused_void = gettext("Nothing moves; the void stays on file as refused, and %(slip)s stands as it is.")
        self.reason = gettext("Reason")
        self.refuse = gettext("Refuse")
        self.refuse_void = gettext("Refuse the void")
        self.void_open = gettext("Void…")
        self.void = gettext("Void")
        self.overdue = f'<br><strong class="fails">{gettext("overdue")}</strong>'
        self.select = gettext("Select %(slip)s")
        self.asked_by = gettext("Asked for by %(name)s.")
        self.reason_is = gettext("Reason: %(reason)s")

    def row(self, item, caps) -> str:
        slip = item.slip
        pk, number = slip.pk, _e(slip.number)
        pick = ""
        if pk in self.approvable:
            pick = (
                f'<label class="pick"><input type="checkbox" name="slip" value="{pk}" form="queue-batch" '
                f'id="pick-{pk}" data-keep> <span class="a11y-only">{self.select % {"slip": number}}</span></label>'
            )
        about = self.about(item)
        if slip.slip_type == "void":
            asked = "".join(_said(self.asked_by, name=s.person.name) + " " for s in slip.signatures.all())
            about += f'<br><span class="void-reason">{asked}{_said(self.reason_is, reason=slip.reason)}</span>'
        return (
            f'<tr class="{"overdue" if item.overdue else ""}" data-slip="{pk}">\n'
            f'<td>{pick}<a class="slipno" href="{_e(item.addresses["slip"])}">{number}</a><br>'
            f'<span class="muted">{self.clock(slip.at)}</span></td>\n'
            f'<td>{about}</td><td class="num">{_e(item.dollars)}</td>\n'
            f'<td><span class="state state-{_e(item.state)}">{_e(item.state_label)}</span></td>\n'
            f"<td>{self.still_to_sign(item.missing, '<br>')}</td>\n"
            f'<td class="num">{self.minutes(item.minutes)}{self.overdue if item.overdue else ""}</td>\n'
            f'<td class="actions">\n{self.actions(item, caps) if self.dric else ""}</td></tr>'
        )

    def actions(self, item, caps) -> str:
        """The DRIC's buttons: approve (or authorize a void), refuse or withdraw what waits for her
        before it moves anything, void what may be voided."""
        slip, kind = item.slip, item.slip.slip_type
        is_void = kind == "void"
        parts = []
        if kind in self.refusable:
            parts.append(self._approve(item, self.authorize if is_void else self.approve) if caps else self.not_hers)
            refused = _said(self.refused_void, slip=slip.voids.number) if slip.voids else self.refused_slip
            parts.append(
                f'\n<details class="void refuse"><summary>{self.refuse_open if caps else self.withdraw_open}</summary>\n'
                f'<form method="post" action="{_e(item.addresses["refuse"])}">{self.csrf}{self.key}\n'
                f'<p class="muted">{refused}</p>\n{self._reason("refuse", slip.pk)}\n'
                f'<button type="submit">{self.refuse_void if is_void else self.refuse}</button></form></details>\n'
            )
        elif caps:
            parts.append(self._approve(item, self.approve))
        if kind in self.voidable:
            parts.append(
                f'\n<details class="void"><summary>{self.void_open}</summary>\n'
                f'<form method="post" action="{_e(item.addresses["void"])}">{self.csrf}{self.key}\n'
                f'{self._reason("reason", slip.pk)}\n<button type="submit">{self.void}</button></form></details>\n'
            )
        if not caps and kind not in self.voidable and kind not in self.refusable:
            parts.append(self.not_hers)
        return "".join(parts)

    def _approve(self, item, label: str) -> str:
        return (
            f'<form method="post" action="{_e(item.addresses["approve"])}" class="inline">{self.csrf}'
            f'<button type="submit">{label}</button></form>'
        )

    def _reason(self, prefix: str, pk: int) -> str:
        return (
            f'<label for="{prefix}-{pk}">{self.reason}</label> '
            f'<input type="text" name="reason" id="{prefix}-{pk}" maxlength="500" required>'
        )


@register.simple_tag(takes_context=True)
def queue_rows(context) -> SafeString:
    """{% queue_rows %}: the rows of the DRIC's queue (context: rows, access, approvable, voidable,
    refusable, request_key_input)."""
    queue = _Queue(context)
    return mark_safe("".join(queue.row(item, caps) for item, caps in context["rows"]))


# --- the cage home's slips in transit and waiting -------------------------------------------------


@register.simple_tag(takes_context=True)
def pending_rows(context) -> SafeString:
    """{% pending_rows %}: the cage home's slips waiting for signatures, each with the Sign buttons
    of the capacities its reader may sign (context: pending, each item with caps and addresses)."""
    page, sign_as = _Page(context), gettext("Sign as “%(capacity)s”")
    # A row its reader signs nothing on says so, rather than leave the Sign column blank.
    not_yours = gettext("Not yours to sign")
    not_yours = f'<span class="muted not-yours">{_e(not_yours)}</span>'
    rows = []
    for item in context["pending"]:
        addresses = item.addresses
        sign, home = _e(addresses["sign"]), _e(addresses["home"])
        buttons = "".join(
            f'<form method="post" action="{sign}" class="inline">{page.csrf}'
            f'<input type="hidden" name="capacity" value="{_e(cap.code)}"><input type="hidden" name="next" '
            f'value="{home}"><button type="submit">{_said(sign_as, capacity=str(cap.label).lower())}</button></form>'
            for cap in item.caps
        )
        rows.append(
            f'<tr class="{"overdue" if item.overdue else ""}"><td><a class="slipno" href="{_e(addresses["slip"])}">'
            f"{_e(item.slip.number)}</a></td>\n"
            f'<td>{page.about(item)}</td><td class="num">{_e(item.dollars)}</td>\n'
            f'<td><span class="state state-{_e(item.state)}">{_e(item.state_label)}</span></td>\n'
            f"<td>{page.still_to_sign(item.missing, ', ')}</td>\n"
            f'<td class="num">{page.minutes(item.minutes)}</td>\n'
            f'<td class="actions">{buttons or not_yours}</td></tr>'
        )
    return mark_safe("".join(rows))


# --- the cage home's slips of the day ---------------------------------------------------------------


@register.simple_tag(takes_context=True)
def day_slip_rows(context) -> SafeString:
    """{% day_slip_rows %}: the cage home's latest slips of the day, or those "Find a slip" found
    (context: slips, each with its address, state, subject, amount and signers set by the view)."""
    page = _Page(context)
    return mark_safe(
        "".join(
            f'<tr data-signers="{_e(s.signers)}"><td><a class="slipno" href="{_e(s.address)}">{_e(s.number)}</a></td>'
            f"<td>{page.clock(s.at)}</td>\n"
            f'<td>{_e(s.subject)}</td><td class="num">{_e(s.dollars)}</td>\n'
            f'<td><span class="state state-{_e(s.state)}">{_e(s.state_label)}</span></td><td>{_e(s.reason)}</td></tr>\n'
            for s in context["slips"]
        )
    )
