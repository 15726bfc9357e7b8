"""The drill when the laptop dies (README: When the network or the power fails).

A night is worked online on one laptop (the production server, gunicorn, on an SQLite file of its
own); before the outage the Chip Cashier prints the books of paper slips and the inventory from
the pages. The last backup is taken; the laptop dies (the server killed with SIGKILL). The backup
is restored into a fresh database on a spare laptop, served again, and the outage's slips, written
on the printed paper slips, are entered by their own people, each in their own browser: the Chip
Cashier her fills, credit, sale and the runner's return, the General Cashier her redemption; the
runner confirms his signatures from his own session, the DRIC approves from her queue, the blank
slips go back. The night is closed (through the services: the close's pages are walked in
test_nightly_close.py), and the event's report is the same as the same night recorded all online.
"""

import datetime
import json
import re
import shutil
import subprocess

import pytest
from django.utils import timezone

from tests.browser.conftest import at_both_widths, follow, screenshot
from tests.browser.outage_night import PAPER, SLUG
from tests.conftest import PASSWORD, PIN
from tests.databases import migrated_sqlite
from tests.faults.harness import Database
from tests.faults.server import Server

pytestmark = pytest.mark.browser

BOOKS = ("fill", "credit", "sale", "redemption", "runner_return")


def night(database: Database, *steps: str, t0: str) -> None:
    """The night's steps, in one process on that database."""
    calls = "; ".join(f"run({step!r}, {t0!r})" for step in steps)
    database.python(f"from tests.browser.outage_night import run; {calls}")


def report(database: Database) -> dict:
    return json.loads(database.run("event_report", SLUG, "--format", "json").stdout)


class Person:
    """One person at work on the server, in a browser of their own."""

    def __init__(self, browser, server: Server, username: str):
        self.base = f"http://127.0.0.1:{server.port}"
        self.context = browser.new_context(base_url=self.base, viewport={"width": 1366, "height": 900})
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.page.goto("/login/")
        self.page.fill("input[name=username]", username)
        self.page.fill("input[name=password]", PASSWORD)
        self.page.click("button[type=submit]")
        self.page.wait_for_url(lambda url: "/login/" not in url)

    def go(self, path: str):
        self.page.goto(path)
        return self.page

    def submit(self, selector: str):
        follow(self.page, selector)
        return self.page

    def close(self):
        self.context.close()


def pdf_text(path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True).stdout


