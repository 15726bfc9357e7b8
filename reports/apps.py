from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _lazy


class ReportsConfig(AppConfig):
    name = "reports"
    verbose_name = _lazy("Reports")
