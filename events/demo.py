"""Every page says so while the local demo runs (settings.DEMO: `make run`, DEBUG on the repository's
laptop key, which a real site cannot start on): its logins are published and its figures made up."""

from django.conf import settings


def demo(request):
    """Context processor: `demo_banner` for the base template."""
    return {"demo_banner": getattr(settings, "DEMO", False)}