def qr_codes(pdf, directory) -> list[str]:
    subprocess.run(["pdftoppm", "-png", "-r", "150", str(pdf), str(directory / "qr")], check=True)
    found = []
    for png in sorted(directory.glob("qr-*.png")):
        found += subprocess.run(
            ["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True
        ).stdout.split()
        png.unlink()
    return found


def print_books(cora: Person, directory) -> None:
    """Before the outage: a book of five of each slip type the night may need, and the inventory."""
    page = cora.go(f"/cage/{SLUG}/")
    page.click("#home-paper")
    page.wait_for_url(f"**/cage/{SLUG}/paper/")
    token = page.input_value("#paper-book-form input[name=csrfmiddlewaretoken]")
    for slip_type in BOOKS:
        answer = page.request.post(
            f"/cage/{SLUG}/paper/print/",
            form={"csrfmiddlewaretoken": token, "slip_type": slip_type, "count": "5", "language": "en"},
        )
        assert answer.ok and answer.headers["content-type"] == "application/pdf", slip_type
        path = directory / f"{slip_type}.pdf"
        path.write_bytes(answer.body())
        assert qr_codes(path, directory) == [f"{SLUG}:{slip_type}:P-000{n}" for n in range(1, 6)]
    assert "Fill" in pdf_text(directory / "fill.pdf") and "P-0005" in pdf_text(directory / "fill.pdf")
    inventory = page.request.get(f"/cage/{SLUG}/inventory.pdf")
    (directory / "inventory.pdf").write_bytes(inventory.body())
    sheet = pdf_text(directory / "inventory.pdf")
    assert "Cage inventory at" in sheet and "runner Runner" in sheet and "BJ-1" in sheet


def written(t0: datetime.datetime, minutes: int) -> dict:
    local = timezone.localtime(t0 + datetime.timedelta(minutes=minutes))
    return {"#id_written_date": local.date().isoformat(), "#id_written_time": local.strftime("%H:%M")}


def enter(person: Person, slip_type: str, serial: str, minutes: int, t0, fields: dict, signers: dict, pins=()):
    """Scan the paper slip, type what it says and who signed it; `pins`: the signers beside the
    window who confirm with their PIN as it is entered."""
    page = person.go(f"/cage/{SLUG}/paper/")
    page.fill("#find_serial", f"{SLUG}:{slip_type}:{serial}")
    page.press("#find_serial", "Enter")
    page.wait_for_url(re.compile(r"/paper/\d+/\d+/$"))
    for selector, value in {**written(t0, minutes), **fields}.items():
        page.fill(selector, value)
    if slip_type in ("fill", "credit"):
        page.select_option("#id_table", label="table BJ-1")
    if slip_type in ("fill", "credit", "runner_return"):
        page.select_option("#id_runner", label="Runner")
    for capacity, name in signers.items():
        page.select_option(f"#id_sign_{capacity}", label=name)
    for capacity in pins:
        page.fill(f"#id_pin_{capacity}", PIN)
    person.submit("button:has-text('Enter the paper slip')")
    message = page.locator(".messages, .message, [role=status]").all_inner_texts()
    assert page.url.endswith(f"/cage/{SLUG}/paper/"), (serial, slip_type, page.content()[:4000])
    return " ".join(message)


def test_the_laptop_dies_the_backup_is_restored_and_the_paper_slips_are_entered(browser, tmp_path):
    for tool in ("pdftotext", "zbarimg"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (poppler-utils, zbar-tools)")
    t0 = (timezone.now() - datetime.timedelta(hours=2)).replace(second=0, microsecond=0)
    stamp = t0.isoformat()

    # The same night, recorded all online: what the report must come to.
    online = Database("sqlite", f"sqlite:///{tmp_path / 'online.sqlite3'}")
    # Both start empty and migrated (copies of one migrated database: tests.databases).
    migrated_sqlite(tmp_path / "online.sqlite3")
    migrated_sqlite(tmp_path / "laptop.sqlite3")
    night(online, "online_half", "outage_online", "close", t0=stamp)
    expected = report(online)

    laptop = Database("sqlite", f"sqlite:///{tmp_path / 'laptop.sqlite3'}")
    night(laptop, "online_half", t0=stamp)
    server = Server(laptop, tmp_path / "laptop.log", workers=1)
    server.start()
    try:
        cora = Person(browser, server, f"{SLUG}-chip_cashier")
        print_books(cora, tmp_path)
        cora.close()
        laptop.run("backup", str(tmp_path / "usb-backup.sqlite3"))
    finally:
        server.kill()  # the laptop dies

    spare = Database("sqlite", f"sqlite:///{tmp_path / 'spare.sqlite3'}", secret_key=laptop.secret_key)
    spare.run("restore", str(tmp_path / "usb-backup.sqlite3"))
    spare.run("check_ledger")
    server = Server(spare, tmp_path / "spare.log", workers=1)
    server.start()
    people = {}
    try:
        for code in ("chip_cashier", "general_cashier", "runner", "dric"):
            people[code] = Person(browser, server, f"{SLUG}-{code}")
        cora, gus, rita, ann = (people[c] for c in ("chip_cashier", "general_cashier", "runner", "dric"))

        # How far each book was used: two fills (the second spoiled), one of each other type.
        page = cora.go(f"/cage/{SLUG}/paper/")
        for label, last in (
            ("Fill", "P-0002"),
            ("Credit", "P-0001"),
            ("Chip sale", "P-0001"),
            ("Redemption", "P-0001"),
            ("Runner return", "P-0001"),
        ):
            row = page.locator("#paper-books tbody tr", has_text=label)
            row.locator("input[name=last]").fill(last)
            with page.expect_event("load"):
                row.locator("button:has-text('Written')").click()
        assert "6 paper slips written during the outage are still to be entered" in page.content()
        at_both_widths(page, "outage-paper-page-waiting")
        home = cora.go(f"/cage/{SLUG}/")
        assert "6 paper slips written during the outage are still to be entered" in home.content()
        at_both_widths(home, "outage-cage-home-waiting")

        chips = {slip_type: paper["chips"] for slip_type, _m, paper in PAPER}
        enter(
            cora,
            "fill",
            "P-0001",
            20,
            t0,
            {"#id_chips_25": "4"},
            {"issued_by": "Chip Cashier", "carried_by": "Runner", "received_by": "Dealer"},
            pins=("received_by",),
        )
        page = cora.go(f"/cage/{SLUG}/paper/")
        page.fill("#find_serial", f"{SLUG}:fill:P-0002")
        page.press("#find_serial", "Enter")
        page.wait_for_url(re.compile(r"/paper/\d+/2/$"))
        page.fill("#paper-void-reason", "spoiled: chips miscounted, rewritten as P-0001")
        cora.submit("button:has-text('Enter it as void')")
        # Typed book by book, not in the order written: the credit (written at +30) before the
        # sale (+25); they are posted in the order of their written times once all are typed.
        enter(
            cora,
            "credit",
            "P-0001",
            30,
            t0,
            {"#id_chips_5": "10"},
            {"released_by": "Dealer", "carried_by": "Runner", "received_by": "Chip Cashier"},
            pins=("released_by",),
        )
        typed = enter(
            cora, "sale", "P-0001", 25, t0, {"#id_chips_5": "10", "#id_cash": "50.00"}, {"sold_by": "Chip Cashier"}
        )
        assert "2 paper slips of the outage are still to be typed" in typed, typed
        at_both_widths(cora.go(f"/cage/{SLUG}/paper/"), "outage-paper-typed")
        # The General Cashier enters the redemption she paid, in her own browser.
        enter(
            gus,
            "redemption",
            "P-0001",
            35,
            t0,
            {"#id_chips_25": "2", "#id_cash": "50.00"},
            {"paid_by": "General Cashier"},
        )
        done = enter(
            cora,
            "runner_return",
            "P-0001",
            40,
            t0,
            {"#id_chips_5": "20"},
            {"returned_by": "Runner", "received_by": "Chip Cashier"},
            pins=("returned_by",),
        )
        assert "Every paper slip of the outage is entered" in done, done
        screenshot(cora.page, "outage-paper-page-entered")
        assert chips["fill"] == {"25": 4}

        # The runner confirms, from his own session, the two paper slips he carried.
        page = cora.go(f"/cage/{SLUG}/paper/")
        links = [a.get_attribute("href") for a in page.locator("#paper-used a").all()]
        for href in links:
            page = rita.go(href)
            button = page.locator("#paper-confirm button")
            if button.count():
                rita.submit("#paper-confirm button")
        assert "Signatures on paper slips still to confirm" not in cora.go(f"/cage/{SLUG}/paper/").content()

        # The DRIC approves what waits for her witness.
        page = ann.go(f"/cage/{SLUG}/queue/")
        while page.locator("#queue button:has-text('Approve')").count():
            ann.submit("#queue button:has-text('Approve') >> nth=0")
        assert "Paper slips whose signers have not confirmed" not in page.content()

        # At the close the blank slips go back into the Chip Cashier's count.
        page = cora.go(f"/cage/{SLUG}/paper/")
        while page.locator("#paper-used form.paper-close").count():
            form = page.locator("#paper-used form.paper-close").first
            with page.expect_event("load"):  # counted: every blank slip left is in the book
                form.locator("button:has-text('Every blank slip left returned unused')").click()
        assert page.locator("#paper-used").inner_text().count("Every serial accounted for") == 5
        screenshot(page, "outage-paper-serials-accounted")
    finally:
        for person in people.values():
            person.close()
        server.stop()

    night(spare, "close", t0=stamp)
    spare.run("check_ledger")
    assert report(spare) == expected
