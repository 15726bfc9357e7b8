import importlib.util

from django.apps import AppConfig

# The folder of the django_tables2 package, located without running it.
PACKAGE = importlib.util.find_spec("django_tables2").submodule_search_locations[0]


class Tables2Config(AppConfig):
    name = "config.tables2"
    label = "django_tables2"
    verbose_name = "django-tables2"
    path = PACKAGE  # its templates/, locale/ and static/ are the app's
