"""One place where every request meets the audit trail.

It opens the audit context the services read (who, from which address), records a refused
permission (PermissionDenied, RoleRefused) and, once the view has returned, the refusals made
while serving it. An action whose entry could not be written answers 503 with a plain message.
"""

from django.core.exceptions import PermissionDenied
from django.shortcuts import render

from . import context, services


class AuditMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = context.begin(request)
        try:
            response = self.get_response(request)
        finally:
            served = context.end(token)
        # Written after the view: any transaction of a refused action has rolled back by now.
        services.write_refusals(request, served.refusals if served is not None else [])
        return response

    def process_exception(self, request, exception):
        if isinstance(exception, services.AuditUnavailable):
            return render(request, "audit/unavailable.html", {"message": exception.text}, status=503)
        if isinstance(exception, PermissionDenied):
            services.permission_refused(request, exception)
        return None
