from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class ReportsConfig(AppConfig):
    name = "reports"
    verbose_name = _lazy("Reports")

    def ready(self):
        # The cage's close page and close slip show the daily sheets through a port of the cage's
        # own, since the sheets lie above the cage (cage.day_sheets).
        from cage import day_sheets
        from events import report_filed

        from .daily import day_figures, expense_sheet
        from .filing import filed_on

        day_sheets.register(day_figures=day_figures, expense_sheet=expense_sheet)
        # What the filed report covers is no longer corrected, by the writers below (events.report_filed).
        report_filed.register(filed_on=filed_on)
