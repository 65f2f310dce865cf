"""Starts `sonde stream --serve` on a simulated device, as the live tests need it.

The stream's stdout is drained on a thread (each line must be one JSON record), so the
tests see the records exactly as a user piping them would, and the URL of the page is
read from the summary on stderr (port 0 lets the system pick a free port).
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROFILE = os.path.join(ROOT, "sample-data", "faulty-pump.toml")


def write_profile(rate, channels):
    """A simulated device at `rate` Hz with `channels` channels (tones, noise, impacts)."""
    lines = ['name = "live-test"', f"rate = {rate}"]
    for index in range(channels):
        lines += [
            "[[channels]]",
            f'name = "ch{index}"',
            f"tones = [{{ frequency = {rate / (17 + 4 * index):.3f}, amplitude = {1 - 0.1 * index:.2f}, harmonics = [0.3] }}]",
            "noise = 0.05",
            f"impulses = {{ rate = {3 + index}, amplitude = 2 }}",
            f"drift = {{ amplitude = 0.2, period = {3 + index} }}",
        ]
    handle = tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False)
    handle.write("\n".join(lines) + "\n")
    handle.close()
    return handle.name


class LiveStream:
    """One `sonde stream --serve 127.0.0.1:0` process; use as a context manager."""

    def __init__(self, binary, arguments, serve="127.0.0.1:0"):
        self.command = [binary, "stream", *arguments, "--serve", serve]
        self.records = 0
        self.bad_lines = []
        self.stderr = ""
        self.url = None

    def __enter__(self):
        self.process = subprocess.Popen(
            self.command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
        )
        self._stdout = threading.Thread(target=self._drain_stdout, daemon=True)
        self._stdout.start()
        # The first stderr line names the page; the rest is read at the end.
        line = self.process.stderr.readline().decode()
        self.stderr = line
        match = re.search(r"live page at (http://\S+/),", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"no live page announced: {line!r} ({self.command})")
        self.url = match.group(1)
        return self

    def _drain_stdout(self):
        for line in self.process.stdout:
            try:
                record = json.loads(line)
                if "channel" not in record or "time" not in record:
                    self.bad_lines.append(line)
            except ValueError:
                self.bad_lines.append(line)
            self.records += 1

    def wait(self, timeout):
        """Waits for the stream to end by itself; returns its exit status."""
        status = self.process.wait(timeout=timeout)
        self._stdout.join(timeout=10)
        self.stderr += self.process.stderr.read().decode()
        return status

    def __exit__(self, *exc):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        return False


def wait_until(condition, timeout, interval=0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()


class Checks:
    """The failures a test script collects; `finish` prints them and exits 1, or prints `ok`."""

    def __init__(self):
        self.failures = []

    def __call__(self, condition, message):
        if not condition:
            self.failures.append(message)

    def finish(self, ok):
        if self.failures:
            for failure in self.failures:
                print("FAIL:", failure)
            sys.exit(1)
        print(ok)
