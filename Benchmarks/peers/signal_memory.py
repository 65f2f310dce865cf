#!/usr/bin/env python3
"""`sonde.Measurer.process_signal` on a long array: memory beyond the array and the result.

    python3 Benchmarks/peers/signal_memory.py --sonde .build/release/sonde [--minutes 10] [--rate 51200] [--channels 4]

Makes the array first (float64, as numpy gives it), notes the Python process's RSS, runs
`process_signal`, and prints the Python process's peak RSS over that baseline (the package
streams the array through standard input a chunk at a time), the result's size in memory
and the time. Issue 32 asks for bounded memory beyond the array and the result: the figure
to read is "python beyond array + result". The sonde process's own peak is not read here
(`RUSAGE_CHILDREN` counts the forked child's copy of this process before it runs sonde):
`/usr/bin/time -f %M sonde process - --sample-type f64le ...` on the same samples gives it.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import sonde  # noqa: E402


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sonde", required=True)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--rate", type=float, default=51200)
    parser.add_argument("--channels", type=int, default=4)
    args = parser.parse_args()
    os.environ["SONDE_BIN"] = os.path.abspath(args.sonde)
    frames = int(args.minutes * 60 * args.rate)
    rng = np.random.default_rng(32)
    signal = rng.standard_normal((frames, args.channels))
    signal += np.sin(2 * np.pi * 120 * np.arange(frames) / args.rate)[:, np.newaxis]
    baseline = rss_mib()
    peak = [baseline]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], rss_mib())
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.perf_counter()
    frame = sonde.Measurer(features=["rms", "kurtosis", "dominant_frequency"], window=1024, hop=512).process_signal(
        signal, sampling_rate=args.rate, num_workers=2)
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    result_mib = frame.memory_usage(deep=True).sum() / 2**20 + frame.index.memory_usage(deep=True) / 2**20
    print(f"array: {frames} frames x {args.channels} channels float64, {signal.nbytes / 2**20:.0f} MiB")
    print(f"result: {len(frame)} rows, {result_mib:.1f} MiB")
    print(f"python RSS: {baseline:.0f} MiB with the array, peak {peak[0]:.0f} MiB during process_signal")
    print(f"python beyond array + result: {peak[0] - baseline - result_mib:.1f} MiB")
    print(f"time: {seconds:.2f} s ({frames * args.channels / seconds / 1e6:.0f} M samples/s)")


if __name__ == "__main__":
    main()
