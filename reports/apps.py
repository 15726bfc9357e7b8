from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class ReportsConfig(AppConfig):
    name = "reports"
    verbose_name = _lazy("Reports")

    def ready(self):
        # The cage's close page and close slip show the daily sheets through a port of the cage's
        # own, since the sheets lie above the cage (cage.day_sheets).
        from cage import day_sheets

        from .daily import day_figures, expense_sheet

        day_sheets.register(day_figures=day_figures, expense_sheet=expense_sheet)
