"""The administrator sets the tablets up: the trust page shows the event's authority, its
fingerprint and QR codes a tablet's camera reads, at the cage's screen and a tablet's width."""

import os
import shutil
import subprocess
from urllib.parse import urlsplit

import pytest
from cryptography.hazmat.primitives import serialization
from django.contrib.auth import get_user_model

from events import local_ca
from tests.browser.conftest import ARTIFACTS, at_both_widths, follow, log_in
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


def read_qr_codes(png) -> list[str]:
    if shutil.which("zbarimg") is None:
        if os.environ.get("REQUIRE_QR_TOOLS"):
            pytest.fail("REQUIRE_QR_TOOLS is set but zbar-tools (zbarimg) is not installed")
        pytest.skip("zbar-tools is not installed (apt-get install zbar-tools); QR codes not read back")
    done = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True)
    return done.stdout.split()


def test_the_administrator_reads_the_trust_page_and_its_qr_codes(page, live_server, settings, tmp_path):
    settings.TLS_DIR = tmp_path
    authority, _key = local_ca.ensure_authority(tmp_path, "Lakeside Fair")
    get_user_model().objects.create_user("organiser", password=PASSWORD, is_staff=True)
    log_in(page, "organiser", PASSWORD)
    follow(page, "#trust-link")
    assert page.inner_text("#fingerprint") == local_ca.fingerprint(authority)
    at_both_widths(page, "trust-page")
    codes = read_qr_codes(ARTIFACTS / "trust-page-1366.png")
    certificate_url = page.get_attribute("#ca-url", "href")
    assert certificate_url in codes and page.get_attribute("#cage-url", "href") in codes
    # The code's address is the laptop's on the network (the live server here listens on the
    # loopback only, so its path is fetched here): the authority's certificate, with no login.
    fetched = page.context.request.get(urlsplit(certificate_url).path)
    assert fetched.status == 200
    assert fetched.body() == authority.public_bytes(serialization.Encoding.DER)
