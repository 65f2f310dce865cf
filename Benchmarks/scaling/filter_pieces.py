#!/usr/bin/env python3
"""Why a filtered channel stays one pass (docs/performance.md, issue 30 item 3).

Filters a signal the way pieces side by side would: the state at each piece's start rebuilt
from the samples just before it (scipy's sosfilt from zero state over a warm-up long enough
that the carried state's weight, ||A^n||, is under 2^-64), then compares every frame's
`mean` with one pass of sosfilt, against docs/features.md's tolerance for `mean`
(1e-4 * |mean| + 1e-9 * the frame's peak). Independent of sonde: numpy and scipy only.

    .build/test-venv/bin/python Benchmarks/scaling/filter_pieces.py
"""

from __future__ import annotations

import numpy as np
import scipy.signal

FS = 25_600.0
N, HOP = 1024, 512
PIECE = 1 << 19


def settling(sos: np.ndarray) -> int:
    """Samples of zero input that take the cascade's state under 2^-64 of itself."""
    sections = len(sos)
    size = 2 * sections
    a = np.zeros((size, size))
    for unit in range(size):
        state = np.zeros(size)
        state[unit] = 1.0
        nxt = np.zeros(size)
        u = 0.0
        for s in range(sections):
            b0, b1, b2, _, a1, a2 = sos[s]
            y = b0 * u + state[2 * s]
            nxt[2 * s] = b1 * u - a1 * y + state[2 * s + 1]
            nxt[2 * s + 1] = b2 * u - a2 * y
            u = y
        a[:, unit] = nxt
    n = 1
    while np.abs(a).sum(axis=1).max() > 2.0**-64:
        a = a @ a
        n *= 2
    return n


def in_pieces(sos: np.ndarray, x: np.ndarray, warm_up: int) -> np.ndarray:
    """One pass up to the first restart, then each piece from a state rebuilt from zero."""
    y = np.empty_like(x)
    starts = list(range(PIECE, len(x), PIECE))
    bounds = [0] + starts + [len(x)]
    zero = np.zeros((len(sos), 2))
    for k in range(len(bounds) - 1):
        start, end = bounds[k], bounds[k + 1]
        zi = zero if start == 0 else scipy.signal.sosfilt(sos, x[start - warm_up : start], zi=zero)[1]
        y[start:end] = scipy.signal.sosfilt(sos, x[start:end], zi=zi)[0]
    return y


def main() -> None:
    sos = scipy.signal.butter(4, 10, "highpass", fs=FS, output="sos")
    warm_up = settling(sos)
    n = 3_000_000
    t = np.arange(n) / FS
    rng = np.random.default_rng(3)
    signals = {
        "9.81 + 0.01 sin(97.3 Hz) + noise 1e-3": 9.81 + 0.01 * np.sin(2 * np.pi * 97.3 * t) + 1e-3 * rng.standard_normal(n),
        "101325 + 10 sin(97.3 Hz) + noise 0.3": 101325 + 10 * np.sin(2 * np.pi * 97.3 * t) + 0.3 * rng.standard_normal(n),
        "sin(97.3 Hz) + noise 0.1": np.sin(2 * np.pi * 97.3 * t) + 0.1 * rng.standard_normal(n),
        "9.81 + 0.01 sin(100 Hz) + noise 1e-6": 9.81 + 0.01 * np.sin(2 * np.pi * 100 * t) + 1e-6 * rng.standard_normal(n),
        "101325 + 10 sin(100 Hz), no noise": 101325 + 10 * np.sin(2 * np.pi * 100 * t),
    }
    print(f"highpass:10:4 at {FS:g} Hz: warm-up {warm_up} samples, pieces of {PIECE}")
    print("| signal | max sample deviation | frames whose `mean` is beyond the tolerance | worst |diff| / tolerance |")
    print("|---|---|---|---|")
    for name, x in signals.items():
        one = scipy.signal.sosfilt(sos, x)
        pieces = in_pieces(sos, x, warm_up)
        frames = np.lib.stride_tricks.sliding_window_view(one, N)[::HOP]
        frames_p = np.lib.stride_tricks.sliding_window_view(pieces, N)[::HOP]
        want = frames.mean(axis=1)
        got = frames_p.mean(axis=1)
        peak = np.abs(frames).max(axis=1)
        peak[peak == 0] = 1.0
        ratio = np.abs(got - want) / (1e-4 * np.abs(want) + 1e-9 * peak)
        print(f"| {name} | {np.abs(pieces - one).max():.2g} | {int((ratio > 1).sum())} | {ratio.max():.2g} |")


if __name__ == "__main__":
    main()
