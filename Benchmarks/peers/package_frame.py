#!/usr/bin/env python3
"""The package's own share of a call: reading sonde's Parquet and building the DataFrame.

    sonde process DATA --format parquet --compression none -o records.parquet [options]
    python3 Benchmarks/peers/package_frame.py records.parquet [--calls 5] [--window 1024]

Times `read_records` and `to_frame` (what `Measurer` does after the binary exits), in
this fresh process: the first call (with what pyarrow and pandas set up on first use) and
the later ones. Run it with a checkout's `python/` before and after a change to compare.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
from sonde import _frames  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("parquet")
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--window", type=int, default=1024)
    args = parser.parse_args()
    with open(args.parquet, "rb") as handle:
        data = handle.read()

    def no_rate(name):
        raise SystemExit(f"{name}: an input of one window; time a dataset whose inputs give two or more")

    print("call  read_s  frame_s  rows")
    for call in range(1, args.calls + 1):
        began = time.perf_counter()
        table = _frames.read_records(data)
        read = time.perf_counter() - began
        began = time.perf_counter()
        frame = _frames.to_frame(table, args.window, None, no_rate)
        built = time.perf_counter() - began
        print(f"{call:4d}  {read:6.3f}  {built:7.3f}  {len(frame)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
