"""Headless Chromium for sonde's browser tests, through Selenium.

    from headless import Browser
    with Browser() as browser:
        browser.open("file:///tmp/report.html")        # or http://127.0.0.1:8080/
        assert browser.console_errors() == []
        browser.screenshot("report.png")               # into Tests/Browser/artifacts/

Uses Debian's `chromium` and `chromium-driver` (apt) and Selenium (PyPI); `make test`
installs them when missing. Console messages come from Chromium's browser log
(`goog:loggingPrefs`), so an error thrown by a page script or a resource that fails to
load counts as a console error.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

HERE = os.path.dirname(os.path.abspath(__file__))
ARTIFACTS = os.path.join(HERE, "artifacts")


def _find(*names: str) -> str | None:
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    for path in ("/usr/bin/chromium", "/usr/lib/chromium/chromium", "/usr/bin/chromedriver"):
        if os.path.basename(path) in names and os.path.exists(path):
            return path
    return None


class Browser:
    """One headless Chromium window of a fixed size; close it with `quit()` or `with`."""

    def __init__(self, width: int = 1280, height: int = 900):
        options = webdriver.ChromeOptions()
        binary = _find("chromium", "chromium-browser")
        if binary:
            options.binary_location = binary
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         f"--window-size={width},{height}", "--hide-scrollbars", "--force-device-scale-factor=1"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver_path = _find("chromedriver")
        # Chromium's own temporary files (its singleton socket's folder) go in a folder
        # removed at quit(): left in /tmp, they piled up at sixteen a test run.
        self._scratch = tempfile.mkdtemp(prefix="sonde-chromium-")
        environment = dict(os.environ, TMPDIR=self._scratch)
        # No chromedriver found: None lets Selenium find one itself.
        service = Service(executable_path=driver_path, env=environment)
        self.driver = webdriver.Chrome(service=service, options=options)
        self._errors: list[str] = []

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.quit()

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self._scratch, ignore_errors=True)

    def open(self, url: str) -> None:
        """Loads `url` and waits for the document to be complete."""
        self.driver.get(url)
        self.driver.execute_script("return document.readyState")

    def console_errors(self) -> list[str]:
        """Console messages of level SEVERE since the last call (and all kept so far)."""
        for entry in self.driver.get_log("browser"):
            if entry.get("level") == "SEVERE":
                self._errors.append(entry.get("message", ""))
        return list(self._errors)

    def run(self, script: str, *args):
        """Runs JavaScript in the page and returns its result."""
        return self.driver.execute_script(script, *args)

    def wait_until(self, script: str, timeout: float = 10.0, interval: float = 0.1):
        """Runs `script` (JavaScript that returns a value) until it returns something truthy,
        and returns that; raises TimeoutError after `timeout` seconds (a live page that
        never updates)."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.run(script)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"still falsy after {timeout} s: {script}")
            time.sleep(interval)

    def screenshot(self, name: str, full_page: bool = True) -> str:
        """Saves a PNG screenshot as artifacts/NAME (the whole page's height when
        `full_page`) and returns its path."""
        os.makedirs(ARTIFACTS, exist_ok=True)
        path = os.path.join(ARTIFACTS, name)
        if full_page:
            width = self.driver.get_window_size()["width"]
            height = self.run("return Math.ceil(document.documentElement.scrollHeight)")
            self.driver.set_window_size(width, min(max(int(height), 200), 16000))
        self.driver.save_screenshot(path)
        return path
