#!/usr/bin/env python3
"""Times `sonde measurements list` and one measurement's export on SQLite and PostgreSQL.

Run by run_scale.sh after it filled both databases with the same measurements; each figure
is the median (and the fastest) of several runs of the whole command, process start and
connection included, as a user meets it. The exports of both engines are compared byte
for byte.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sonde")
    parser.add_argument("--sqlite", required=True)
    parser.add_argument("--postgres", required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--runs", type=int, default=15)
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
