"""No page or download is kept by a browser or a proxy: every page the product answers, and every
export (CSV, JSON, PDF), carries Cache-Control no-store and private (events.no_store). Static files
keep their long cache lifetimes.

The pages are every page of the permission matrix that answers GET, asked by someone it is open to,
so a page added later is covered without a line here.
"""

import pytest
from django.test import Client

from events import local_ca
from events.models import Role
from events.permissions import ANONYMOUS, STAFF, entry_for
from tests.test_permission_matrix import PATTERNS, fill_kwargs, pattern_url, variants
from tests.world import make_world

pytestmark = pytest.mark.django_db

# Who asks, in this order: the first of them the page is open to.
ASKERS = (STAFF, Role.DRIC, Role.RUNNER, ANONYMOUS)
EXPORTS = ("?export=csv", "?export=xlsx", "")


def private(response) -> bool:
    directives = {d.strip() for d in response.get("Cache-Control", "").split(",")}
    return {"no-store", "private", "no-cache"} <= directives


def test_every_page_and_every_download_is_no_store_and_private(settings, tmp_path):
    settings.TLS_DIR = tmp_path
    local_ca.ensure_authority(tmp_path)  # as after the first `make serve`: its certificate is a page
    world = make_world()
    asked, wrong = 0, []
    for group in dict.fromkeys(name for name, _p, _r in PATTERNS):
        for case, name, pattern, extra, which in variants(group):
            kwargs = fill_kwargs(world, pattern, extra, which)
            entry = entry_for(name, kwargs)
            if "GET" not in entry.methods:
                continue
            who = next((w for w in ASKERS if w in entry.read), None)
            if who is None:
                continue
            client = Client(raise_request_exception=False)
            if world.users[who] is not None:
                client.force_login(world.users[who])
            queries = ("",)
            if name in ("cage:register", "cage:voids", "audit:event", "audit:logins"):
                queries = EXPORTS
            elif name == "cage:queue_batch":  # the confirmation of the slips the DRIC ticked
                queries = (f"?slip={world.involved.pk}",)
            for query in queries:
                response = client.get(pattern_url(name, pattern, kwargs) + query)
                asked += 1
                # The login's landing is a redirect to the role's page, and so is the lock page of a
                # session not locked (back to its page); they are no-store all the same.
                answered = 302 if name in ("events:landing", "events:unlock") else 200
                if response.status_code != answered or not private(response):
                    wrong.append(f"{case}{query} as {who}: {response.status_code} {response.get('Cache-Control')!r}")
    assert not wrong, "\n".join(wrong)
    assert asked > 35


def test_the_downloads_themselves_are_no_store(client):
    world = make_world()
    slug = world.cast.event.slug
    client = Client()
    client.force_login(world.users[Role.DRIC])
    for url, kind in (
        (f"/reports/{slug}/report.csv", "text/csv"),
        (f"/reports/{slug}/report.json", "application/json"),
        (f"/reports/{slug}/financial-report.pdf", "application/pdf"),
        (f"/cage/{slug}/slips/{world.involved.pk}/slip.pdf", "application/pdf"),
        (f"/audit/{slug}/?export=csv", "text/csv"),
        (f"/cage/{slug}/register/?export=csv", "text/csv"),
    ):
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"].startswith(kind), url
        assert private(response), (url, response.get("Cache-Control"))


def test_a_refusal_a_redirect_to_log_in_and_the_login_page_are_no_store_too(client):
    world = make_world()
    slug = world.cast.event.slug
    assert private(Client().get("/login/"))
    assert private(Client().get(f"/cage/{slug}/"))  # the redirect to log in
    refused = Client()
    refused.force_login(world.users[Role.DEALER])
    response = refused.get(f"/cage/{slug}/register/")
    assert response.status_code == 403 and private(response)


def test_static_files_keep_their_cache_lifetime():
    response = Client().get("/static/site.css")
    assert "max-age" in response["Cache-Control"] and "no-store" not in response["Cache-Control"]
