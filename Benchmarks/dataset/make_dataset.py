#!/usr/bin/env python3
"""Writes a dataset of short clips in nested folders, as machine-sound and vibration
datasets come (never commit one; they are made on demand).

    python3 Benchmarks/dataset/make_dataset.py /tmp/sonde-clips                # 2,000 clips, 2 s, 16 kHz mono PCM16 WAV
    python3 Benchmarks/dataset/make_dataset.py /tmp/sonde-20k --files 20000 --seconds 0.25
    python3 Benchmarks/dataset/make_dataset.py /tmp/sonde-stereo --channels 2 --rate 51200

Layout: OUT/machine_MM/id_II/clip_NNNNNN.wav (10 machines, 10 ids each), so a folder
walk has to recurse two levels. Each clip is deterministic in its index (seed = index): a
machine-dependent fundamental with harmonics, an amplitude drift, a bearing-like tone and
noise. `--concatenate PATH` also writes every clip's samples, in the sorted walk's order,
as one raw f32le file: the "one big file holding the same samples" of issue 18.
"""

from __future__ import annotations

import argparse
import os
import sys
import wave

import numpy as np


def clip(index: int, frames: int, rate: float, channels: int) -> np.ndarray:
    """(frames, channels) float64 samples in [-1, 1)."""
    rng = np.random.default_rng(index)
    t = np.arange(frames) / rate
    out = np.empty((frames, channels))
    f0 = 50.0 * (1 + index % 10) + rng.uniform(-5, 5)
    for c in range(channels):
        x = np.zeros(frames)
        drift = 1.0 + 0.3 * np.sin(2 * np.pi * 0.5 * t + c)
        for h in range(1, 5):
            x += drift * np.sin(2 * np.pi * f0 * h * t + rng.uniform(0, np.pi)) / (h * h)
        x += 0.1 * np.sin(2 * np.pi * min(3200.0, rate / 3) * t)
        x += 0.05 * rng.standard_normal(frames)
        out[:, c] = 0.4 * x
    return out


def path_of(root: str, index: int) -> str:
    return os.path.join(root, f"machine_{index % 10:02d}", f"id_{(index // 10) % 10:02d}", f"clip_{index:06d}.wav")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="folder to create (must not exist)")
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rate", type=int, default=16000)
    ap.add_argument("--channels", type=int, default=1)
    ap.add_argument("--concatenate", help="also write every clip's samples, walk order, as one raw f32le file")
    args = ap.parse_args()
    if os.path.exists(args.out):
        print(f"error: {args.out} exists; choose a new folder", file=sys.stderr)
        return 1
    frames = int(round(args.seconds * args.rate))
    paths = [path_of(args.out, i) for i in range(args.files)]
    for index, path in enumerate(paths):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        pcm = np.clip(np.round(clip(index, frames, args.rate, args.channels) * 32768), -32768, 32767).astype("<i2")
        with wave.open(path, "wb") as w:
            w.setnchannels(args.channels)
            w.setsampwidth(2)
            w.setframerate(args.rate)
            w.writeframes(pcm.tobytes())
    if args.concatenate:
        # The same samples as the clips (PCM16 / 32768, exactly as libsndfile reads them).
        with open(args.concatenate, "wb") as out:
            for index in sorted(range(args.files), key=lambda i: paths[i]):
                pcm = np.clip(np.round(clip(index, frames, args.rate, args.channels) * 32768), -32768, 32767)
                out.write((pcm / 32768.0).astype("<f4").tobytes())
    print(f"wrote {args.files} clips of {frames} frames x {args.channels} ch to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
