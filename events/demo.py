"""Every page says so while the local demo runs (settings.DEMO: `make run`, DEBUG on the repository's
laptop key, which a real site cannot start on): its logins are published and its figures made up."""

from django.conf import settings
from django.http import Http404

from events.not_found import not_found


def demo(request):
    """Context processor: `demo_banner` for the base template."""
    return {"demo_banner": getattr(settings, "DEMO", False)}


class NotFoundMiddleware:
    """In the demo, a page that is not there is the product's own "Not found", as at a real event,
    not the debug page DEBUG shows in its place: a person trying the product reads what a cashier
    would. Only in the demo (config/settings.py adds it when DEMO); DEBUG's other pages stay.

    An address that names no page never reaches a view, so it is caught as the answer comes back
    (no page was resolved); a view's own Http404 (a slip number that is not there) as it is raised.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 404 and getattr(request, "resolver_match", None) is None:
            return not_found(request)
        return response

    def process_exception(self, request, exception):
        if isinstance(exception, Http404):
            return not_found(request, exception)
        return None
