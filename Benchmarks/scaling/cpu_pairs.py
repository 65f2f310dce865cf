#!/usr/bin/env python3
"""CPU time of `sonde process` for two builds, run in alternating pairs (issue 49's CPU ratios).

    python3 Benchmarks/scaling/cpu_pairs.py NEW OLD RUNS PROCESS-ARGS...
    python3 Benchmarks/scaling/cpu_pairs.py .build/release/sonde /tmp/old-sonde 5 \
        /tmp/sonde-scaling/mono.f32 --rate 51200 --channels 1 --sample-type f32le \
        --filter highpass:10:4 --jobs 2

Wall time on a shared two-core machine says little about extra work done in parallel; the
user and system CPU the child used (getrusage of the waited-for children) does. Each round
runs the build under test, then the baseline, on the same arguments (`-o /dev/null --quiet`
added), so a drift of the machine touches both alike. Prints the median CPU seconds of
each build and the median of the pairs' ratios (new over old; above 1 means more CPU).
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys


def child_cpu_seconds(command: list[str]) -> float:
    """User plus system CPU of one finished child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    new, old, runs, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    pairs = []
    for _ in range(runs):
        tail = [*args, "-o", "/dev/null", "--quiet"]
        pairs.append((child_cpu_seconds([new, "process", *tail]), child_cpu_seconds([old, "process", *tail])))
    print(
        " ".join(args),
        "new %.3f s, old %.3f s, ratio %.3f"
        % (
            statistics.median(n for n, _ in pairs),
            statistics.median(o for _, o in pairs),
            statistics.median(n / o for n, o in pairs),
        ),
    )


if __name__ == "__main__":
    main()
