"""{% report_reminder access as text %}: the financial report's due date nearing or passed, not filed
yet (reports.filing.reminder), for whoever records its filing or sets the date; "" for anyone else.
The event's page shows it: a page of the events app, which knows no report, asks it here."""

from django import template

from reports.filing import reminder

register = template.Library()


@register.simple_tag
def report_reminder(access) -> str:
    if not (access.may("reports:report_file", "POST") or access.may("reports:report_due", "POST")):
        return ""
    return reminder(access.event)
