#!/usr/bin/env python3
"""The numpy/scipy peer (features_numpy.py's vectorised feature code) over a dataset of
WAV clips: the folder is walked in sonde's order (byte order of the names at each level),
each clip is read with scipy.io.wavfile, scaled to float64 as libsndfile does (PCM16 /
32768), filtered and measured with one batched rfft per block of frames.

    python3 Benchmarks/peers/features_numpy_dataset.py DATA [--filter highpass:10:4] [--bands 0-1000,...]

The timed region is everything from the walk to the last clip's features; no output is
written (as features_numpy.py: the figure is the peer's compute speed). Prints samples/s,
files/s and the per-file time.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

import numpy as np
import scipy.io.wavfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from features_numpy import Stream, parse_bands, tune_malloc  # noqa: E402


def walk(folder: str) -> list[str]:
    """sonde's walk: depth first, entries in byte order, hidden names skipped."""
    paths = []
    for name in sorted(os.listdir(folder), key=lambda n: n.encode()):
        if name.startswith("."):
            continue
        path = os.path.join(folder, name)
        if os.path.isdir(path):
            paths += walk(path)
        elif name.lower().endswith(".wav"):
            paths.append(path)
    return paths


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--window", type=int, default=1024)
    ap.add_argument("--hop", type=int)
    ap.add_argument("--filter", action="append", default=[])
    ap.add_argument("--bands")
    ap.add_argument("--block", type=int, default=256)
    args = ap.parse_args()
    hop = args.hop or args.window // 2
    bands = parse_bands(args.bands)
    tune_malloc()
    began = time.perf_counter()
    paths = walk(args.folder)
    total = frames = 0
    for path in paths:
        rate, data = scipy.io.wavfile.read(path)
        if data.ndim == 1:
            data = data[:, None]
        samples = data.astype(np.float64) / 32768.0 if data.dtype == np.int16 else data.astype(np.float64)
        stream = Stream(samples.shape[1], float(rate), args.window, hop, args.filter, bands, args.block)
        stream.push(samples)
        frames += sum(len(v) for v in stream.results())
        total += samples.size
    elapsed = time.perf_counter() - began
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"numpy {np.__version__}: {len(paths)} files, {total} samples, {frames} frame-channels in {elapsed:.3f} s = "
          f"{total / elapsed / 1e6:.2f} M samples/s, {elapsed / max(1, len(paths)) * 1e6:.0f} us per file, peak RSS {peak_mib:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
