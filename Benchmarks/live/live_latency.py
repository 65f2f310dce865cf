"""Stream latency with and without the live page: `sonde stream --stats` on a simulated
4-channel device at 51.2 kHz, paced by its clock, in three set-ups taken in turn each round
(so a busy machine spreads over all three):

  plain    no --serve
  served   --serve 127.0.0.1:0, nobody connected
  browser  --serve 127.0.0.1:0 with the live page open in headless Chromium

usage: live_latency.py path/to/sonde [--seconds 30] [--rounds 3]
Prints, per run, the summary's latency p50/p99/p99.9 and dropped samples.
"""

import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Live"))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))

from live_stream import LiveStream, write_profile  # noqa: E402

SUMMARY = re.compile(r"(\d+) records, .* (\d+) dropped, .*latency p50 ([\d.]+) ms, p99 ([\d.]+) ms, p99.9 ([\d.]+) ms")


def plain(binary, arguments):
    result = subprocess.run([binary, "stream", *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    return result.stderr


def served(binary, arguments, browser=None):
    with LiveStream(binary, arguments) as stream:
        if browser is not None:
            browser.open(stream.url)
        stream.wait(timeout=600)
        if browser is not None:
            shown = browser.run("return document.querySelectorAll('figure svg').length")
            errors = browser.console_errors()
            if shown == 0 or errors:
                raise RuntimeError(f"the page showed {shown} figures, console errors {errors}")
            browser.open("about:blank")
        return stream.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    profile = write_profile(51200, 4)
    arguments = ["--profile", profile, "--seed", "1", "--duration", f"{options.seconds}s", "--stats"]
    from headless import Browser

    rows = []
    with Browser() as browser:
        for round_ in range(1, options.rounds + 1):
            for name, run in [
                ("plain", lambda: plain(options.binary, arguments)),
                ("served", lambda: served(options.binary, arguments)),
                ("browser", lambda: served(options.binary, arguments, browser)),
            ]:
                stderr = run()
                match = SUMMARY.search(stderr)
                if not match:
                    sys.exit(f"no summary from {name}: {stderr}")
                records, dropped, p50, p99, p999 = match.groups()
                rows.append((name, round_, records, dropped, p50, p99, p999))
                print(f"{name:8} round {round_}: {records} records, {dropped} samples dropped, "
                      f"latency p50 {p50} ms, p99 {p99} ms, p99.9 {p999} ms", flush=True)
                time.sleep(1)
    os.unlink(profile)


if __name__ == "__main__":
    main()
