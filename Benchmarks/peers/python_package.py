#!/usr/bin/env python3
"""`import sonde` against the CLI it runs and against librosa, over one dataset (issue 32).

    python3 Benchmarks/peers/python_package.py DATA --sonde .build/release/sonde [--rounds 3]

Each round, in turn:
- the CLI: `sonde process DATA` with the columns below, Parquet to /dev/null;
- the package: `sonde.Measurer(...).process_folder(DATA)`, the DataFrame built;
- librosa computing the same columns per clip (rms, zero-crossing rate, spectral
  centroid, bandwidth, rolloff, flatness, 40 mel levels, 13 MFCCs; frames of N = 1024,
  H = 512, not centred, as sonde frames them), clips read with soundfile.

Prints each round's seconds and the two ratios the issue asks for: package / CLI (target
at most 1.2) and librosa / package (target at least 10), then each column's median.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import librosa
import numpy as np
import soundfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
import sonde  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from features_numpy_dataset import walk  # noqa: E402  (sonde's order, as the numpy peer walks)

FEATURES = ["rms", "zero_crossing_rate", "spectral_centroid", "spectral_bandwidth", "spectral_rolloff", "spectral_flatness"]
N, H, MEL, MFCC = 1024, 512, 40, 13


def librosa_columns(paths: list[str]) -> int:
    """The same columns with librosa, clip by clip; returns the number of frames measured."""
    frames = 0
    for path in paths:
        y, rate = soundfile.read(path, dtype="float64", always_2d=True)
        for channel in y.T:
            S = np.abs(librosa.stft(channel, n_fft=N, hop_length=H, center=False, window="hann"))
            librosa.feature.rms(S=S, frame_length=N)
            librosa.feature.zero_crossing_rate(channel, frame_length=N, hop_length=H, center=False)
            librosa.feature.spectral_centroid(S=S, sr=rate)
            librosa.feature.spectral_bandwidth(S=S, sr=rate)
            librosa.feature.spectral_rolloff(S=S, sr=rate)
            librosa.feature.spectral_flatness(S=S)
            mel = librosa.feature.melspectrogram(S=S**2, sr=rate, n_mels=MEL)
            librosa.feature.mfcc(S=librosa.power_to_db(mel), n_mfcc=MFCC)
            frames += S.shape[1]
    return frames


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--sonde", required=True, help="the sonde binary (a release build)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    args = parser.parse_args()

    measurer = sonde.Measurer(features=FEATURES, window=N, hop=H, mel=MEL, mfcc=MFCC, sonde_bin=args.sonde)
    command = [args.sonde, "process", args.folder, *measurer.options(), "--jobs", str(args.jobs)]
    command += ["--format", "parquet", "--quiet", "-o", "/dev/null"]
    paths = walk(args.folder)
    print(f"{len(paths)} clips; columns: {', '.join(FEATURES)}, mel 1..{MEL}, mfcc 1..{MFCC}; jobs {args.jobs}")
    print("round  cli_s  package_s  librosa_s  package/cli  librosa/package")
    rounds: list[tuple[float, float, float, float, float]] = []
    for round_number in range(1, args.rounds + 1):
        began = time.perf_counter()
        subprocess.run(command, check=True)
        cli = time.perf_counter() - began

        began = time.perf_counter()
        frame = measurer.process_folder(args.folder, num_workers=args.jobs)
        package = time.perf_counter() - began

        began = time.perf_counter()
        librosa_frames = librosa_columns(paths)
        peer = time.perf_counter() - began
        assert librosa_frames == len(frame), f"librosa measured {librosa_frames} frames, sonde {len(frame)}"
        print(f"{round_number:5d}  {cli:5.2f}  {package:9.2f}  {peer:9.2f}  {package / cli:11.2f}  {peer / package:15.1f}")
        rounds.append((cli, package, peer, package / cli, peer / package))
    # Each column's median over the rounds: a round's 0.4 s runs move with the machine's
    # load by a fifth either way, librosa's 5 s one averages over it.
    cli, package, peer, over_cli, over_package = (statistics.median(column) for column in zip(*rounds))
    print(f"median {cli:5.2f}  {package:9.2f}  {peer:9.2f}  {over_cli:11.2f}  {over_package:15.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
