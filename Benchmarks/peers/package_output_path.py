#!/usr/bin/env python3
"""process_folder with sonde's output through a pipe against through a temporary file, in
turn in one process (so the machine's drift touches both), and the CLI alone.

    .build/test-venv/bin/python Benchmarks/peers/package_output_path.py SONDE_BINARY DATA

DATA: a folder of clips, such as `python3 Benchmarks/dataset/make_dataset.py /tmp/clips2k`
writes (2,000 two-second 16 kHz clips).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
BINARY = sys.argv[1]
if len(sys.argv) != 3:
    sys.exit(__doc__)
DATA = sys.argv[2]
os.environ["SONDE_BIN"] = BINARY

import sonde  # noqa: E402
from sonde import _binary, _measurer  # noqa: E402

FEATURES = ["rms", "zero_crossing_rate", "spectral_centroid", "spectral_bandwidth", "spectral_rolloff", "spectral_flatness"]


def main() -> None:
    measurer = sonde.Measurer(features=FEATURES, window=1024, hop=512, mel=40, mfcc=13)
    run = _binary.run
    seconds: dict[str, list[float]] = {"temporary file": [], "pipe": []}
    for _ in range(10):
        for name, to_file in (("temporary file", True), ("pipe", False)):
            _measurer._binary.run = lambda b, a, s=None, to_file=None, chosen=to_file: run(b, a, s, to_file=chosen)
            started = time.perf_counter()
            measurer.process_folder(DATA)
            seconds[name].append(time.perf_counter() - started)
    _measurer._binary.run = run
    cli = []
    command = [BINARY, "process", DATA, *measurer.options(), "--format", "parquet", "--compression", "none"]
    for _ in range(10):
        started = time.perf_counter()
        subprocess.run([*command, "--quiet", "-o", "/dev/null"], check=True)
        cli.append(time.perf_counter() - started)
    seconds["CLI, Parquet to /dev/null"] = cli
    for name, values in seconds.items():
        print(f"{name}: min {min(values):.3f} s, median {statistics.median(values):.3f} s, max {max(values):.3f} s")


if __name__ == "__main__":
    main()
