#!/usr/bin/env python3
"""Writes the workload files of issue 6's comparison (never commit them).

    python3 Benchmarks/peers/make_input.py                      # 2 ch, 51.2 kHz, raw f32le, 50 M samples/channel (400 MB)
    python3 Benchmarks/peers/make_input.py --samples 5000000    # a smaller one (40 MB)
    python3 Benchmarks/peers/make_input.py --format csv --samples 37000000   # ~750 MB 2-column CSV

The signal is vibration-like and deterministic (fixed seed): gravity offset, a 500 Hz
fundamental with harmonics whose amplitude drifts slowly, a 3.2 kHz bearing tone, and
noise. Raw files are interleaved little-endian float32; CSV files have an `ax,ay` header
and six decimals per value. Written in blocks, so memory stays small whatever the size.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

BLOCK = 1 << 20  # frames generated at a time


def block(start: int, count: int, rate: float, channels: int, rng: np.random.Generator) -> np.ndarray:
    """(count, channels) float64 samples for frames start..start+count."""
    t = (start + np.arange(count)) / rate
    out = np.empty((count, channels))
    for c in range(channels):
        f0 = 500.0 + 7.0 * c
        x = np.full(count, 9.81 if c % 2 == 0 else -0.35)
        drift = 1.0 + 0.3 * np.sin(2 * np.pi * 0.25 * t + c)
        for h in range(1, 6):
            x += drift * np.sin(2 * np.pi * f0 * h * t) / (h * h)
        x += 0.2 * np.sin(2 * np.pi * 3200.0 * t)
        x += 0.05 * rng.standard_normal(count)
        out[:, c] = x
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", nargs="?", help="output file (default: /tmp/sonde-workload-<ch>ch-<rate>.<ext>)")
    ap.add_argument("--samples", type=int, default=50_000_000, help="samples per channel (50,000,000)")
    ap.add_argument("--channels", type=int, default=2)
    ap.add_argument("--rate", type=float, default=51200.0)
    ap.add_argument("--format", choices=("f32le", "csv"), default="f32le")
    ap.add_argument("--seed", type=int, default=6)
    args = ap.parse_args()

    ext = "f32le" if args.format == "f32le" else "csv"
    path = args.path or f"/tmp/sonde-workload-{args.channels}ch-{int(args.rate)}.{ext}"
    rng = np.random.default_rng(args.seed)
    began = time.perf_counter()
    tmp = path + ".partial"
    with open(tmp, "wb") as out:
        if args.format == "csv":
            names = ["ax", "ay", "az"][: args.channels] if args.channels <= 3 else [f"ch{c}" for c in range(args.channels)]
            out.write((",".join(names) + "\n").encode())
        for start in range(0, args.samples, BLOCK):
            count = min(BLOCK, args.samples - start)
            x = block(start, count, args.rate, args.channels, rng)
            if args.format == "f32le":
                out.write(x.astype("<f4").tobytes())
            else:
                row = ",".join(["{:.6f}"] * args.channels) + "\n"
                out.write("".join(row.format(*r) for r in x.tolist()).encode())
    os.replace(tmp, path)
    size = os.path.getsize(path)
    print(f"wrote {path}: {args.samples} samples x {args.channels} channels, {size / 1e6:.1f} MB "
          f"in {time.perf_counter() - began:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
