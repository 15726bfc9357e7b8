import datetime
import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from audit import services as audit
from events.models import GamingDay
from reports.daily import day_sheets, sheets_json
from reports.daily_exports import sheets_csv, sheets_pdf


class Command(BaseCommand):
    help = "One gaming day's control sheets: the PDF, every sheet as CSV, or JSON."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("date", help="the gaming day, YYYY-MM-DD")
        parser.add_argument("--format", choices=["pdf", "csv", "json"], default="pdf")
        parser.add_argument("--out", help="write to this file instead of standard output")

    def handle(self, *args, slug, date, format, out=None, **options):
        try:
            when = datetime.date.fromisoformat(date)
        except ValueError as exc:
            raise CommandError(f"{date!r} is not a date as YYYY-MM-DD") from exc
        day = GamingDay.objects.select_related("event__licensee").filter(event__slug=slug, date=when).first()
        if day is None:
            raise CommandError(f"no gaming day {date} in event {slug!r}")
        data = day_sheets(day)
        if format == "json":
            content = (json.dumps(sheets_json(data), indent=2, ensure_ascii=False) + "\n").encode()
        elif format == "csv":
            content = sheets_csv(data).encode()
        else:
            content = sheets_pdf(data)
        audit.exported(day.event, "day_sheets", format, day=day)
        if out:
            Path(out).write_bytes(content)
        elif format == "pdf":
            sys.stdout.buffer.write(content)
        else:
            self.stdout.write(content.decode(), ending="")
