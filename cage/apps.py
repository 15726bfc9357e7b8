from django.apps import AppConfig


class CageConfig(AppConfig):
    name = "cage"
    verbose_name = "Cage"
