from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = _("Audit trail")

    def ready(self):
        # Logins, logouts and failed logins come from django.contrib.auth's signals; refusals from
        # core.rules as each is made; what events records (its services' changes, the site pages it
        # refuses) through core.trail, the port it writes to, since events may not import the
        # writer above it.
        from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed

        from core import rules, trail

        from . import context, services

        user_logged_in.connect(services.logged_in, dispatch_uid="audit.logged_in")
        user_logged_out.connect(services.logged_out, dispatch_uid="audit.logged_out")
        user_login_failed.connect(services.login_failed, dispatch_uid="audit.login_failed")
        if context.note_refusal not in rules.refusal_listeners:
            rules.refusal_listeners.append(context.note_refusal)
        trail.register(record=services.record, permission_refused=services.permission_refused)
