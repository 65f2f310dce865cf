"""The app of `sonde serve` as people use it, in headless Chromium (Selenium).

Starts `sonde serve` on a free loopback port with its own SONDE_HOME (and a cheap test
cost, SONDE_SCRYPT_LOG_N=10, as the CLI's account tests use), then checks, finding every
field and button by its visible label:

- the design's five login stories (success with the spinner, wrong credentials, empty
  fields answered without a request, Log in disabled while the request runs, the exact
  welcome text), and forgot/reset password through the outbox's token;
- the whole flow: register, pair, a new measurement whose values change, a second user
  who sees the device busy (and whose start is refused with 409), save with a comment,
  the list shows it first, the detail shows the comment, the CSV and Parquet downloads
  equal `sonde measurements export`'s bytes, the settings popup (Escape closes it, the
  focus stays inside and comes back) and its Export (a zip of every measurement and the
  index), Logout, and every data URL answering with the login page afterwards; another
  user never sees, exports or deletes the measurement by any URL;
- security headers (CSP without inline script or style, no-store), cookie flags and the
  CSRF check;
- a keyboard-only walk through log in, settings, a measurement and its detail;
- Main's pages: 120 measurements (written by Benchmarks/store/fill_store.py; on
  PostgreSQL copied there by `sonde store copy`, as a lab moves its data) in pages of 50;
- axe-core (axe-selenium-python) with no violation on every screen at 390x844, 820x1180
  and 1440x900, no console error anywhere; screenshots of every screen at phone and
  desktop size (into Tests/Browser/artifacts/app/; `--screenshots docs/screenshots/app`
  refreshes the README's).

With `--postgres` (under `Tests/Postgres/pg_cluster.sh run`) the server and the command
line share a new database on that PostgreSQL server instead of the SQLite file, and only
the steps whose outcome goes through the store run (`STORE_STEPS`): the pages, the device
and the dialogs are the same bytes on either engine, and checked once (about 2 minutes
of `make test` saved).

usage: test_app.py path/to/sonde [--screenshots DIR] [--postgres] [--only STEP ...]
(STEP: paging, login stories, whole flow, keyboard walk, never loses a measurement,
command device, live plots, drafts and dialogs, data loss, administrator release, screens, reset flood)
"""

import csv
import http.client
import io
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zipfile

from axe_selenium_python import Axe
from PIL import Image
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Live"))

from headless import Browser  # noqa: E402
from live_stream import Checks  # noqa: E402

SCREENSHOTS = os.path.join(HERE, "artifacts", "app")
SIZES = {"phone": (390, 844), "tablet": (820, 1180), "desktop": (1440, 900)}
PASSWORD = "correct-horse-1"


