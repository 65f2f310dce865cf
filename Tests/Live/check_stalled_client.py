"""A client that connects to the live page's events and never reads must not slow or stop
`sonde stream --serve`: the stream still writes every record on time, and the updates that
client missed are dropped and counted (the summary and /metrics say how many).

The stream runs a simulated 4-channel device at 51.2 kHz, paced by its sample clock, so a
stream held back by the client would fall behind and its device would drop samples.

usage: check_stalled_client.py path/to/sonde
"""

import os
import re
import socket
import sys
import time
import urllib.parse
import urllib.request

from live_stream import Checks, LiveStream, wait_until, write_profile

RATE, CHANNELS, SECONDS = 51200, 4, 12
WINDOW, HOP = 1024, 512


def stalled_client(url, receive_buffer=1024):
    """Connects, asks for the event stream, and never reads a byte of it."""
    address = urllib.parse.urlsplit(url)
    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    client.connect((address.hostname, address.port))
    client.sendall(f"GET /events HTTP/1.1\r\nHost: {address.netloc}\r\nAccept: text/event-stream\r\n\r\n".encode())
    return client


def main():
    binary = sys.argv[1]
    check = Checks()

    profile = write_profile(RATE, CHANNELS)
    try:
        run(binary, profile, check)
    finally:
        os.unlink(profile)


def run(binary, profile, check):
    arguments = ["--profile", profile, "--seed", "1", "--duration", f"{SECONDS}s", "--window", str(WINDOW), "--hop", str(HOP), "--stats"]
    stalled = []
    with LiveStream(binary, arguments) as stream:
        started = time.monotonic()
        stalled = [stalled_client(stream.url) for _ in range(3)]
        # A reader that keeps up, to see the page updates go on for others meanwhile.
        with urllib.request.urlopen(stream.url + "events", timeout=10) as events:
            first = events.readline()
            check(first.startswith(b"event: update"), f"first event line {first!r}")
        wait_until(lambda: stream.records > 0 and time.monotonic() - started > SECONDS - 2, timeout=SECONDS + 5)
        with urllib.request.urlopen(stream.url + "metrics", timeout=10) as response:
            metrics = response.read().decode()
        status = stream.wait(timeout=SECONDS + 30)
        elapsed = time.monotonic() - started
    for client in stalled:
        client.close()

    check(status == 0, f"exit status {status}: {stream.stderr}")
    frames = (RATE * SECONDS - WINDOW) // HOP + 1
    check(stream.records == frames * CHANNELS, f"{stream.records} records, expected {frames * CHANNELS}")
    check(not stream.bad_lines, f"stdout lines that are not records: {stream.bad_lines[:2]}")
    # Paced by the device clock: about SECONDS, and not held back by the stalled clients.
    check(elapsed < SECONDS + 3, f"the stream took {elapsed:.1f} s for {SECONDS} s of signal")
    summary = re.search(r"(\d+) dropped, .*latency p50 ([\d.]+) ms, p99 ([\d.]+) ms.*; (\d+) page updates dropped", stream.stderr)
    check(summary is not None, f"summary: {stream.stderr}")
    if summary:
        dropped_samples, p50, p99, dropped_updates = int(summary[1]), float(summary[2]), float(summary[3]), int(summary[4])
        check(dropped_samples == 0, f"the device dropped {dropped_samples} samples")
        check(dropped_updates > 0, "no page update was dropped for the stalled clients")
        scraped = re.search(r"^sonde_live_dropped_updates_total (\d+)", metrics, re.M)
        check(scraped is not None and int(scraped[1]) > 0, f"/metrics counts no dropped update: {scraped}")
        check(p99 < 100, f"latency p99 {p99} ms")
    check.finish(f"ok: {stream.records} records in {elapsed:.1f} s with 3 stalled clients; "
          f"latency p50 {p50} ms, p99 {p99} ms; {dropped_updates} page updates dropped and counted")


if __name__ == "__main__":
    main()
