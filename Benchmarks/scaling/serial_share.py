#!/usr/bin/env python3
"""Issue 30's shapes at several --jobs: wall time, speed-up, and the serial share.

    python3 Benchmarks/scaling/serial_share.py --sonde .build/release/sonde [--jobs 1,2] [--rounds 3]
    python3 Benchmarks/scaling/serial_share.py --sonde ./sonde --jobs 1,2,4,8,16     # a 16-core machine
    python3 Benchmarks/scaling/serial_share.py --sonde new/sonde --baseline old/sonde  # two builds in pairs

Each round runs every shape at every --jobs in turn (so a drift of the machine's speed
touches them alike) with `--cpu-report`, and keeps the wall time and the report: CPU of
the workers, of the reading and writing threads and the rest, the serial share (what no
worker spent, over the run's CPU) and the framer's share (on the workers, but one block at
a time per input). Prints one Markdown table of medians: the speed-up of each --jobs over
--jobs 1 (pairwise within a round), and Amdahl's 16-core bound from the serial share at
the most jobs. Inputs are written once under --work (default /tmp/sonde-scaling, ~1 GB)
and read once before timing, so the page cache holds them. With `--baseline`, each run of
the build under test is followed by the same run of the baseline build, and the table adds
each shape's wall time against the baseline at every --jobs (median of the pairs' ratios,
below 1 when the build under test is faster).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REPORT = re.compile(
    r"cpu: workers ([\d.]+) s, reading ([\d.]+) s, writing ([\d.]+) s, other ([\d.]+) s; "
    r"serial share ([\d.]+) \(Amdahl: at most [\d.]+x on 16 cores\); framer ([\d.]+)"
)
ISSUE6 = ["--filter", "highpass:10:4", "--bands", "0-1000,1000-5000,5000-20000"]


def shapes(work: str) -> list[tuple[str, list[str]]]:
    """The issue's table: (name, arguments after `sonde process`)."""
    big = os.path.join(work, "2ch.f32")
    eight = os.path.join(work, "8ch.f32")
    mono = os.path.join(work, "mono.f32")
    clips = os.path.join(work, "clips")
    raw = lambda path, channels: [path, "--rate", "51200", "--channels", str(channels), "--sample-type", "f32le"]
    return [
        ("issue-6 workload (all features, filter, 3 bands), 60 M samples", raw(big, 2) + ISSUE6),
        ("all features, no filter, 60 M samples", raw(big, 2)),
        ("--features rms only, 60 M samples", raw(big, 2) + ["--features", "rms"]),
        ("8 channels, no filter, 60 M samples", raw(eight, 8)),
        ("mono, no filter, 30 M samples", raw(mono, 1)),
        ("mono with the filter, 30 M samples", raw(mono, 1) + ["--filter", "highpass:10:4"]),
        ("2,000 two-second WAV clips (64 M samples)", [clips]),
    ]


def make_inputs(work: str, python: str) -> None:
    os.makedirs(work, exist_ok=True)
    make_input = os.path.join(ROOT, "Benchmarks", "peers", "make_input.py")
    for name, channels, samples in [("2ch.f32", 2, 30_000_000), ("8ch.f32", 8, 7_500_000), ("mono.f32", 1, 30_000_000)]:
        path = os.path.join(work, name)
        if not os.path.exists(path):
            subprocess.run([python, make_input, path, "--channels", str(channels), "--samples", str(samples)], check=True)
    clips = os.path.join(work, "clips")
    if not os.path.exists(clips):
        subprocess.run([python, os.path.join(ROOT, "Benchmarks", "dataset", "make_dataset.py"), clips], check=True)
    for base, _, files in os.walk(work):
        for name in files:
            with open(os.path.join(base, name), "rb") as handle:
                while handle.read(1 << 24):
                    pass


def run(sonde: str, arguments: list[str], jobs: int) -> tuple[float, tuple[float, ...]]:
    command = [sonde, "process", *arguments, "--jobs", str(jobs), "--cpu-report", "--quiet", "-o", "/dev/null"]
    started = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - started
    stderr = result.stderr.decode("utf-8", "replace")
    match = REPORT.search(stderr)
    if result.returncode != 0 or match is None:
        sys.exit(f"serial_share.py: {' '.join(command)} failed ({result.returncode}): {stderr.strip()}")
    return wall, tuple(float(value) for value in match.groups())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sonde", default=os.path.join(ROOT, ".build", "release", "sonde"))
    parser.add_argument("--jobs", default="1,2", help="comma-separated --jobs values; the first is the baseline")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", default="/tmp/sonde-scaling")
    parser.add_argument("--only", help="run only the shapes whose name contains this text")
    parser.add_argument("--baseline", help="a second sonde binary run in pairs with --sonde (today's main)")
    args = parser.parse_args()
    jobs = [int(value) for value in args.jobs.split(",")]
    make_inputs(args.work, sys.executable)
    chosen = [shape for shape in shapes(args.work) if args.only is None or args.only in shape[0]]
    # results[shape][jobs] = [(wall, report), ...] one per round
    results = {name: {j: [] for j in jobs} for name, _ in chosen}
    baseline = {name: {j: [] for j in jobs} for name, _ in chosen}
    for round_number in range(args.rounds):
        for name, arguments in chosen:
            for j in jobs:
                results[name][j].append(run(args.sonde, arguments, j))
                if args.baseline:
                    baseline[name][j].append(run(args.baseline, arguments, j))
        print(f"round {round_number + 1} of {args.rounds} done", file=sys.stderr)

    most = jobs[-1]
    header = ["shape"] + [f"jobs {j}" for j in jobs] + [f"{j} vs {jobs[0]}" for j in jobs[1:]]
    header += [f"serial share (jobs {most})", f"framer share (jobs {most})", "Amdahl, 16 cores"]
    if args.baseline:
        header += [f"jobs {j} vs baseline" for j in jobs]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name, _ in chosen:
        runs = results[name]
        walls = [f"{statistics.median(wall for wall, _ in runs[j]):.3f} s" for j in jobs]
        speedups = [
            f"{statistics.median(a[0] / b[0] for a, b in zip(runs[jobs[0]], runs[j])):.2f}x" for j in jobs[1:]
        ]
        serial = statistics.median(report[4] for _, report in runs[most])
        framer = statistics.median(report[5] for _, report in runs[most])
        bound = 1 / (serial + (1 - serial) / 16)
        cells = walls + speedups + [f"{serial:.3f}", f"{framer:.3f}", f"{bound:.1f}x"]
        if args.baseline:
            pairs = baseline[name]
            cells += [
                f"{statistics.median(a[0] / b[0] for a, b in zip(runs[j], pairs[j])):.2f}"
                + f" ({statistics.median(b[0] for b in pairs[j]):.3f} s)"
                for j in jobs
            ]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