class App:
    """One `sonde serve --listen 127.0.0.1:0` with its own home; a context manager."""

    def __init__(self, binary, database=None):
        """`database`: a PostgreSQL URL the server and the command line share (`--postgres`);
        None: the SQLite file under the app's home."""
        self.binary = binary
        self.database = database
        self.home = tempfile.mkdtemp(prefix="sonde-app-test-")
        # The server's temporary files (exports) in its own folder, so a test sees any left behind.
        self.tmp = os.path.join(self.home, "tmp")
        os.makedirs(self.tmp)
        self.environment = dict(os.environ, SONDE_HOME=self.home, SONDE_SCRYPT_LOG_N="10", TMPDIR=self.tmp)
        self.environment.pop("SONDE_DATABASE_URL", None)
        if database:
            self.environment["SONDE_DATABASE_URL"] = database
        self.log = []

    def __enter__(self):
        self.process = subprocess.Popen(
            [self.binary, "serve", "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL, env=self.environment)
        line = self.process.stdout.readline().decode()
        match = re.search(r"(http://127\.0\.0\.1:(\d+)/)", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"sonde serve printed no URL: {line!r} {self.process.stderr.read().decode()!r}")
        self.url = match.group(1).rstrip("/")
        self.port = int(match.group(2))
        threading.Thread(target=self._drain, daemon=True).start()
        return self

    def restart(self):
        """Stops the server (SIGTERM, as a service manager does) and starts it again on the
        same home and database; the port changes, the browsers' cookies stay valid."""
        self.process.terminate()
        self.process.wait(timeout=20)
        self.__enter__()

    def kill_and_restart(self):
        """Kills the server with SIGKILL (no chance to keep anything), then starts it again."""
        self.process.kill()
        self.process.wait(timeout=20)
        self.__enter__()

    def _drain(self):
        for line in self.process.stderr:
            self.log.append(line.decode(errors="replace"))

    def __exit__(self, *exc):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        # The home goes with the server: a run leaves nothing in the temporary directory.
        shutil.rmtree(self.home, ignore_errors=True)

    def cli(self, *arguments, stdin=None):
        """Runs the same binary's command line on the same home."""
        return subprocess.run(
            [self.binary, *arguments], input=stdin.encode() if stdin else None, capture_output=True,
            env=self.environment, timeout=60)

    def request(self, method, path, cookies=None, body=None, headers=None):
        """One request without following redirects: (status, headers, body bytes)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        all_headers = dict(headers or {})
        if cookies:
            all_headers["Cookie"] = "; ".join(f"{c['name']}={c['value']}" for c in cookies)
        if body is not None:
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = urllib.parse.urlencode(body)
        connection.request(method, path, body=body, headers=all_headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, response.headers, data


# Finding things by what a person reads.

def visible(elements):
    return [element for element in elements if element.is_displayed()]


def field(driver, label):
    """The input a visible <label> names."""
    for candidate in visible(driver.find_elements(By.XPATH, f"//label[normalize-space()='{label}']")):
        return driver.find_element(By.ID, candidate.get_attribute("for"))
    raise AssertionError(f"no field labelled {label!r} on {driver.current_url}")


def control(driver, name):
    """A visible button or link whose text (or accessible name) is `name`."""
    found = visible(driver.find_elements(
        By.XPATH, f"//*[self::button or self::a][normalize-space()='{name}' or @aria-label='{name}']"))
    if not found:
        raise AssertionError(f"no button {name!r} on {driver.current_url}")
    return found[0]


def path_of(driver):
    return urllib.parse.urlparse(driver.current_url).path


def heading(driver):
    return driver.find_element(By.TAG_NAME, "h1").text


def alert_of(driver):
    """(title, message) of the visible alert, or None."""
    for alert in visible(driver.find_elements(By.CSS_SELECTOR, "[role=alert]")):
        return (alert.find_element(By.CSS_SELECTOR, ".alert-title").text,
                alert.find_element(By.CSS_SELECTOR, ".alert-message").text)
    return None


def wait_for(condition, timeout=15.0, interval=0.05):
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except Exception:  # an element replaced by a navigation: try again
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            return value
        time.sleep(interval)


def fill(driver, **values):
    for label, text in values.items():
        element = field(driver, label)
        element.clear()
        element.send_keys(text)


# Records the loading state of the page's forms across navigations (sessionStorage keeps
# it in the tab): whether a button was ever disabled, the spinner ever visible and turning.
RECORD_LOADING = """
sessionStorage.setItem('states', '[]');
const form = document.querySelector('form[data-async]');
const button = [...form.querySelectorAll('button')].find(b => b.textContent.trim() === arguments[0]);
const spinner = form.querySelector('.spinner');
new MutationObserver(() => {
  const states = JSON.parse(sessionStorage.getItem('states'));
  const style = getComputedStyle(spinner);
  states.push({disabled: button.disabled, spinner: !spinner.hidden && spinner.getClientRects().length > 0
               && style.animationName === 'spin'});
  sessionStorage.setItem('states', JSON.stringify(states));
}).observe(form, {attributes: true, subtree: true});
window.__fetches = 0;
const original = window.fetch;
window.fetch = function () { window.__fetches += 1; return original.apply(this, arguments); };
"""


def loading_states(driver):
    return json.loads(driver.execute_script("return sessionStorage.getItem('states') || '[]'"))


def log_in(driver, app, email, password=PASSWORD, timeout=15.0):
    driver.get(app.url + "/login")
    fill(driver, Email=email, Password=password)
    control(driver, "Log in").click()
    return wait_for(lambda: path_of(driver) == "/", timeout)


def register(driver, app, email, password=PASSWORD):
    driver.get(app.url + "/register")
    fill(driver, Email=email, Password=password)
    control(driver, "Register").click()
    return wait_for(lambda: path_of(driver) == "/")


def login_stories(app, check):
    """The design's five login stories, and forgot/reset password."""
    result = app.cli("register", "--email", "test@gmail.com", "--password-stdin", stdin=PASSWORD + "\n")
    check(result.returncode == 0, f"sonde register: {result.stderr.decode()}")
    with Browser(1280, 900) as browser:
        driver = browser.driver

        # Empty fields: the alert at once, and no request sent.
        driver.get(app.url + "/login")
        driver.execute_script(RECORD_LOADING, "Log in")
        # Requests a script made (a late icon or stylesheet load is not one); a form that
        # submitted would have reloaded the page and reset __fetches.
        count_requests = ("return performance.getEntriesByType('resource')"
                          ".filter(e => e.initiatorType === 'fetch' || e.initiatorType === 'xmlhttprequest').length")
        requests_before = driver.execute_script(count_requests)
        control(driver, "Log in").click()
        check(alert_of(driver) == ("Error", "Please fill all fields"), f"empty fields: alert {alert_of(driver)}")
        fill(driver, Email="test@gmail.com")
        control(driver, "Log in").click()
        check(alert_of(driver) == ("Error", "Please fill all fields"), f"empty password: alert {alert_of(driver)}")
        time.sleep(0.3)
        fetches = driver.execute_script("return window.__fetches")
        requests_after = driver.execute_script(count_requests)
        check(fetches == 0 and requests_after == requests_before,
              f"empty fields sent {fetches} fetches, {requests_after - requests_before} requests")
        check(path_of(driver) == "/login", f"empty fields left Login for {driver.current_url}")

        # Wrong credentials: the alert, still on Login; Log in disabled during the request, enabled after.
        driver.get(app.url + "/login")
        driver.execute_script(RECORD_LOADING, "Log in")
        fill(driver, Email="test@gmail.com", Password="wrong-password")
        control(driver, "Log in").click()
        shown = wait_for(lambda: alert_of(driver))
        check(shown == ("Error", "Invalid credentials"), f"wrong password: alert {shown}")
        check(path_of(driver) == "/login", f"wrong password left Login for {driver.current_url}")
        states = loading_states(driver)
        check(any(state["disabled"] for state in states), f"Log in never disabled during the request: {states}")
        check(any(state["spinner"] for state in states), f"no turning spinner during the request: {states}")
        check(control(driver, "Log in").is_enabled(), "Log in still disabled after the answer")
        check(wait_for(lambda: not driver.find_element(By.CSS_SELECTOR, "form .spinner").is_displayed(), 3),
              "the spinner still shows after the answer")

        # Unknown email: the same words.
        fill(driver, Email="nobody@example.com", Password="whatever-1")
        control(driver, "Log in").click()
        time.sleep(0.5)
        check(wait_for(lambda: alert_of(driver)) == ("Error", "Invalid credentials"),
              f"unknown email: alert {alert_of(driver)}")

        # A locked account says so and for how long (unknown addresses lock alike).
        for _ in range(5):
            fill(driver, Email="mallory@example.com", Password="guess-guess")
            control(driver, "Log in").click()
            time.sleep(0.3)
            wait_for(lambda: control(driver, "Log in").is_enabled())
        locked = alert_of(driver)
        check(locked and locked[0] == "Error" and "locked" in locked[1] and re.search(r"try again in \d+ s", locked[1]),
              f"locked account: alert {locked}")

        # Success: the spinner, then Main with the exact welcome.
        driver.get(app.url + "/login")
        driver.execute_script(RECORD_LOADING, "Log in")
        fill(driver, Email="test@gmail.com", Password=PASSWORD)
        control(driver, "Log in").click()
        check(wait_for(lambda: path_of(driver) == "/"), f"login did not reach Main: {driver.current_url}")
        states = loading_states(driver)
        check(any(state["spinner"] for state in states) and any(state["disabled"] for state in states),
              f"success: no spinner or disabled button while logging in: {states}")
        check(heading(driver) == "Welcome, test@gmail.com!", f"welcome text {heading(driver)!r}")
        check(driver.find_element(By.ID, "device-status").text == "Device not connected",
              "Main does not say Device not connected")

        # The greeting shows the address as typed at this login (trimmed), in every page
        # load of the session; the account is the one address.
        driver.delete_all_cookies()
        driver.get(app.url + "/login")
        fill(driver, Email="  Test@Gmail.com ", Password=PASSWORD)
        control(driver, "Log in").click()
        check(wait_for(lambda: path_of(driver) == "/"), f"a mixed-case login did not reach Main: {driver.current_url}")
        driver.refresh()
        check(heading(driver) == "Welcome, Test@Gmail.com!", f"welcome as typed {heading(driver)!r}")

        # Security: headers, cookie flags, CSRF.
        status, headers, body = app.request("GET", "/login")
        policy = headers.get("Content-Security-Policy", "")
        check("default-src 'self'" in policy and "unsafe-inline" not in policy, f"CSP {policy!r}")
        check(headers.get("Cache-Control") == "no-store", f"login page Cache-Control {headers.get('Cache-Control')}")
        page = body.decode()
        check(not re.search(r"<script(?![^>]*\bsrc=)", page), "an inline <script> on Login")
        check(" style=" not in page and "<style" not in page, "an inline style on Login")
        csrf_cookie = re.search(r"sonde_csrf=([^;]+)", headers.get("Set-Cookie", ""))
        token = re.search(r'name="_csrf" value="([^"]+)"', page)
        check(csrf_cookie and token, "no CSRF cookie or field on Login")
        if csrf_cookie and token:
            cookies = [{"name": "sonde_csrf", "value": csrf_cookie.group(1)}]
            status, headers, _ = app.request(
                "POST", "/login", cookies, {"email": "test@gmail.com", "password": PASSWORD})
            check(status == 403, f"a login without its CSRF token answered {status}")
            status, headers, _ = app.request(
                "POST", "/login", cookies, {"email": "test@gmail.com", "password": PASSWORD, "_csrf": token.group(1)})
            cookie = headers.get("Set-Cookie", "")
            check(status == 303 and headers.get("Location") == "/", f"form login answered {status}")
            check("sonde_session=" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie,
                  f"session cookie flags: {cookie!r}")

        # Forgot password: back to Login with a notice; the outbox message's link opens Reset password.
        driver.delete_all_cookies()
        driver.get(app.url + "/login")
        control(driver, "Forgot password?").click()
        wait_for(lambda: path_of(driver) == "/forgot-password")
        fill(driver, Email="test@gmail.com")
        control(driver, "Restore password").click()
        check(wait_for(lambda: path_of(driver) == "/login"), f"Restore password ended on {driver.current_url}")
        notice = visible(driver.find_elements(By.CSS_SELECTOR, ".notice"))
        check(notice and "reset link" in notice[0].text, "no notice after Restore password")
        outbox = os.path.join(app.home, "outbox")
        messages = [name for name in sorted(os.listdir(outbox)) if name.startswith("reset-")] if os.path.isdir(outbox) else []
        check(messages, "no reset message in the outbox")
        if messages:
            text = open(os.path.join(outbox, messages[-1])).read()
            token = re.search(r"Token: (\S+)", text).group(1)
            link = re.search(r"^    (http\S+)$", text, re.MULTILINE)
            check(link and link.group(1) == app.url.rstrip("/") + "/reset-password?token=" + token,
                  f"the reset message's link: {link and link.group(1)!r}")
            driver.get(link.group(1) if link else app.url + "/reset-password?token=" + token)
            fill(driver, **{"New password": "a-new-password-2"})
            control(driver, "Set new password").click()
            check(wait_for(lambda: path_of(driver) == "/login"), f"reset ended on {driver.current_url}")
            check(log_in(driver, app, "test@gmail.com", "a-new-password-2"), "the new password does not log in")
            driver.find_element(By.CSS_SELECTOR, "[aria-label=Settings]").click()
            wait_for(lambda: opened(driver))
            control(driver, "Logout").click()
            wait_for(lambda: path_of(driver) == "/login")
            check(not log_in(driver, app, "test@gmail.com", PASSWORD, timeout=2), "the old password still logs in")
        check(browser.console_errors() == [], f"console errors (login stories): {browser.console_errors()}")


def opened(driver):
    """The settings dialog is open and its fade-in has finished."""
    return driver.execute_script(
        "const d = document.getElementById('settings');"
        "return d.open && getComputedStyle(d).opacity === '1'")


def downloads_to(driver, directory):
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": directory})


def downloaded(directory, name, timeout=15):
    path = os.path.join(directory, name)
    found = wait_for(lambda: os.path.exists(path) and not any(n.endswith(".crdownload") for n in os.listdir(directory)),
                     timeout)
    return open(path, "rb").read() if found else None


def whole_flow(app, check):
    """Register, pair, measure, busy for another user, save, list, detail, exports, settings, logout."""
    downloads = tempfile.mkdtemp(prefix="sonde-app-downloads-")
    alice_browser = Browser(1280, 900)
    bob_browser = Browser(1280, 900)
    try:
        alice = alice_browser.driver
        bob = bob_browser.driver
        downloads_to(alice, downloads)
        check(register(alice, app, "alice@example.com"), f"Register did not reach Main: {alice.current_url}")
        check(heading(alice) == "Welcome, alice@example.com!", f"welcome {heading(alice)!r}")
        check(alice.find_element(By.ID, "device-status").text == "Device not connected", "not 'Device not connected'")
        check(alice.find_element(By.ID, "no-measurements").is_displayed(), "no empty state in the list")
        check(register(bob, app, "bob@example.com"), "Bob's Register did not reach Main")
        # A known address is told (docs/accounts.md): no session, the alert, 409 without script.
        status, headers, page = app.request("GET", "/register")
        cookie = re.search(r"sonde_csrf=([^;]+)", headers.get("Set-Cookie", ""))
        token = re.search(r'name="_csrf" value="([^"]+)"', page.decode())
        status, headers, page = app.request(
            "POST", "/register", [{"name": "sonde_csrf", "value": cookie.group(1)}],
            {"email": "alice@example.com", "password": "another-password", "_csrf": token.group(1)})
        check(status == 409 and "An account already exists for this email" in page.decode()
              and "sonde_session=" not in headers.get("Set-Cookie", ""), f"a known address registered: {status}")

        control(alice, "Pair with device").click()
        check(wait_for(lambda: alice.find_element(By.ID, "device-status").text == "Device connected"),
              "pairing did not end in Device connected")
        control(alice, "Start new measurement").click()
        check(wait_for(lambda: path_of(alice) == "/measurements/new"), f"start ended on {alice.current_url}")
        check(heading(alice) == "New measurement", f"heading {heading(alice)!r}")

        def cells():
            return [cell.text for cell in alice.find_elements(By.CSS_SELECTOR, "td.number")]
        check(wait_for(lambda: any(text not in ("", "–") for text in cells())), "the live values never filled")
        first = cells()
        time.sleep(1.5)
        second = cells()
        check(sum(a != b for a, b in zip(first, second)) > 0, "the live values did not change")
        elapsed = alice.find_element(By.ID, "elapsed").text
        check(re.fullmatch(r"\d+:\d\d", elapsed) and elapsed != "0:00", f"elapsed time {elapsed!r}")
        trends = alice.find_elements(By.CSS_SELECTOR, "img[data-trend]")
        check(trends and all(alice.execute_script("return arguments[0].naturalWidth", t) > 0 for t in trends),
              "a trend image did not load")

        # Bob sees the device busy and who measures; his start is refused with 409.
        bob.get(app.url + "/")
        status_text = bob.find_element(By.ID, "device-status").text
        check(status_text == "Device busy", f"Bob's Main says {status_text!r}")
        check("alice@example.com" in bob.find_element(By.ID, "content").text, "Bob's Main does not say who measures")
        bob_token = bob.find_element(By.CSS_SELECTOR, "input[name=_csrf]").get_attribute("value")
        status, _, _ = app.request("POST", "/measurements/new", bob.get_cookies(), {"_csrf": bob_token})
        check(status == 409, f"a second start answered {status}, expected 409")
        # Alice's second tab shows the same capture.
        tab_status, _, tab_body = app.request("GET", "/measurements/new", alice.get_cookies())
        check(tab_status == 200 and b"New measurement" in tab_body, f"Alice's second tab: {tab_status}")

        fill(alice, Comment="pump 3 after the bearing change")
        control(alice, "Save measurement").click()
        check(wait_for(lambda: path_of(alice) == "/"), f"saving ended on {alice.current_url}")
        items = alice.find_elements(By.CSS_SELECTOR, "#measurements li a")
        check(items and "pump 3 after the bearing change" in items[0].text, "the new measurement is not first")
        check(alice.find_element(By.ID, "device-status").text == "Device connected", "device not free after saving")

        # A second one, so the list and the zip hold several.
        control(alice, "Start new measurement").click()
        wait_for(lambda: path_of(alice) == "/measurements/new")
        time.sleep(1.2)
        fill(alice, Comment="second run")
        control(alice, "Save measurement").click()
        wait_for(lambda: path_of(alice) == "/")
        items = alice.find_elements(By.CSS_SELECTOR, "#measurements li a")
        check(len(items) == 2 and "second run" in items[0].text, "the list is not newest first")

        items[1].click()
        wait_for(lambda: path_of(alice).startswith("/measurements/"))
        measurement_id = path_of(alice).rsplit("/", 1)[1]
        check(alice.find_element(By.ID, "comment").text == "pump 3 after the bearing change", "the detail's comment")

        # The downloads equal the command line's bytes.
        login = app.cli("login", "--email", "alice@example.com", "--password-stdin", stdin=PASSWORD + "\n")
        check(login.returncode == 0, f"sonde login: {login.stderr.decode()}")
        for format_name, label in (("csv", "Export measurement (CSV)"), ("parquet", "Export measurement (Parquet)")):
            reference = os.path.join(downloads, "reference." + format_name)
            result = app.cli("measurements", "export", measurement_id, "-o", reference)
            check(result.returncode == 0, f"sonde measurements export: {result.stderr.decode()}")
            control(alice, label).click()
            got = downloaded(downloads, f"measurement-{measurement_id}.{format_name}")
            check(got is not None and got == open(reference, "rb").read(),
                  f"the {format_name} download differs from sonde measurements export")

        # Its report page: the one `sonde measurements report` writes, no console error.
        reference = os.path.join(downloads, "reference.html")
        result = app.cli("measurements", "report", measurement_id, "-o", reference)
        check(result.returncode == 0, f"sonde measurements report: {result.stderr.decode()}")
        # The app's page adds one line, the link back to the measurement (a file has none).
        status, headers, page = app.request("GET", f"/measurements/{measurement_id}/report", alice.get_cookies())
        back = (f'<nav class="back"><a href="/measurements/{measurement_id}">Back to measurement {measurement_id}'
                '</a></nav>\n').encode()
        check(status == 200 and back in page and page.replace(back, b"") == open(reference, "rb").read(),
              f"the report page differs from the CLI's but for the link back ({status})")
        control(alice, "Report page").click()
        check(wait_for(lambda: path_of(alice).endswith("/report")) and f"Measurement {measurement_id}" in alice.title
              + alice.find_element(By.TAG_NAME, "body").text, "the report page did not open")
        check(alice.execute_script("return document.querySelectorAll('svg').length") > 0, "the report draws no figure")
        control(alice, f"Back to measurement {measurement_id}").click()
        check(wait_for(lambda: path_of(alice) == f"/measurements/{measurement_id}"),
              f"the report's link back ended on {alice.current_url}")

        # Another user never sees, exports or deletes it.
        for path in (f"/measurements/{measurement_id}", f"/measurements/{measurement_id}/export.csv",
                     f"/measurements/{measurement_id}/export.parquet", f"/measurements/{measurement_id}/report"):
            status, _, body = app.request("GET", path, bob.get_cookies())
            check(status == 404 and b"comment" not in body and b"bearing" not in body, f"Bob's GET {path}: {status}")
        bob.get(app.url + "/")
        bob_token = bob.find_element(By.CSS_SELECTOR, "input[name=_csrf]").get_attribute("value")
        status, _, _ = app.request("POST", f"/measurements/{measurement_id}/delete", bob.get_cookies(),
                                   {"_csrf": bob_token})
        check(status == 404, f"Bob's delete answered {status}")
        check("bearing" not in bob.find_element(By.ID, "content").text, "Bob's list shows Alice's measurement")
        status, _, _ = app.request("GET", f"/measurements/{measurement_id}", alice.get_cookies())
        check(status == 200, "Alice's measurement is gone after Bob's delete")

        # The settings popup: opens modal, Escape closes it, the focus stays inside and comes back.
        alice.get(app.url + "/")
        settings = control(alice, "Settings")
        settings.click()
        dialog = alice.find_element(By.ID, "settings")
        check(wait_for(lambda: alice.execute_script("return arguments[0].open && arguments[0].matches(':modal')",
                                                    dialog)), "the settings popup is not a modal dialog")
        opacities = [alice.execute_script("return getComputedStyle(arguments[0]).opacity", dialog)]
        check(wait_for(lambda: opened(alice)), "the settings popup never became fully visible")
        opacities.append(alice.execute_script("return getComputedStyle(arguments[0]).opacity", dialog))
        check(float(opacities[0]) < 1.0 and float(opacities[1]) == 1.0, f"the popup did not fade in: {opacities}")
        backdrop = alice.execute_script("return getComputedStyle(arguments[0], '::backdrop').backgroundColor", dialog)
        check(backdrop not in ("", "rgba(0, 0, 0, 0)", "transparent"), f"no dimmed backdrop: {backdrop}")
        blocked = alice.execute_script(
            "const r = document.querySelector('h1').getBoundingClientRect();"
            "return document.elementFromPoint(r.left + 2, r.top + 2) === document.querySelector('h1')")
        check(not blocked, "what is behind the popup can still be clicked")
        check("alice@example.com" in dialog.text, "the popup does not show the email")
        inside = []
        for _ in range(6):
            ActionChains(alice).send_keys(Keys.TAB).perform()
            inside.append(alice.execute_script("return !!document.activeElement.closest('dialog')"))
        check(all(inside), f"the focus left the open popup: {inside}")
        ActionChains(alice).send_keys(Keys.ESCAPE).perform()
        check(wait_for(lambda: not alice.execute_script("return arguments[0].open", dialog), 3), "Escape did not close it")
        check(alice.execute_script("return document.activeElement.getAttribute('aria-label')") == "Settings",
              "the focus did not come back to Settings")

        settings.click()
        wait_for(lambda: opened(alice))
        control(alice, "Export").click()
        archive = downloaded(downloads, "sonde-measurements.zip")
        check(archive is not None, "no zip from Export")
        if archive is not None:
            with zipfile.ZipFile(os.path.join(downloads, "sonde-measurements.zip")) as zipped:
                names = sorted(zipped.namelist())
                index = json.loads(zipped.read("measurements/measurements.json"))
                csv = zipped.read(f"measurements/measurement-{measurement_id}.csv")
            ids = sorted(str(entry["id"]) for entry in (index if isinstance(index, list) else index["measurements"]))
            check(len(names) == 3 and len(ids) == 2, f"zip entries {names}, index ids {ids}")
            check(csv == open(os.path.join(downloads, "reference.csv"), "rb").read(), "the zip's CSV differs")

        control(alice, "Logout").click()
        check(wait_for(lambda: path_of(alice) == "/login"), f"Logout ended on {alice.current_url}")
        for path in ("/", f"/measurements/{measurement_id}", f"/measurements/{measurement_id}/export.csv",
                     f"/measurements/{measurement_id}/report",
                     "/measurements/export.zip", "/measurements/new", "/measurements/new/values"):
            alice.get(app.url + path)
            check(path_of(alice) == "/login" and heading(alice) == "Log in", f"{path} after Logout: {alice.current_url}")
        check(alice_browser.console_errors() == [], f"console errors (Alice): {alice_browser.console_errors()}")
        check(bob_browser.console_errors() == [], f"console errors (Bob): {bob_browser.console_errors()}")
    finally:
        alice_browser.quit()
        bob_browser.quit()
        shutil.rmtree(downloads, ignore_errors=True)


def windows(app, cookies, path):
    """The number a page shows in its element `id` (the Windows of a draft or measurement)."""
    status, _, page = app.request("GET", path, cookies)
    match = re.search(rb'<dd id="draft-frames">(\d+)</dd>|<dt>Windows</dt><dd>(\d+)</dd>', page)
    return int(next(g for g in match.groups() if g)) if status == 200 and match else None


def never_loses_a_measurement(app, check, freeze_seconds, offline_seconds):
    """Issue 44: a capture survives a frozen tab and a lost network, Stop frees the device
    (a waiting user sees it without reloading), the unsaved measurement survives a restart
    and saves exactly what was recorded; Discard and Delete ask first."""
    ivan_browser = Browser(1280, 900)
    judy_browser = Browser(1280, 900)
    try:
        ivan = ivan_browser.driver
        judy = judy_browser.driver
        check(register(ivan, app, "ivan@example.com"), "Ivan's Register did not reach Main")
        check(register(judy, app, "judy@example.com"), "Judy's Register did not reach Main")
        ivan.get(app.url + "/")
        if visible(ivan.find_elements(By.XPATH, "//button[normalize-space()='Pair with device']")):
            control(ivan, "Pair with device").click()
            wait_for(lambda: ivan.find_element(By.ID, "device-status").text == "Device connected")
        control(ivan, "Start new measurement").click()
        check(wait_for(lambda: path_of(ivan) == "/measurements/new"), f"start ended on {ivan.current_url}")
        started = time.monotonic()
        judy.get(app.url + "/")
        check(wait_for(lambda: judy.find_element(By.ID, "device-status").text == "Device busy"),
              "Judy's Main does not say Device busy")

        # A phone puts the tab to sleep (Chromium's frozen state), then the network goes.
        ivan.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "frozen"})
        time.sleep(freeze_seconds)
        ivan.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "active"})
        status, _, body = app.request("GET", "/measurements/new", ivan.get_cookies())
        check(status == 200 and b"New measurement" in body,
              f"after a {freeze_seconds} s frozen tab the capture is gone ({status})")
        ivan.execute_cdp_cmd("Network.enable", {})
        ivan.execute_cdp_cmd("Network.emulateNetworkConditions",
                              {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        time.sleep(offline_seconds)
        ivan.execute_cdp_cmd("Network.emulateNetworkConditions",
                              {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        status, _, body = app.request("GET", "/measurements/new", ivan.get_cookies())
        check(status == 200 and b"New measurement" in body,
              f"after {offline_seconds} s without network the capture is gone ({status})")
        ivan.get(app.url + "/measurements/new")
        check(wait_for(lambda: int(ivan.find_element(By.ID, "frames").text) > 0), "the page shows no windows")

        # Stop: the recording ends, the page goes to the unsaved measurement, the device frees.
        control(ivan, "Stop").click()
        recorded = time.monotonic() - started
        check(wait_for(lambda: path_of(ivan).startswith("/drafts/")), f"Stop ended on {ivan.current_url}")
        draft_path = path_of(ivan)
        frames = windows(app, ivan.get_cookies(), draft_path)
        # 25.6 kHz, hop 512: 50 windows a second; nothing missing while the tab slept.
        check(frames is not None and frames >= 0.9 * 50 * (recorded - 2),
              f"{frames} windows for {recorded:.0f} s of recording")
        check(wait_for(lambda: judy.find_element(By.ID, "device-status").text == "Device connected", 5),
              "Judy's Main did not see the device free without reloading")
        ivan.get(app.url + "/")
        drafts = ivan.find_elements(By.CSS_SELECTOR, "#drafts li a")
        check(len(drafts) == 1 and "Unsaved measurement from" in drafts[0].text, "Main does not list the draft")

        # Judy takes the free device; the server restarts (SIGTERM) while she records: her
        # capture is kept as a draft, and Ivan's draft is still there, saving exactly its windows.
        judy_token = judy.find_element(By.CSS_SELECTOR, "#settings input[name=_csrf]").get_attribute("value")
        status, _, _ = app.request("POST", "/measurements/new", judy.get_cookies(), {"_csrf": judy_token})
        check(status == 303, f"Judy's start answered {status}")
        time.sleep(1.5)
        ivan.get("about:blank")
        judy.get("about:blank")
        app.restart()
        judy.get(app.url + "/")
        judy_drafts = judy.find_elements(By.CSS_SELECTOR, "#drafts li a")
        check(len(judy_drafts) == 1 and "the server stopped" in judy_drafts[0].text,
              "the capture recording at the restart was not kept")
        ivan.get(app.url + "/")
        drafts = ivan.find_elements(By.CSS_SELECTOR, "#drafts li a")
        check(len(drafts) == 1, "the draft did not survive a restart")
        if drafts:
            drafts[0].click()
            wait_for(lambda: path_of(ivan) == draft_path)
            fill(ivan, Comment="kept across a restart")
            control(ivan, "Save measurement").click()
            check(wait_for(lambda: path_of(ivan) == "/"), f"saving the draft ended on {ivan.current_url}")
            items = ivan.find_elements(By.CSS_SELECTOR, "#measurements li a")
            check(items and "kept across a restart" in items[0].text, "the saved draft is not first")
            check(not ivan.find_elements(By.CSS_SELECTOR, "#drafts"), "the draft is still listed after Save")
            saved = items[0].get_attribute("href").rsplit("/", 1)[1] if items else "0"
            got = windows(app, ivan.get_cookies(), f"/measurements/{saved}")
            check(got == frames, f"saved {got} windows, the draft held {frames}")

        # Discard asks first: Cancel keeps recording, the dialog's Discard discards.
        control(ivan, "Start new measurement").click()
        wait_for(lambda: path_of(ivan) == "/measurements/new")
        control(ivan, "Discard").click()
        dialog = ivan.find_element(By.ID, "confirm-discard")
        check(wait_for(lambda: ivan.execute_script("return arguments[0].open && arguments[0].matches(':modal')",
                                                    dialog)), "Discard did not ask first")
        ActionChains(ivan).send_keys(Keys.ESCAPE).perform()
        check(wait_for(lambda: not ivan.execute_script("return arguments[0].open", dialog), 3),
              "Escape did not close the question")
        check(path_of(ivan) == "/measurements/new", "Discard acted without asking")
        control(ivan, "Discard").click()
        wait_for(lambda: ivan.execute_script("return arguments[0].open", dialog))
        dialog.find_element(By.XPATH, ".//button[normalize-space()='Discard']").click()
        check(wait_for(lambda: path_of(ivan) == "/"), f"the confirmed Discard ended on {ivan.current_url}")
        check("The measurement was discarded." in ivan.find_element(By.ID, "content").text, "no discard notice")

        # Delete asks first too.
        ivan.find_elements(By.CSS_SELECTOR, "#measurements li a")[0].click()
        wait_for(lambda: re.fullmatch(r"/measurements/\d+", path_of(ivan)))
        measurement_path = path_of(ivan)
        control(ivan, "Delete measurement").click()
        dialog = ivan.find_element(By.ID, "confirm-delete")
        check(wait_for(lambda: ivan.execute_script("return arguments[0].open", dialog)), "Delete did not ask")
        dialog.find_element(By.XPATH, ".//button[normalize-space()='Cancel']").click()
        status, _, _ = app.request("GET", measurement_path, ivan.get_cookies())
        check(status == 200, "Cancel deleted the measurement")
        control(ivan, "Delete measurement").click()
        wait_for(lambda: ivan.execute_script("return arguments[0].open", dialog))
        dialog.find_element(By.XPATH, ".//button[normalize-space()='Delete']").click()
        check(wait_for(lambda: path_of(ivan) == "/"), "the confirmed Delete did not go to Main")
        status, _, _ = app.request("GET", measurement_path, ivan.get_cookies())
        check(status == 404, f"the confirmed Delete left the measurement ({status})")

        # The server refuses what the page's maxlength and a person would not send.
        token = ivan.find_element(By.CSS_SELECTOR, "#settings input[name=_csrf]").get_attribute("value")
        control(ivan, "Start new measurement").click()
        wait_for(lambda: path_of(ivan) == "/measurements/new")
        for comment, why in (("a\x00b", "control character"), ("x" * 2001, "longer than"),
                             ("\u202eevil", "text-direction")):
            status, _, body = app.request("POST", "/measurements/new/save", ivan.get_cookies(),
                                          {"_csrf": token, "comment": comment})
            check(status == 400 and why in body.decode(), f"comment {comment[:8]!r}: {status}")
        # Logout ends the recording: it waits as a draft and the device is free.
        # (By request: after the frozen state Chromium runs no transitions in this tab, so
        # the popup never fades in; the whole flow clicks Logout in the popup.)
        ivan.get(app.url + "/")
        token = ivan.find_element(By.CSS_SELECTOR, "#settings input[name=_csrf]").get_attribute("value")
        status, headers, _ = app.request("POST", "/logout", ivan.get_cookies(), {"_csrf": token})
        check(status == 303 and headers.get("Location", "").startswith("/login"), f"logout answered {status}")
        ivan.delete_all_cookies()
        judy.get(app.url + "/")
        check(judy.find_element(By.ID, "device-status").text == "Device connected", "logout did not free the device")
        log_in(ivan, app, "ivan@example.com")
        check(len(ivan.find_elements(By.CSS_SELECTOR, "#drafts li a")) >= 1, "logout lost the recording")
    finally:
        ivan_browser.quit()
        judy_browser.quit()


def command_device(app, check, screenshots):
    """Issue 46: a command device paired from the command line is measured and saved in the
    app, and the export's values are those `sonde process` gives for the same samples; one
    that fails mid-capture shows on Main as disconnected (axe-clean, its long command line
    wrapped inside the card at phone width; screenshot `main-disconnected-phone.png`)."""
    folder = tempfile.mkdtemp(prefix="sonde-app-command-")
    browser = Browser(1280, 900)
    try:
        samples = os.path.join(folder, "probe.f32")
        frames = 3 * 8000
        with open(samples, "wb") as out:
            out.write(struct.pack(f"<{frames}f", *(
                math.sin(2 * math.pi * 100 * n / 8000) + 0.1 * math.sin(2 * math.pi * 1234 * n / 8000)
                for n in range(frames))))
        app.cli("device", "unpair")
        # `cat` writes the 3 s at once; the sleep keeps the capture open while the page is
        # checked (without it, on a loaded machine the capture ended, and the page went on to
        # its draft, before the test saw New measurement).
        paired = app.cli("device", "pair", "--command", f"cat '{samples}'; sleep 2", "--rate", "8000",
                         "--channels", "1", "--sample-type", "f32le")
        check(paired.returncode == 0, f"pairing the command device: {paired.stderr.decode()}")
        driver = browser.driver
        check(register(driver, app, "kim@example.com"), "Kim's Register did not reach Main")
        card = driver.find_element(By.ID, "device").text if driver.find_elements(By.ID, "device") else \
            driver.find_element(By.TAG_NAME, "body").text
        check("command `cat" in card and "1 channel at 8 kHz" in card, f"Main does not name the command device: {card!r}")
        control(driver, "Start new measurement").click()
        check(wait_for(lambda: path_of(driver) == "/measurements/new"), f"start ended on {driver.current_url}")
        # The command writes 3 s and exits: the capture ends by itself and waits as a draft.
        def draft_listed():
            driver.get(app.url + "/")
            return driver.find_elements(By.CSS_SELECTOR, "#drafts li a")
        drafts = wait_for(draft_listed, timeout=20, interval=1)
        check(bool(drafts), "the ended capture is not listed as an unsaved measurement")
        if not drafts:
            return
        drafts[0].click()
        wait_for(lambda: path_of(driver).startswith("/drafts/"))
        fill(driver, Comment="the probe's 3 s")
        control(driver, "Save measurement").click()
        check(wait_for(lambda: path_of(driver) == "/"), f"saving ended on {driver.current_url}")
        link = driver.find_element(By.CSS_SELECTOR, "#measurements li a").get_attribute("href")
        status, _, body = app.request("GET", urllib.parse.urlparse(link).path + "/export.csv", driver.get_cookies())
        check(status == 200, f"the export answered {status}")
        exported = list(csv.DictReader(io.StringIO(body.decode())))
        processed = app.cli("process", samples, "--rate", "8000", "--channels", "1", "--sample-type", "f32le",
                            "--format", "csv")
        expected = list(csv.DictReader(io.StringIO(processed.stdout.decode())))
        check(len(exported) == len(expected) == 45, f"{len(exported)} windows saved, process gives {len(expected)}")
        names = [name for name in (exported[0] if exported else {}) if expected and name in expected[0]
                 and name not in ("time", "start", "file", "channel", "frame")]
        check("rms" in names and "kurtosis" in names, f"compared columns {names}")
        for name in names:
            check([row[name] for row in exported] == [row[name] for row in expected],
                  f"the saved {name} differs from process's")
        unplugged(app, check, browser, samples, screenshots)
        check(browser.console_errors() == [], f"console errors (command device): {browser.console_errors()}")
    finally:
        browser.quit()
        app.cli("device", "unpair")
        shutil.rmtree(folder, ignore_errors=True)


def unplugged(app, check, browser, samples, screenshots):
    """A command that writes 1 s of samples, complains and exits 3 (the probe came loose):
    after a measurement on it, Main says the device is disconnected, why and when. Its
    command line is long, with a long unbroken word: at phone width it wraps in the card."""
    driver = browser.driver
    serial = "--probe-serial=" + "A7F3C9E1" * 8
    # It writes 1 s at once, then fails a second later, about when the New measurement
    # page asks for its trend images again: those of an ended capture are blank, never a 404
    # the console logs (the story fails on console errors).
    failing = f"head -c 32000 '{samples}'; sleep 1; : {serial}; echo the probe came loose >&2; exit 3"
    app.cli("device", "unpair")
    paired = app.cli("device", "pair", "--command", failing, "--rate", "8000", "--channels", "1",
                     "--sample-type", "f32le")
    check(paired.returncode == 0, f"pairing the failing command device: {paired.stderr.decode()}")
    driver.get(app.url + "/")
    control(driver, "Start new measurement").click()
    # The device fails 1 s after the start: on a loaded machine the capture can end before
    # the New measurement page shows, and the page then goes on to its unsaved measurement
    # (seen once in `make test`, the story taking 22.6 s). Either is this story's start.
    check(wait_for(lambda: path_of(driver) == "/measurements/new" or path_of(driver).startswith("/drafts/")),
          f"unplugged: start ended on {driver.current_url}")

    def disconnected():
        """The visible lines of Main that say so, by their text."""
        driver.get(app.url + "/")
        status = visible(driver.find_elements(By.XPATH, "//*[normalize-space()='Device disconnected']"))
        why = visible(driver.find_elements(By.XPATH, "//p[starts-with(normalize-space(), 'Disconnected: ')]"))
        return status and why and why[0].text
    why = wait_for(disconnected, timeout=20, interval=0.5)
    check(bool(why), "Main does not show the failed command device as disconnected")
    if not why:
        return
    check("status 3" in why and "the probe came loose" in why and re.search(r", at \d{4}-\d\d-\d\d \d\d:", why),
          f"Main's disconnected line lacks the error or its time: {why!r}")
    card = driver.find_element(By.ID, "device-card").text
    check("command `head -c 32000" in card, f"Main does not name the failed device: {card!r}")
    check(bool(visible(driver.find_elements(
        By.XPATH, "//*[self::button][normalize-space()='Start new measurement']"))),
        "a disconnected device offers no new measurement (it may be plugged back in)")
    axe = Axe(driver)
    for size, (width, height) in SIZES.items():
        driver.set_window_size(width, height)
        driver.get(app.url + "/")
        wait_for(disconnected)
        axe.inject()
        violations = axe.run()["violations"]
        check(not violations, f"axe on main-disconnected at {size}: " + "; ".join(
            f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in violations))
        # Nothing in the card is wider than the card: the command line wraps.
        overflow = driver.execute_script("""
            const card = document.getElementById('device-card');
            const box = card.getBoundingClientRect();
            const wide = [...card.querySelectorAll('*')].filter(e => {
              const r = e.getBoundingClientRect();
              return r.right > box.right + 0.5 || e.scrollWidth > e.clientWidth + 0.5;
            }).map(e => e.tagName + '#' + e.id + ' ' + e.textContent.slice(0, 40));
            const outside = [...document.body.querySelectorAll('*')].filter(
              e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5
            ).map(e => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40));
            return {wide: wide, page: document.documentElement.scrollWidth > window.innerWidth,
                    outside: outside.slice(0, 5)};""")
        check(not overflow["wide"] and not overflow["page"],
              f"main-disconnected at {size} overflows: {overflow}")
        if size == "phone":
            os.makedirs(screenshots, exist_ok=True)
            path = os.path.join(screenshots, "main-disconnected-phone.png")
            driver.execute_script("document.getElementById('device-title').scrollIntoView()")
            time.sleep(0.1)
            driver.save_screenshot(path)
            small_png(path)
    driver.set_window_size(1280, 900)
    check(browser.console_errors() == [], f"console errors (unplugged device): {browser.console_errors()}")


def examined(driver, check, screenshots, name, prepare, anchor=None, counted=None):
    """axe at the three sizes, nothing wider than the window, and screenshots at phone and
    desktop size (`NAME-phone.png`, `NAME-desktop.png`); `prepare` brings the screen up
    at each size, `anchor` (an element's id) is scrolled into view for the picture."""
    axe = Axe(driver)
    os.makedirs(screenshots, exist_ok=True)
    for size, (width, height) in SIZES.items():
        driver.set_window_size(width, height)
        prepare()
        time.sleep(0.3)  # a dialog's fade-in settles
        axe.inject()
        violations = axe.run()["violations"]
        if counted is not None:
            counted.append((name, size, len(violations)))
        check(not violations, f"axe on {name} at {size}: " + "; ".join(
            f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in violations))
        overflow = overflow_of(driver)
        check(not overflow["page"] and not overflow["outside"], f"{name} at {size} overflows: {overflow}")
        if size in ("phone", "desktop"):
            path = os.path.join(screenshots, f"{name}-{size}.png")
            if anchor:
                driver.execute_script(f"document.getElementById('{anchor}').scrollIntoView({{block: 'center'}})")
            else:
                driver.execute_script("window.scrollTo(0, 0)")
            time.sleep(0.1)
            driver.save_screenshot(path)
            small_png(path)
    driver.set_window_size(1280, 900)


def keyboard_opens(driver, button, dialog_id):
    """Focuses the button that opens `dialog_id` and presses Enter: the dialog is open,
    modal, faded in, with the focus inside it."""
    driver.execute_script("arguments[0].focus()", button)
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    return wait_for(lambda: driver.execute_script(
        "const d = document.getElementById(arguments[0]);"
        "return d.open && d.matches(':modal') && getComputedStyle(d).opacity === '1'"
        " && d.contains(document.activeElement)", dialog_id), 5)


def start_recording(driver, check):
    """Main's Start new measurement, pairing the simulated device first where nobody has:
    the page it ends on must be the recording's."""
    if visible(driver.find_elements(By.XPATH, "//button[normalize-space()='Pair with device']")):
        control(driver, "Pair with device").click()
        wait_for(lambda: driver.find_element(By.ID, "device-status").text == "Device connected")
    control(driver, "Start new measurement").click()
    check(wait_for(lambda: path_of(driver) == "/measurements/new"), f"start ended on {driver.current_url}")


def live_plots(app, check, screenshots):
    """New measurement's live waveform and spectrum (issue 44): drawn from the capture's
    Server-Sent Events and redrawn as they come, the spectrum's strongest component at the
    simulated pump's 49.5 Hz tone (to its 25 Hz bin), axes with units, a text alternative,
    axe clean and nothing wider than the window at each size, pictures at phone and desktop
    size (`new-measurement-plots-*.png`, scrolled to the plots)."""
    with Browser(1280, 900) as browser:
        driver = browser.driver
        register(driver, app, "plots@example.com")
        start_recording(driver, check)

        def curve(plot_id):
            # Read in the page: the plot is redrawn five times a second, so an element found
            # here would be gone by the time its attribute is asked for.
            return driver.execute_script(
                "const l = document.querySelector(`#${arguments[0]} polyline`);"
                " return l ? l.getAttribute('points') : ''", plot_id)

        def described(plot_id):
            return driver.find_element(By.ID, f"{plot_id}-text").text

        for plot_id in ("wave-0", "spectrum-0"):
            check(wait_for(lambda: len(curve(plot_id).split()) > 100), f"{plot_id} was never drawn")
        first = (curve("wave-0"), curve("spectrum-0"))
        check(wait_for(lambda: curve("wave-0") != first[0] and curve("spectrum-0") != first[1], timeout=5),
              "the waveform and spectrum did not update")
        texts = driver.execute_script(
            "return [...document.querySelectorAll('#wave-0 text, #spectrum-0 text')].map(t => t.textContent)")
        check("Time (s)" in texts and "Frequency (Hz)" in texts and "Power (dB)" in texts
              and "Amplitude" in texts, f"the plots' axis titles: {texts}")
        wave = described("wave-0")
        check(re.fullmatch(r"The last 80 ms of accel_x: between -?[\d.]+ and -?[\d.]+\.", wave),
              f"the waveform's text alternative reads {wave!r}")
        spectrum = described("spectrum-0")
        strongest = re.fullmatch(r"Strongest component of accel_x: ([\d.]+) Hz, -?[\d.]+ dB\.", spectrum)
        check(strongest and abs(float(strongest.group(1)) - 49.5) <= 25,
              f"the spectrum's strongest component reads {spectrum!r} (the pump's tone: 49.5 Hz)")
        # The policy holds: no inline style or script came with the plots.
        check(not driver.find_elements(By.CSS_SELECTOR, "#signal [style], #signal script"), "inline style in the plots")

        def plots():
            check(wait_for(lambda: len(curve("spectrum-0").split()) > 100), "the spectrum is not drawn at this size")
        examined(driver, check, screenshots, "new-measurement-plots", plots, anchor="signal")
        check(browser.console_errors() == [], f"console errors (live plots): {browser.console_errors()}")
        driver.get(app.url + "/measurements/new")
        fill(driver, Comment="plots")
        control(driver, "Save measurement").click()
        check(wait_for(lambda: path_of(driver) == "/"), f"Save ended on {driver.current_url}")


def drafts_and_dialogs(app, check, screenshots):
    """Issue 44's screens, by keyboard, with axe and pictures: the Stop card while
    recording; Discard's question (Enter opens it, Escape cancels and gives the focus back,
    Enter confirms); an unsaved measurement's page and Main's list of them; Delete's
    question, confirmed with Enter."""
    with Browser(1280, 900) as browser:
        driver = browser.driver
        check(register(driver, app, "nina@example.com"), "Nina's Register did not reach Main")
        start_recording(driver, check)
        wait_for(lambda: int(driver.find_element(By.ID, "frames").text) > 0)

        def recording():
            if path_of(driver) != "/measurements/new":
                driver.get(app.url + "/measurements/new")
            wait_for(lambda: int(driver.find_element(By.ID, "frames").text) > 0)
        examined(driver, check, screenshots, "new-measurement-stop", recording, anchor="stop-title")

        # Discard's question: Enter opens it, Escape cancels (the focus goes back to Discard).
        def discard_question():
            driver.get(app.url + "/measurements/new")  # the last size's question closed
            recording()
            check(keyboard_opens(driver, control(driver, "Discard"), "confirm-discard"),
                  "Enter on Discard did not open its question")
        examined(driver, check, screenshots, "confirm-discard", discard_question)
        opener = control(driver, "Discard")
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        check(wait_for(lambda: not driver.execute_script(
            "return document.getElementById('confirm-discard').open"), 3), "Escape did not close Discard's question")
        check(driver.execute_script("return document.activeElement === arguments[0]", opener),
              "the focus did not come back to Discard")
        check(path_of(driver) == "/measurements/new", "Escape discarded the recording")

        # Stop: the recording waits as an unsaved measurement, on its page and on Main.
        control(driver, "Stop").click()
        check(wait_for(lambda: path_of(driver).startswith("/drafts/")), f"Stop ended on {driver.current_url}")
        draft = path_of(driver)
        examined(driver, check, screenshots, "draft", lambda: driver.get(app.url + draft))
        check(driver.find_element(By.ID, "draft-reason").text == "stopped",
              f"the draft's reason reads {driver.find_element(By.ID, 'draft-reason').text!r}")

        def main_with_drafts():
            driver.get(app.url + "/")
            wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#drafts li a"))
        examined(driver, check, screenshots, "main-drafts", main_with_drafts, anchor="drafts-title")
        listed = driver.find_elements(By.CSS_SELECTOR, "#drafts li a")
        check(len(listed) == 1 and "Unsaved measurement from" in listed[0].text and "Save or Discard" in listed[0].text,
              f"Main's unsaved measurements: {[item.text for item in listed]}")

        # Enter on the question's first button, Discard, confirms.
        driver.get(app.url + draft)
        check(keyboard_opens(driver, control(driver, "Discard"), "confirm-discard"), "the draft's Discard did not ask")
        focused = driver.execute_script("return document.activeElement.textContent.trim()")
        check(focused == "Discard", f"the question opens with the focus on {focused!r}")
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        check(wait_for(lambda: path_of(driver) == "/"), f"Enter in Discard's question ended on {driver.current_url}")
        check("The measurement was discarded." in driver.find_element(By.ID, "content").text, "no discard notice")
        status, _, _ = app.request("GET", draft, driver.get_cookies())
        check(status == 404, f"the discarded draft still answers {status}")

        # Delete's question, the same way.
        control(driver, "Start new measurement").click()
        wait_for(lambda: path_of(driver) == "/measurements/new")
        wait_for(lambda: int(driver.find_element(By.ID, "frames").text) > 0)
        fill(driver, Comment="to be deleted")
        control(driver, "Save measurement").click()
        wait_for(lambda: path_of(driver) == "/")
        measurement = urllib.parse.urlparse(
            driver.find_element(By.CSS_SELECTOR, "#measurements li a").get_attribute("href")).path

        def delete_question():
            driver.get(app.url + measurement)
            check(keyboard_opens(driver, control(driver, "Delete measurement"), "confirm-delete"),
                  "Enter on Delete measurement did not open its question")
        examined(driver, check, screenshots, "confirm-delete", delete_question)
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        wait_for(lambda: not driver.execute_script("return document.getElementById('confirm-delete').open"), 3)
        status, _, _ = app.request("GET", measurement, driver.get_cookies())
        check(status == 200, f"Escape in Delete's question deleted the measurement ({status})")
        check(keyboard_opens(driver, control(driver, "Delete measurement"), "confirm-delete"), "Delete did not ask again")
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        check(wait_for(lambda: path_of(driver) == "/"), f"Enter in Delete's question ended on {driver.current_url}")
        status, _, _ = app.request("GET", measurement, driver.get_cookies())
        check(status == 404, f"the confirmed Delete left the measurement ({status})")
        check(browser.console_errors() == [], f"console errors (drafts and dialogs): {browser.console_errors()}")


def administrator_release(app, check):
    """Issue 44, item 4: while Olga records, Pete's Main says the device is busy; the
    administrator runs `sonde device release` on the server's machine: Pete's open Main
    shows the device free without a reload (Server-Sent Events), Olga's recording waits for
    her as an unsaved measurement "stopped by the administrator", and her page goes there."""
    with Browser(1280, 900) as first, Browser(1280, 900) as second:
        olga, pete = first.driver, second.driver
        check(register(olga, app, "olga@example.com"), "Olga's Register did not reach Main")
        check(register(pete, app, "pete@example.com"), "Pete's Register did not reach Main")
        olga.get(app.url + "/")
        start_recording(olga, check)
        pete.get(app.url + "/")
        check(wait_for(lambda: pete.find_element(By.ID, "device-status").text == "Device busy"),
              "Pete's Main does not say Device busy")
        time.sleep(1.5)
        pete.execute_script("window.__notReloaded = true")
        released = app.cli("device", "release")
        answer = released.stdout.decode()
        check(released.returncode == 0 and answer.startswith("Stopped the measurement of olga@example.com after ")
              and "The device is free." in answer, f"sonde device release: {answer!r} {released.stderr.decode()!r}")
        check(wait_for(lambda: pete.find_element(By.ID, "device-status").text == "Device connected", 5),
              "Pete's Main did not show the device free")
        check(pete.execute_script("return window.__notReloaded === true"), "Pete's Main reloaded to see it")
        check(wait_for(lambda: path_of(olga).startswith("/drafts/"), 5), f"Olga's page went to {olga.current_url}")
        reason = olga.find_element(By.ID, "draft-reason").text if path_of(olga).startswith("/drafts/") else ""
        check(reason == "stopped by the administrator", f"Olga's unsaved measurement says {reason!r}")
        olga.get(app.url + "/")
        listed = olga.find_elements(By.CSS_SELECTOR, "#drafts li a")
        check(listed and "ended: stopped by the administrator" in listed[0].text,
              f"Olga's Main lists {[item.text for item in listed]}")
        idle = app.cli("device", "release")
        check(idle.stdout.decode().strip() == "The device is free: no measurement was recording.",
              f"a second release: {idle.stdout.decode()!r}")


def draft_windows(app, cookies):
    """(path, windows, reason) of the newest unsaved measurement on Main, or None."""
    status, _, page = app.request("GET", "/", cookies)
    match = re.search(rb'<ul class="list" id="drafts">\s*<li><a href="(/drafts/[0-9a-f]+)"', page)
    if status != 200 or not match:
        return None
    path = match.group(1).decode()
    status, _, draft = app.request("GET", path, cookies)
    frames = re.search(rb'<dd id="draft-frames">(\d+)</dd>', draft)
    reason = re.search(rb'<dd id="draft-reason">([^<]*)</dd>', draft)
    return path, int(frames.group(1)), reason.group(1).decode()


def data_loss(app, check):
    """Issue 44, data loss. A server killed with SIGKILL mid-capture comes back with the
    capture as an unsaved measurement holding every window up to its journal's last write
    (once a second): at most 1.5 s of windows (75 at 50 a second) are lost, counting those
    still inside the pipeline and the page's 250 ms view. With the file-size limit lowered
    under the running server (`prlimit`, a full disk to it), it says so in its log, records
    on in memory, and once there is room again keeps every window. A client that drops in
    the middle of an export leaves no temporary file and no export slot held."""
    import resource
    with Browser(1280, 900) as browser:
        driver = browser.driver
        check(register(driver, app, "kate@example.com"), "Kate's Register did not reach Main")
        start_recording(driver, check)
        time.sleep(4)
        seen = int(driver.find_element(By.ID, "frames").text)
        cookies = driver.get_cookies()
        driver.get("about:blank")
        app.kill_and_restart()
        driver.get(app.url + "/")
        kept = draft_windows(app, cookies)
        check(kept is not None and kept[2].startswith("the server ended without stopping it"),
              f"the killed capture is not an unsaved measurement: {kept}")
        if kept:
            check(seen - 75 <= kept[1] and kept[1] > 0,
                  f"the killed capture kept {kept[1]} windows; the page showed {seen} before the kill")
            print(f"SIGKILL: the page showed {seen} windows, the draft kept {kept[1]}")
            app.request("POST", kept[0] + "/discard", driver.get_cookies(), {"_csrf": csrf_of(app, driver)})

        # A full disk under the running server: writes past the limit fail with EFBIG.
        driver.get(app.url + "/")
        control(driver, "Start new measurement").click()
        wait_for(lambda: path_of(driver) == "/measurements/new")
        time.sleep(2.5)
        journals = [os.path.join(app.home, "drafts", name) for name in os.listdir(os.path.join(app.home, "drafts"))
                    if name.endswith(".journal")]
        check(len(journals) == 1, f"a running capture has journals {journals}")
        soft, hard = resource.prlimit(app.process.pid, resource.RLIMIT_FSIZE)
        limit = os.path.getsize(journals[0]) + 4096 if journals else 1 << 20
        resource.prlimit(app.process.pid, resource.RLIMIT_FSIZE, (limit, hard))
        try:
            full = wait_for(lambda: any("File too large" in line and "records on in memory" in line
                                        for line in app.log), timeout=6, interval=0.2)
            check(full, f"the full disk is not in the server's log: {app.log[-3:]}")
            # Stop: the draft cannot be written; the answer says why, nothing is thrown away.
            recorded = int(driver.find_element(By.ID, "frames").text)
            status, _, answer = app.request("POST", "/measurements/new/stop", driver.get_cookies(),
                                            {"_csrf": csrf_of(app, driver)})
            check(status == 503 and b"could not be written to the server&#39;s disk" in answer.replace(b"'", b"&#39;"),
                  f"Stop on a full disk answered {status}: {answer[-400:]!r}")
            check(journals == [] or os.path.getsize(journals[0]) <= limit, "the journal grew past the limit")
            time.sleep(1)
            check(draft_windows(app, driver.get_cookies()) is None, "a draft was written past the limit")
        finally:
            resource.prlimit(app.process.pid, resource.RLIMIT_FSIZE, (soft, hard))
        kept = wait_for(lambda: draft_windows(app, driver.get_cookies()), timeout=10, interval=0.3)
        check(kept is not None and kept[1] >= recorded > 50 and kept[2] == "stopped",
              f"after the disk had room again: {kept}; the page showed {recorded} windows at Stop")
        if kept:
            print(f"full disk: the page showed {recorded} windows at Stop, the draft kept {kept[1]}")
            fill_and_save = app.request("POST", kept[0] + "/save", driver.get_cookies(),
                                        {"_csrf": csrf_of(app, driver), "comment": "export me"})
            check(fill_and_save[0] == 303, f"saving the draft answered {fill_and_save[0]}")

        # Clients that drop mid-export: nothing left in the server's temporary folder, and
        # every export slot free (a later export answers at once, whole).
        status, _, page = app.request("GET", "/", driver.get_cookies())
        measurement = re.search(rb'<ul class="list" id="measurements">\s*<li><a href="(/measurements/\d+)"', page)
        check(measurement is not None, "no saved measurement to export")
        if measurement:
            path = measurement.group(1).decode() + "/export.csv"
            cookie = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
            for index in range(8):
                connection = http.client.HTTPConnection("127.0.0.1", app.port, timeout=10)
                connection.request("GET", path if index % 3 else "/measurements/export.zip",
                                   headers={"Cookie": cookie})
                if index % 2:
                    response = connection.getresponse()
                    response.read(1000)
                connection.sock.close()
            time.sleep(1.5)
            left = os.listdir(app.tmp)
            check(left == [], f"dropped exports left {left} in the server's temporary folder")
            started = time.monotonic()
            status, _, body = app.request("GET", path, driver.get_cookies())
            took = time.monotonic() - started
            check(status == 200 and body.count(b"\n") > 200 and took < 5,
                  f"an export after the dropped ones: {status}, {len(body)} bytes in {took:.1f} s")


def csrf_of(app, driver):
    """The session's CSRF token, as Main's forms carry it."""
    _, _, page = app.request("GET", "/", driver.get_cookies())
    return re.search(rb'name="_csrf" value="([^"]+)"', page).group(1).decode()


def overflow_of(driver):
    """What sticks out of the window: the page's own horizontal scroll, and elements whose
    right edge passes the window's, but for those inside a region that scrolls by itself
    (a wide table in `.scroll`, which the keyboard can reach)."""
    return driver.execute_script("""
        const width = document.documentElement.clientWidth;
        const outside = [...document.body.querySelectorAll('*')].filter(e => !e.closest('.scroll')
            && e.getBoundingClientRect().right > width + 0.5)
          .map(e => e.tagName + ' ' + (e.textContent || '').trim().slice(0, 40));
        return {page: document.documentElement.scrollWidth > window.innerWidth, outside: outside.slice(0, 5)};""")


def reset_flood(app, check, screenshots):
    """Issue 44: a flood of reset requests writes 3 messages for an address (100 had been
    written in 0.17 s), then 429 with Retry-After."""
    result = app.cli("register", "--email", "flood@example.com", "--password-stdin", stdin=PASSWORD + "\n")
    check(result.returncode == 0, f"sonde register: {result.stderr.decode()}")
    status, headers, page = app.request("GET", "/forgot-password")
    cookie = re.search(r"sonde_csrf=([^;]+)", headers.get("Set-Cookie", ""))
    token = re.search(r'name="_csrf" value="([^"]+)"', page.decode())
    statuses = []
    for _ in range(20):
        status, headers, _ = app.request(
            "POST", "/forgot-password", [{"name": "sonde_csrf", "value": cookie.group(1)}],
            {"email": "flood@example.com", "_csrf": token.group(1)})
        statuses.append((status, headers.get("Retry-After")))
    check([s for s, _ in statuses[:3]] == [303] * 3 and all(s == 429 and r for s, r in statuses[3:]),
          f"reset flood answered {statuses}")
    outbox = os.path.join(app.home, "outbox")
    flood = [name for name in os.listdir(outbox) if "flood" in open(os.path.join(outbox, name)).read()]
    check(len(flood) == 3, f"{len(flood)} reset messages for one address")
    # In the browser the same client is told, in the page's alert, how long to wait.
    with Browser(1280, 900) as browser:
        driver = browser.driver

        def refused():
            driver.get(app.url + "/forgot-password")
            fill(driver, Email="flood@example.com")
            control(driver, "Restore password").click()
            wait_for(lambda: alert_of(driver))
        examined(driver, check, screenshots, "forgot-password-429", refused)
        alert = alert_of(driver)
        check(alert is not None and re.search(r"Too many reset requests; try again in \d+ (s|minutes)", alert[1] + alert[0]),
              f"the flooded Restore password shows {alert}")
        check(path_of(driver) == "/forgot-password", f"the refused request ended on {driver.current_url}")


def paging(app, check):
    """Main lists 50 measurements a page: 120 saved give three pages, Older and Newer
    walk them, each line shows its main values; axe finds nothing on a middle page."""
    fill = os.path.join(ROOT, "Benchmarks", "store", "fill_store.py")
    sqlite = os.path.join(app.home, "sonde.sqlite") if not app.database else os.path.join(app.home, "erin.sqlite")
    result = app.cli("register", "--email", "erin@example.com", "--password-stdin", "--database", "sqlite:" + sqlite,
                     stdin=PASSWORD + "\n")
    check(result.returncode == 0, f"sonde register: {result.stderr.decode()}")
    subprocess.run([sys.executable, fill, sqlite, "--email", "erin@example.com", "--count", "120", "--full", "0"],
                   check=True, capture_output=True)
    if app.database:
        # On PostgreSQL the account and its measurements arrive as a lab's would: copied.
        result = app.cli("store", "copy", "--from", "sqlite:" + sqlite, "--to", app.database)
        check(result.returncode == 0, f"sonde store copy: {result.stderr.decode()}")
        result = app.cli("login", "--email", "erin@example.com", "--password-stdin", stdin=PASSWORD + "\n")
        check(result.returncode == 0, f"sonde login: {result.stderr.decode()}")
    listed = app.cli("measurements", "list").stdout.decode().splitlines()[1:]
    with Browser(1280, 900) as browser:
        driver = browser.driver
        check(log_in(driver, app, "erin@example.com"), "erin cannot log in")

        def page_state():
            items = driver.find_elements(By.CSS_SELECTOR, "#measurements li a")
            count = visible(driver.find_elements(By.CSS_SELECTOR, ".pages .count"))
            return len(items), count[0].text if count else None, items

        for expected_count, expected_text in ((50, "Measurements 1–50 of 120"), (50, "Measurements 51–100 of 120"),
                                              (20, "Measurements 101–120 of 120")):
            count, text, items = page_state()
            check((count, text) == (expected_count, expected_text), f"page shows {count} items, {text!r}")
            first_id = int(re.search(r"/measurements/(\d+)", items[0].get_attribute("href")).group(1))
            start = int(expected_text.split()[1].split("–")[0])
            listed_id = int(listed[start - 1].split()[0])
            check(first_id == listed_id, f"page starts at measurement {first_id}, the CLI's list at {listed_id}")
            check(re.search(r"x: rms [-\d.e]+, peak [-\d.e]+, dominant frequency", items[0].text) is not None,
                  f"main values: {items[0].text!r}")
            if expected_count == 50 and "51–100" in expected_text:
                axe = Axe(driver)
                axe.inject()
                violations = axe.run()["violations"]
                check(not violations, f"axe on Main's page 2: {[v['id'] for v in violations]}")
            older = [link for link in driver.find_elements(By.LINK_TEXT, "Older") if link.is_displayed()]
            if count == 20:
                check(not older, "the last page links to an older one")
            else:
                older[0].click()
                wait_for(lambda: "page=" in driver.current_url)
        control(driver, "Newer").click()
        wait_for(lambda: driver.current_url.endswith("page=2"))
        check(page_state()[1] == "Measurements 51–100 of 120", f"Newer from page 3: {page_state()[1]!r}")
        driver.get(app.url + "/?page=99")
        check(page_state()[1] == "Measurements 101–120 of 120", f"page 99: {page_state()[1]!r}")


def keyboard_walk(app, check):
    """Log in, open and close Settings, measure and save, open the detail: keys only."""
    with Browser(1280, 900) as browser:
        driver = browser.driver
        result = app.cli("register", "--email", "dave@example.com", "--password-stdin", stdin=PASSWORD + "\n")
        check(result.returncode == 0, f"sonde register: {result.stderr.decode()}")
        driver.get(app.url + "/login")

        def tab_to(predicate, limit=40, backwards=False):
            for _ in range(limit):
                keys = (Keys.SHIFT, Keys.TAB) if backwards else (Keys.TAB,)
                ActionChains(driver).send_keys(*keys).perform()
                if driver.execute_script(f"const e = document.activeElement; return {predicate};"):
                    return True
            return False

        def press(*keys):
            ActionChains(driver).send_keys(*keys).perform()

        check(tab_to("e.id === 'email'"), "Tab never reached Email")
        press("dave@example.com")
        check(tab_to("e.id === 'password'"), "Tab never reached Password")
        press(PASSWORD, Keys.ENTER)
        check(wait_for(lambda: path_of(driver) == "/"), "Enter did not log in")
        check(tab_to("e.getAttribute('aria-label') === 'Settings'"), "Tab never reached Settings")
        press(Keys.ENTER)
        check(wait_for(lambda: driver.execute_script("return document.getElementById('settings').open")),
              "Enter did not open Settings")
        press(Keys.ESCAPE)
        check(wait_for(lambda: not driver.execute_script("return document.getElementById('settings').open")),
              "Escape did not close Settings")
        check(tab_to("e.textContent.trim() === 'Start new measurement'"), "Tab never reached Start new measurement")
        press(Keys.ENTER)
        started = wait_for(lambda: path_of(driver) == "/measurements/new")
        focus = driver.execute_script("const e = document.activeElement; return e && (e.outerHTML || '').slice(0, 120)")
        device = driver.execute_script("const e = document.getElementById('device-status'); return e && e.textContent")
        check(started, f"Enter did not start a measurement: on {driver.current_url}, alert {alert_of(driver)}, "
                       f"focus {focus!r}, device {device!r}")
        time.sleep(1)
        check(tab_to("e.id === 'comment'"), "Tab never reached Comment")
        press("typed with keys")
        check(tab_to("e.textContent.trim() === 'Save measurement'"), "Tab never reached Save measurement")
        press(Keys.ENTER)
        check(wait_for(lambda: path_of(driver) == "/"), "Enter did not save")
        check(tab_to("e.closest('#measurements') !== null"), "Tab never reached the list")
        press(Keys.ENTER)
        check(wait_for(lambda: re.fullmatch(r"/measurements/\d+", path_of(driver))), "Enter did not open the detail")
        check(driver.find_element(By.ID, "comment").text == "typed with keys", "the keyboard's comment")
        focus_visible = driver.execute_script(
            "const e = document.activeElement; return e === document.body || getComputedStyle(e).outlineStyle")
        check(tab_to("e.tagName === 'A'") and driver.execute_script(
            "return getComputedStyle(document.activeElement).outlineStyle !== 'none'"), f"no visible focus ({focus_visible})")
        check(browser.console_errors() == [], f"console errors (keyboard): {browser.console_errors()}")


def small_png(path):
    """A screenshot as a 128-colour palette PNG: a few tens of kB instead of hundreds."""
    Image.open(path).convert("RGB").quantize(colors=128).save(path, optimize=True)


def screens_checked(app, check, screenshots):
    """axe at three sizes, and screenshots at phone and desktop size (into the folder
    `screenshots`), of every screen."""
    os.makedirs(screenshots, exist_ok=True)
    app.cli("device", "unpair")
    with Browser(1440, 900) as browser, Browser(1440, 900) as other:
        driver = browser.driver
        axe = Axe(driver)
        counted = []

        def examine(name, prepare=None):
            for size, (width, height) in SIZES.items():
                driver.set_window_size(width, height)
                if prepare:
                    prepare()
                time.sleep(0.3)  # the dialog's animation settles
                driver.execute_script("window.scrollTo(0, 0)")
                axe.inject()
                results = axe.run()
                violations = results["violations"]
                counted.append((name, size, len(violations)))
                check(not violations, f"axe on {name} at {size}: " + "; ".join(
                    f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in violations))
                if size in ("phone", "desktop"):
                    path = os.path.join(screenshots, f"{name}-{size}.png")
                    # From the top: a live page's updates during axe's run can move the scroll.
                    driver.execute_script("window.scrollTo(0, 0)")
                    time.sleep(0.1)
                    driver.save_screenshot(path)
                    small_png(path)

        def load(path):
            return lambda: driver.get(app.url + path)

        examine("login", load("/login"))
        examine("register", load("/register"))
        examine("forgot-password", load("/forgot-password"))
        examine("reset-password", load("/reset-password?token=0123456789abcdef"))

        def login_error():
            driver.get(app.url + "/login")
            fill(driver, Email="someone@example.com", Password="wrong-password")
            control(driver, "Log in").click()
            wait_for(lambda: alert_of(driver))
        examine("login-error", login_error)

        register(driver, app, "carol@example.com")
        examine("main-not-connected", load("/"))
        control(driver, "Pair with device").click()
        wait_for(lambda: driver.find_element(By.ID, "device-status").text == "Device connected")
        examine("main-empty", load("/"))

        def settings_open():
            driver.get(app.url + "/")
            control(driver, "Settings").click()
            wait_for(lambda: opened(driver))
        examine("settings", settings_open)

        driver.get(app.url + "/")
        control(driver, "Start new measurement").click()
        wait_for(lambda: path_of(driver) == "/measurements/new")
        wait_for(lambda: any(c.text not in ("", "–") for c in driver.find_elements(By.CSS_SELECTOR, "td.number")))
        examine("new-measurement", load("/measurements/new"))

        log_in(other.driver, app, "dave@example.com")
        busy_driver = other.driver
        busy_axe = Axe(busy_driver)
        for size, (width, height) in SIZES.items():
            busy_driver.set_window_size(width, height)
            busy_driver.get(app.url + "/")
            busy_axe.inject()
            violations = busy_axe.run()["violations"]
            counted.append(("main-busy", size, len(violations)))
            check(not violations, f"axe on main-busy at {size}: {[v['id'] for v in violations]}")
            if size in ("phone", "desktop"):
                path = os.path.join(screenshots, f"main-busy-{size}.png")
                busy_driver.save_screenshot(path)
                small_png(path)

        driver.get(app.url + "/measurements/new")
        fill(driver, Comment="screenshot run")
        control(driver, "Save measurement").click()
        wait_for(lambda: path_of(driver) == "/")
        examine("main-list", load("/"))
        link = driver.find_element(By.CSS_SELECTOR, "#measurements li a").get_attribute("href")
        examine("measurement", lambda: driver.get(link))

        # The report page (issue 44): settings as labelled values, features by name and
        # unit, the simulated pump's THD and SNR (its fundamental under 5 bins) not shown as
        # numbers, a link back, and nothing wider than the window at any size.
        overflows = []

        def report():
            driver.get(link + "/report")
            overflow = overflow_of(driver)
            if overflow["page"] or overflow["outside"]:
                overflows.append((driver.get_window_size()["width"], overflow))
        examine("measurement-report", report)
        check(not overflows, f"the report page overflows: {overflows}")
        settings = {dt.text: dt.find_element(By.XPATH, "following-sibling::dd[1]").text
                    for dt in driver.find_elements(By.CSS_SELECTOR, "section.settings dt")}
        check(settings.get("Sample rate") == "25600 Hz" and settings.get("Window") == "1024 samples"
              and not any("{" in value for value in settings.values()),
              f"the report's settings are not labelled values: {settings}")
        for column, name in (("thd", "THD"), ("snr_db", "SNR")):
            row = driver.find_elements(By.CSS_SELECTOR, f"table.summary tr[data-column='{column}']")
            text = row[0].text if row else ""
            check(text.startswith(f"{name} {column}") and "not measured: no fundamental found" in text
                  and not row[0].find_elements(By.CSS_SELECTOR, "td.number"),
                  f"the report's {column} row reads {text!r}")
        rms = driver.find_element(By.CSS_SELECTOR, "table.summary tr[data-column='rms']").text
        check(rms.startswith("RMS rms input unit"), f"the report's rms row reads {rms!r}")
        check(browser.console_errors() == [], f"console errors (screens): {browser.console_errors()}")
        check(other.console_errors() == [], f"console errors (busy view): {other.console_errors()}")
        print(f"axe: {len(counted)} screen-size runs, {sum(n for _, _, n in counted)} violations")


# The steps that read or write accounts, sessions or measurements in the store: what
# `--postgres` runs again on PostgreSQL.
STORE_STEPS = {"paging", "login stories", "whole flow", "never loses a measurement", "data loss", "reset flood"}


def main():
    binary = sys.argv[1]
    screenshots = SCREENSHOTS
    if "--screenshots" in sys.argv[2:]:
        screenshots = os.path.abspath(sys.argv[sys.argv.index("--screenshots") + 1])
    # `--only "command device"` (repeatable): run only the named steps, while working on one.
    only = [sys.argv[i + 1] for i, word in enumerate(sys.argv[:-1]) if i >= 2 and word == "--only"]
    database = None
    if "--postgres" in sys.argv[2:]:
        only = only or sorted(STORE_STEPS)
        # A new database on the server `Tests/Postgres/pg_cluster.sh run` started.
        server = os.environ["SONDE_TEST_DATABASE_URL"]
        name = f"sonde_app_{os.getpid()}"
        subprocess.run(["psql", "-q", server, "-c", f"CREATE DATABASE {name}"], check=True)
        database = server.rsplit("/", 1)[0] + "/" + name
    check = Checks()
    with App(binary, database) as app:
        # Paging first: on PostgreSQL its measurements are copied in by `sonde store copy`,
        # which fills an empty database only.
        for name, step in (("paging", paging), ("login stories", login_stories), ("whole flow", whole_flow),
                           ("keyboard walk", keyboard_walk),
                           # The 60 s frozen tab and 30 s offline on SQLite; 12 s and 5 s
                           # (past the 10 s that used to discard a capture) on PostgreSQL.
                           ("never loses a measurement", lambda a, c: never_loses_a_measurement(
                               a, c, 12 if database else 60, 5 if database else 30)),
                           ("command device", lambda a, c: command_device(a, c, screenshots)),
                           ("live plots", lambda a, c: live_plots(a, c, screenshots)),
                           ("drafts and dialogs", lambda a, c: drafts_and_dialogs(a, c, screenshots)),
                           ("data loss", data_loss), ("administrator release", administrator_release)):
            if only and name not in only:
                continue
            started = time.monotonic()
            try:
                step(app, check)
            except Exception as error:  # a step that cannot go on: report it, run the others
                check(False, f"{name}: {type(error).__name__}: {error}")
            print(f"{name}: {time.monotonic() - started:.1f} s")
        started = time.monotonic()
        try:
            if not only or "screens" in only:
                screens_checked(app, check, screenshots)
        except Exception as error:
            check(False, f"screens: {type(error).__name__}: {error}")
        print(f"axe and screenshots: {time.monotonic() - started:.1f} s")
        # Last: it uses up this client's reset requests.
        try:
            if not only or "reset flood" in only:
                reset_flood(app, check, screenshots)
        except Exception as error:
            check(False, f"reset flood: {type(error).__name__}: {error}")
        if check.failures:
            print("server log:", "".join(app.log[-20:]))
    engine = "PostgreSQL" if database else "SQLite"
    if only:
        check.finish(f"ok ({engine}): {', '.join(only)}")
        return
    check.finish(f"ok ({engine}): the app's login stories, whole flow, keyboard walk, paging, capture survival "
                 "and axe checks pass")


if __name__ == "__main__":
    main()
