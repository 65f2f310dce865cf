"""Load on `sonde serve` (loopback only, bounded in time): people browsing their lists
and measurements while others log in at once, with production password hashing (Argon2id,
19 MiB per hash).

- 50 browsing users (threads, each its own keep-alive connection, 5 per account of 10),
  each opening Main or one of its measurements, then reading it for THINK seconds
  (0.5 by default), for DURATION seconds;
- meanwhile, every few seconds, LOGINS (20) people submit the Login form at the same moment,
  and one user records the device throughout, polling its values 4 times a second;
- the server's resident memory sampled every 50 ms.

Prints the browsing latency percentiles, every burst's login times and statuses (303 =
signed in, 503 with Retry-After = refused while every hashing slot stayed busy for the
wait limit), and the peak RSS. Exit status 1 when a budget is exceeded: browsing p99 >=
50 ms, RSS >= 1 GiB, a login refused without Retry-After, a login within capacity (the
first `cores` of a burst) over 1 s, or a burst not all signed in within 3 s (issue 44).

usage: load.py path/to/sonde [--duration 20] [--logins 20] [--think 0.5] [--database URL] [--warm]

`--database postgresql://...` serves from that PostgreSQL database (empty) instead of
SQLite in the temporary home, e.g. on a throwaway server:
  sh Tests/Postgres/pg_cluster.sh run sh -c \
      '.build/test-venv/bin/python Benchmarks/app/load.py BINARY --database "$SONDE_TEST_DATABASE_URL"'

`--warm`: the 50 browsing users each open a page once, all at once, before the clock
starts. On PostgreSQL the server's pool opens its connections on demand, so without it the
first wave pays for up to 16 connections being opened (a backend started and a SCRAM
exchange each) inside the measured window, as a server does after a quiet minute.
"""

import argparse
import http.client
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.parse

PASSWORD = "load-test-password"


