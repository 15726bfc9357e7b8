"""No page of the product is kept by a browser or a proxy.

What a signed-in page shows (balances, slips, people, the audit trail) and every export or
download (the report as CSV, JSON and PDF, a slip's PDF, the register's and the trail's CSV) is
sent with `Cache-Control: no-store, private` (and no-cache, max-age=0): the back button of a
cage terminal left behind, a shared browser's disk cache, or a proxy between the cage and the
server never hands them to the next person. The login and setup pages get the same; there is
nothing on them worth keeping. Static files are answered before this middleware (WhiteNoise) and
keep their long cache lifetimes.
"""

from django.utils.cache import add_never_cache_headers


class NoStoreMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        add_never_cache_headers(response)
        return response
