#!/usr/bin/env python3
"""`sonde kurtogram` in numpy/scipy: the peer for issue 47's speed figure (the kurtogram at
least 10x its numpy reference on the same grid).

    python3 Benchmarks/peers/kurtogram_numpy.py FILE --rate 48000 --channels 2 [--levels 6]
    python3 Benchmarks/peers/kurtogram_numpy.py --make-input /tmp/sonde-bearing-60s-48k-2ch.f32le

FILE is raw interleaved little-endian samples, float32 (.f32, .f32le, or --sample-type
f32le) or float64 (.f64, .f64le, --sample-type f64le). Per channel it does what the
binary does, with the reference of the tests (Tests/Fixtures/kurtogram/reference_kurtogram.py,
whole-array lfilter per node, written from docs/kurtogram-definition.md): the grid of
`levels` levels and its best cell, that cell's band signal, its squared-envelope spectrum
(Welch, the default segment length) and the strongest line above 2 bins. It prints the
binary's table (`channel,level,centre_hz,bandwidth_hz,kurtosis,envelope_line_hz`), so the
two outputs can be compared; the grid agrees with the binary's within 1e-9 relative
(KurtogramTests), so a kurtosis may differ in its last digits.

The timed region is the whole process (start-up, numpy/scipy import and reading the file
included), as for the binary. `--make-input PATH` writes the benchmark's input instead:
60 s at 48 kHz x 2 channels of float32 (23 MB; never commit it), from the fixtures'
generator: an outer-race fault at -10 dB on ch0 and an inner-race fault at -10 dB on ch1
(shaft 25 Hz, resonance 3 kHz, BPFO 3.58 and BPFI 5.42 x shaft).
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "Tests", "Fixtures", "kurtogram"))

import reference_kurtogram as R  # noqa: E402

TYPES = {"f32le": "<f4", "f32": "<f4", "f64le": "<f8", "f64": "<f8"}


def compact(value: float) -> str:
    """The binary's compactDescription: an integral value without '.0', else repr."""
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e15 else repr(float(value))


def envelope_line(c, rate):
    """The strongest bin of the squared-envelope spectrum in [2 resolution, rate / 2] (the
    first of equal ones), as the binary's `SquaredEnvelopeSpectrum.peak`."""
    f, p, nperseg = R.squared_envelope_spectrum(c, rate)
    resolution = rate / nperseg
    frequencies = np.arange(len(p)) * resolution
    inside = (frequencies >= 2 * resolution) & (frequencies <= rate / 2)
    if not np.any(inside):
        return None
    at = np.flatnonzero(inside)[np.argmax(p[inside])]
    return float(frequencies[at])


def make_input(path: str) -> None:
    import generate_kurtogram as G

    fs, duration = 48000.0, 60.0
    x = np.stack(
        [G.bearing_signal("outer", -10.0, 4701, fs=fs, duration=duration),
         G.bearing_signal("inner", -10.0, 4702, fs=fs, duration=duration)],
        axis=1,
    )
    x.astype("<f4").tofile(path)
    print(f"{path}: {x.shape[0]} frames x {x.shape[1]} channels at {fs:g} Hz, f32le")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?")
    parser.add_argument("--rate", type=float)
    parser.add_argument("--channels", type=int, default=1)
    parser.add_argument("--sample-type", choices=sorted(TYPES))
    parser.add_argument("--levels", type=int, default=6)
    parser.add_argument("--make-input", metavar="PATH")
    args = parser.parse_args()
    if args.make_input:
        make_input(args.make_input)
        return
    if args.file is None or args.rate is None:
        parser.error("FILE and --rate are required")
    kind = args.sample_type or os.path.splitext(args.file)[1].lstrip(".").lower()
    if kind not in TYPES:
        parser.error(f"{args.file}: give --sample-type f32le or f64le")
    samples = np.fromfile(args.file, dtype=TYPES[kind])
    samples = samples[: len(samples) - len(samples) % args.channels].reshape(-1, args.channels)
    print("channel,level,centre_hz,bandwidth_hz,kurtosis,envelope_line_hz")
    for channel in range(args.channels):
        x = samples[:, channel].astype(np.float64)
        rows, best = R.kurtogram(x, args.rate, args.levels)
        c, rate = R.band_signal(x, args.rate, best["row"], best["band"])
        line = envelope_line(c, rate)
        fields = [f"ch{channel}", compact(best["level"]), compact(best["centre_hz"]), compact(best["bandwidth_hz"]),
                  compact(best["kurtosis"]), "" if line is None else compact(line)]
        print(",".join(fields))


if __name__ == "__main__":
    main()
