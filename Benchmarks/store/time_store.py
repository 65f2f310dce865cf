#!/usr/bin/env python3
"""Times `sonde measurements list`, the app's list page and one measurement's export on
SQLite and PostgreSQL.

Run by run_scale.sh after it filled both databases with the same measurements; each command
figure is the median (and the fastest) of several runs of the whole command, process start
and connection included, as a user meets it. The page figures are requests to one `sonde
serve` per engine on loopback (the first page and the last, 50 measurements each), after a
login. The exports of both engines are compared byte for byte.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.parse


def timed(command: list[str], environment: dict[str, str], runs: int) -> tuple[list[float], bytes]:
    times = []
    output = b""
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(command, env=environment, capture_output=True)
        times.append(time.perf_counter() - start)
        if result.returncode != 0:
            sys.exit(f"{' '.join(command)} failed: {result.stderr.decode().strip()}")
        output = result.stdout
    return times, output


def page_times(sonde: str, environment: dict[str, str], email: str, password: str, pages: list[int],
               runs: int) -> dict[int, list[float]]:
    """Seconds per GET of each Main page, over `runs` requests, from a logged-in session."""
    server = subprocess.Popen([sonde, "serve", "--listen", "127.0.0.1:0"], env=environment,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        match = re.search(rb"http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
        if not match:
            sys.exit("sonde serve printed no address")
        connection = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=30)

        def request(method, path, cookies, body=None):
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
            if body is not None:
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            for header in response.headers.get_all("Set-Cookie") or []:
                name, value = header.split(";", 1)[0].split("=", 1)
                cookies[name] = value
            return response.status, data

        cookies: dict[str, str] = {}
        _, page = request("GET", "/login", cookies)
        token = re.search(rb'name="_csrf" value="([^"]+)"', page).group(1).decode()
        form = urllib.parse.urlencode({"email": email, "password": password, "_csrf": token})
        status, _ = request("POST", "/login", cookies, form)
        if status != 303:
            sys.exit(f"login to sonde serve answered {status}")
        times: dict[int, list[float]] = {page: [] for page in pages}
        for _ in range(runs):
            for page in pages:
                started = time.perf_counter()
                status, body = request("GET", "/" if page == 1 else f"/?page={page}", cookies)
                times[page].append(time.perf_counter() - started)
                if status != 200 or body.count(b"<li><a href=") != 50:
                    sys.exit(f"page {page} answered {status} with {body.count(b'<li><a href=')} measurements")
        return times
    finally:
        server.terminate()
        server.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sonde")
    parser.add_argument("--sqlite", required=True)
    parser.add_argument("--postgres", required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--email", default="scale@example.com")
    parser.add_argument("--password", default="scale-password")
    args = parser.parse_args()

    exports: dict[str, dict[str, bytes]] = {}
    for engine, url in (("SQLite", f"sqlite:{args.sqlite}"), ("PostgreSQL", args.postgres)):
        environment = dict(os.environ, SONDE_DATABASE_URL=url)
        times, output = timed([args.sonde, "measurements", "list"], environment, args.runs)
        lines = output.count(b"\n")
        if lines != args.count + 1:  # a header line, then one a measurement
            sys.exit(f"{engine}: measurements list printed {lines} lines, expected {args.count + 1}")
        print(f"{engine}: measurements list ({lines - 1} measurements): median {statistics.median(times) * 1e3:.1f} ms,"
              f" fastest {min(times) * 1e3:.1f} ms ({args.runs} runs)")
        last = (args.count + 49) // 50
        pages = page_times(args.sonde, environment, args.email, args.password, [1, last], 5 * args.runs)
        for page, seconds in pages.items():
            print(f"{engine}: list page {page} of {last} (50 measurements): median {statistics.median(seconds) * 1e3:.1f} ms,"
                  f" p99 {sorted(seconds)[int(0.99 * (len(seconds) - 1))] * 1e3:.1f} ms ({len(seconds)} requests)")
        exports[engine] = {}
        for format in ("csv", "parquet"):
            path = os.path.join(args.work, f"export-{engine}.{format}")
            command = [args.sonde, "measurements", "export", "1", "--format", format, "-o", path]
            times, _ = timed(command, environment, 5)
            size = os.path.getsize(path)
            with open(path, "rb") as handle:
                exports[engine][format] = handle.read()
            best = min(times)
            print(f"{engine}: export of measurement 1 as {format}: {size / 1e6:.1f} MB in median"
                  f" {statistics.median(times):.2f} s, fastest {best:.2f} s: {size / 1e6 / best:.0f} MB/s")
    for format in ("csv", "parquet"):
        same = exports["SQLite"][format] == exports["PostgreSQL"][format]
        print(f"{format} exports of both engines identical: {same}")
        if not same:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
