"""A test-only URLconf: the product's URLs plus a view that fails, to see what a 500 shows and logs."""

from django.contrib.auth.decorators import login_not_required
from django.urls import path

from config.urls import urlpatterns as product_urls


@login_not_required
def fails(request):
    raise RuntimeError(f"the ledger broke while handling {request.POST.get('password', '')!r}")


urlpatterns = [path("fails/", fails), *product_urls]