class Client:
    """A browser's cookies and CSRF token, over one keep-alive connection."""

    def __init__(self, port, source=None):
        """`source`: the loopback address to connect from (the app allows 20 registrations
        per client address in 15 minutes, so the set-up registers each account from its own)."""
        self.port = port
        self.cookies = {}
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=60, source_address=(source, 0) if source else None)

    def request(self, method, path, form=None):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = urllib.parse.urlencode(form)
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, value = header.split(";", 1)[0].split("=", 1)
            self.cookies[name] = value
        return response.status, response.headers, data.decode(errors="replace")

    def token(self, path):
        _, _, page = self.request("GET", path)
        match = re.search(r'name="_csrf" value="([^"]+)"', page)
        return match.group(1) if match else ""

    def post(self, path, form, token_from):
        return self.request("POST", path, dict(form, _csrf=self.token(token_from)))


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--duration", type=int, default=20)
    parser.add_argument("--logins", type=int, default=20)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--database", help="a PostgreSQL URL to serve from (default: SQLite in the home)")
    parser.add_argument("--warm", action="store_true", help="every browsing user opens a page before the clock starts")
    arguments = parser.parse_args()
    home = tempfile.mkdtemp(prefix="sonde-app-load-")
    environment = {k: v for k, v in os.environ.items() if k != "SONDE_SCRYPT_LOG_N"}
    environment["SONDE_HOME"] = home
    database = ["--database", arguments.database] if arguments.database else []
    server = subprocess.Popen([arguments.binary, "serve", "--listen", "127.0.0.1:0"] + database,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment)
    try:
        line = server.stdout.readline().decode()
        url = re.search(r"(http://127\.0\.0\.1:(\d+)/)", line)
        port = int(url.group(2))
        cores = os.cpu_count() or 1

        # Ten browsing accounts, each with two short measurements.
        print("setting up: 10 browsing accounts with 2 measurements each, "
              f"{arguments.logins} login accounts (production Argon2id)...", flush=True)
        browsers = []
        for index in range(10):
            client = Client(port, source=f"127.0.2.{index + 1}")
            status, _, _ = client.post("/register", {"email": f"browse{index}@example.com", "password": PASSWORD},
                                       "/register")
            assert status == 303, f"register answered {status}"
            if index == 0:
                client.post("/device/pair", {}, "/")
            ids = []
            for _ in range(2):
                client.post("/measurements/new", {}, "/")
                time.sleep(1.0)
                client.request("GET", "/measurements/new/values")
                client.post("/measurements/new/save", {"comment": "load"}, "/measurements/new")
            _, _, page = client.request("GET", "/")
            ids = re.findall(r'href="(/measurements/\d+)"', page)
            browsers.append((client.cookies["sonde_session"], ["/"] + ids))
        for index in range(arguments.logins):
            client = Client(port, source=f"127.0.1.{index + 1}")
            status, _, _ = client.post("/register", {"email": f"login{index}@example.com", "password": PASSWORD},
                                       "/register")
            assert status == 303, f"register answered {status}"

        peak = [rss_kib(server.pid)]
        running = [True]

        def sample():
            while running[0]:
                peak[0] = max(peak[0], rss_kib(server.pid))
                time.sleep(0.05)
        threading.Thread(target=sample, daemon=True).start()

        logins = []
        lock = threading.Lock()

        def burst():
            clients = []
            for index in range(arguments.logins):
                client = Client(port)
                clients.append((client, client.token("/login")))
            gate = threading.Barrier(len(clients))

            def one(index, client, token):
                gate.wait()
                started = time.perf_counter()
                status, headers, _ = client.request(
                    "POST", "/login", {"email": f"login{index}@example.com", "password": PASSWORD, "_csrf": token})
                with lock:
                    logins.append((time.perf_counter() - started, status, headers.get("Retry-After")))
            threads = [threading.Thread(target=one, args=(i, c, t)) for i, (c, t) in enumerate(clients)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

        def bursts():
            time.sleep(2)
            while time.monotonic() < end - 6:
                burst()
                time.sleep(2)

        def warm(number):
            cookie, paths = browsers[number % len(browsers)]
            client = Client(port)
            client.cookies["sonde_session"] = cookie
            client.request("GET", paths[number % len(paths)])
        if arguments.warm:
            warmers = [threading.Thread(target=warm, args=(n,)) for n in range(50)]
            for thread in warmers:
                thread.start()
            for thread in warmers:
                thread.join()
        print(f"browsing: 50 users (think {arguments.think} s) for {arguments.duration} s; "
              f"{arguments.logins} logins at once every few seconds", flush=True)
        end = time.monotonic() + arguments.duration
        latencies = []
        statuses = {}

        def browse(number):
            cookie, paths = browsers[number % len(browsers)]
            client = Client(port)
            client.cookies["sonde_session"] = cookie
            position = number
            while time.monotonic() < end:
                path = paths[position % len(paths)]
                position += 1
                started = time.perf_counter()
                status, _, _ = client.request("GET", path)
                elapsed = time.perf_counter() - started
                with lock:
                    latencies.append(elapsed)
                    statuses[status] = statuses.get(status, 0) + 1
                time.sleep(arguments.think)

        capture_log = {"start": None, "polls": {}, "save": None}

        def capture():
            """One user records the device the whole time, polling its values 4 times a
            second as the page's fallback does, and saves at the end (issue 44: browsing
            while a capture runs)."""
            cookie, _ = browsers[0]
            client = Client(port)
            client.cookies["sonde_session"] = cookie
            capture_log["start"], _, _ = client.post("/measurements/new", {}, "/")
            while time.monotonic() < end:
                status, _, _ = client.request("GET", "/measurements/new/values")
                capture_log["polls"][status] = capture_log["polls"].get(status, 0) + 1
                time.sleep(0.25)
            capture_log["save"], _, _ = client.post(
                "/measurements/new/save", {"comment": "during load"}, "/measurements/new")

        capture_thread = threading.Thread(target=capture)
        capture_thread.start()
        browsing = [threading.Thread(target=browse, args=(n,)) for n in range(50)]
        for thread in browsing:
            thread.start()
        login_thread = threading.Thread(target=bursts)
        login_thread.start()
        for thread in browsing:
            thread.join()
        login_thread.join()
        capture_thread.join()
        running[0] = False
        latencies.sort()

        def percentile(q):
            return 1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))]
        p99_ms = percentile(0.99)
        print(f"browsing: {len(latencies)} pages, {len(latencies) / arguments.duration:.0f}/s, statuses {statuses}; "
              f"p50 {percentile(0.5):.1f} ms, p90 {percentile(0.9):.1f} ms, p99 {p99_ms:.1f} ms, "
              f"max {1000 * latencies[-1]:.1f} ms")
        unexpected = sum(count for status, count in statuses.items() if status != 200)

        signed_in = sorted(t for t, status, _ in logins if status == 303)
        refused = [(t, retry) for t, status, retry in logins if status == 503]
        other = [status for _, status, _ in logins if status not in (303, 503)]
        per_burst = arguments.logins
        firsts = []
        for start in range(0, len(logins), per_burst):
            firsts += sorted(t for t, status, _ in logins[start:start + per_burst] if status == 303)[:cores]
        print(f"logins: {len(logins)} in bursts of {per_burst}; {len(signed_in)} signed in "
              f"(median {1000 * signed_in[len(signed_in) // 2]:.0f} ms, max {1000 * signed_in[-1]:.0f} ms), "
              f"{len(refused)} refused 503 (all with Retry-After: {all(r for _, r in refused)}), other {other}"
              if signed_in else f"logins: {logins}")
        print(f"the first {cores} logins of each burst (within the {cores} cores): "
              + ", ".join(f"{1000 * t:.0f} ms" for t in firsts))
        print(f"store: {'PostgreSQL' if arguments.database else 'SQLite'}")
        print(f"browsing p99 {p99_ms:.2f} ms; non-200 pages {unexpected}; peak RSS {peak[0] / 1024:.0f} MiB")
        print(f"capture during the run: start {capture_log['start']}, value polls {capture_log['polls']}, "
              f"save {capture_log['save']}")
        failures = []
        if capture_log["start"] != 303 or set(capture_log["polls"]) != {200} or capture_log["save"] != 303:
            failures.append("the capture beside the browsing did not start, answer or save")
        if p99_ms >= 50:
            failures.append(f"browsing p99 {p99_ms:.1f} ms >= 50 ms")
        if peak[0] >= 1024 * 1024:
            failures.append(f"peak RSS {peak[0] / 1024:.0f} MiB >= 1 GiB")
        if any(not retry for _, retry in refused) or other:
            failures.append("a login refused without Retry-After, or an unexpected status")
        if firsts and max(firsts) >= 1.0:
            failures.append(f"a login within capacity took {max(firsts):.2f} s")
        for start in range(0, len(logins), per_burst):
            burst = logins[start:start + per_burst]
            slowest = max(t for t, _, _ in burst)
            if any(status != 303 for _, status, _ in burst) or slowest >= 3.0:
                failures.append(f"a burst of {len(burst)} logins: {sum(s == 303 for _, s, _ in burst)} signed in, "
                                f"the last after {slowest:.2f} s (all within 3 s asked)")
        for failure in failures:
            print("FAIL:", failure)
        raise SystemExit(1 if failures else 0)
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
