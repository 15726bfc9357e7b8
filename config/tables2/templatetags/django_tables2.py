"""`{% load django_tables2 %}`: django-tables2's own template tags, imported the first time a
template is compiled with them, not when Django lists the template libraries at start-up."""

from importlib import import_module

from django import template

TAGS = "django_tables2.templatetags.django_tables2"


class FirstUseLibrary(template.Library):
    """A template library whose tags and filters are the module's, read on first use."""

    def __init__(self, module: str):  # no super().__init__(): it would set empty tags and filters
        self.module = module

    def __getattr__(self, name):
        if name not in ("tags", "filters"):
            raise AttributeError(name)
        library = import_module(self.module).register
        self.tags, self.filters = library.tags, library.filters
        return getattr(self, name)


register = FirstUseLibrary(TAGS)
