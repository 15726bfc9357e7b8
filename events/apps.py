from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events")

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from .idle import activity_starts_at_login
        from .language import language_of_login

        user_logged_in.connect(activity_starts_at_login, dispatch_uid="events.idle.activity_starts_at_login")
        user_logged_in.connect(language_of_login, dispatch_uid="events.language.language_of_login")
