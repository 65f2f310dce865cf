#!/usr/bin/env python3
"""What reading a container costs (issue 45's goal: a 1 GiB v7.3/HDF5 or TDMS recording at
least 80% of the throughput of the same samples as raw f64, peak memory under 150 MiB).

Writes the same float64 samples (CHANNELS channels, a deterministic vibration-like signal)
four times in a temporary folder: raw interleaved f64, HDF5 (h5py, one chunked 2-D dataset,
samples x channels), a MATLAB v7.3 file (HDF5 with MATLAB's 512-byte userblock and
MATLAB_class, chunked, uncompressed, as `save -v7.3 -nocompression` keeps a large array) and
TDMS (npTDMS, one segment per block, channels contiguous), then runs `sonde process` on each
container and on the raw file in alternating pairs (raw, container, raw, container, ...), each
run a child whose CPU time comes from the kernel's accounting of it (os.wait4's rusage) and
whose peak RSS from /usr/bin/time's (ru_maxrss of its child), with its output thrown away. Prints per format the median wall and CPU seconds,
throughput (MB of f64 samples per second of wall time), the ratio container/raw of the
throughput in wall and CPU time, and the largest peak RSS. The files are removed afterwards,
whatever happens.

    python Benchmarks/containers/throughput.py .build/release/sonde [--gib 1] [--runs 3] [--features rms]

Needs numpy, h5py and npTDMS (Tests/requirements.txt). --gib is the size of each file's
samples (the temporary folder needs four times that, under $TMPDIR).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np
from nptdms import ChannelObject, GroupObject, RootObject, TdmsWriter

CHANNELS = 2
RATE = 51_200.0
BLOCK_FRAMES = 1 << 20  # frames written at a time: 16 MiB of samples for two channels
CHUNK_FRAMES = 1 << 16  # HDF5 chunks: 65,536 frames


def block(start, frames):
    """Frames start..<start+frames, frames x channels: 1g offset, 500 Hz and harmonics, a tone, noise."""
    t = (np.arange(start, start + frames) / RATE)[:, None]
    c = np.arange(CHANNELS)[None, :]
    rng = np.random.default_rng(start)
    x = 9.81 + 0.5 * np.sin(2 * np.pi * 500 * t + c) + 0.1 * np.sin(2 * np.pi * 1500 * t)
    x += 0.05 * np.sin(2 * np.pi * 3200 * t) + 0.01 * rng.standard_normal((frames, CHANNELS))
    return x


def blocks(total):
    for start in range(0, total, BLOCK_FRAMES):
        yield start, block(start, min(BLOCK_FRAMES, total - start))


def matlab_class(dataset, name):
    # A NUL-terminated string of exactly the name's length, as MATLAB writes it.
    tid = h5py.h5t.C_S1.copy()
    tid.set_size(len(name))
    tid.set_strpad(h5py.h5t.STR_NULLTERM)
    attr = h5py.h5a.create(dataset.id, b"MATLAB_class", tid, h5py.h5s.create(h5py.h5s.SCALAR))
    attr.write(np.array(name, dtype="S%d" % len(name)), mtype=tid)


def write_files(folder, frames):
    paths = {name: os.path.join(folder, name) for name in ["raw.f64", "data.h5", "data.mat", "data.tdms"]}
    with open(paths["raw.f64"], "wb") as raw, h5py.File(paths["data.h5"], "w") as h5, h5py.File(
        paths["data.mat"], "w", userblock_size=512, libver="earliest"
    ) as mat, TdmsWriter(paths["data.tdms"]) as tdms:
        signals = h5.create_dataset("signals", shape=(frames, CHANNELS), dtype="<f8", chunks=(min(CHUNK_FRAMES, frames), CHANNELS))
        signals.attrs["sample_rate"] = RATE
        # MATLAB stores its frames x channels array as a channels x frames dataset.
        x = mat.create_dataset("x", shape=(CHANNELS, frames), dtype="<f8", chunks=(CHANNELS, min(CHUNK_FRAMES, frames)))
        matlab_class(x, b"double")
        for start, values in blocks(frames):
            raw.write(values.astype("<f8").tobytes())
            signals[start : start + len(values)] = values
            x[:, start : start + len(values)] = values.T
            objects = [RootObject(), GroupObject("g")] if start == 0 else []
            for c in range(CHANNELS):
                properties = {"wf_increment": 1.0 / RATE} if start == 0 else {}
                objects.append(ChannelObject("g", "c%d" % c, np.ascontiguousarray(values[:, c]), properties))
            tdms.write_segment(objects)
    with open(paths["data.mat"], "r+b") as f:
        text = b"MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Sat Nov 28 00:00:00 2026 HDF5 schema 1.00 ."
        f.write(text.ljust(116) + b"\0" * 8 + b"\x00\x02IM")
    return paths


def timed(command, folder):
    """Wall seconds, CPU seconds (user + system) and peak RSS in MiB of one run of `command`.

    The peak RSS is /usr/bin/time's report of its own child: a child of this script would
    report this script's (the kernel keeps the largest RSS across the fork and exec, and
    numpy's blocks made it 191 MiB for every input). The CPU time is from os.wait4 on
    /usr/bin/time, whose rusage includes the child it waited for (its own is a few ms).
    """
    report = os.path.join(folder, "rss")
    started = time.monotonic()
    child = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", report] + command, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(command), child.returncode, stderr.decode(errors="replace")))
    with open(report) as f:
        peak_kib = int(f.read().split()[-1])
    return wall, usage.ru_utime + usage.ru_stime, peak_kib / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--gib", type=float, default=1.0, help="GiB of f64 samples in each file (default 1)")
    parser.add_argument("--runs", type=int, default=3, help="pairs per container (default 3)")
    parser.add_argument("--features", help="sonde's --features (default: sonde's); rms makes reading most of the work")
    arguments = parser.parse_args()
    sonde = os.path.abspath(arguments.binary)
    frames = int(arguments.gib * (1 << 30)) // (8 * CHANNELS)
    megabytes = frames * CHANNELS * 8 / 1e6
    folder = tempfile.mkdtemp(prefix="sonde-container-throughput-")
    try:
        started = time.monotonic()
        paths = write_files(folder, frames)
        print("%d frames x %d channels (%.0f MB of f64 each), written in %.0f s"
              % (frames, CHANNELS, megabytes, time.monotonic() - started))
        rate = ["--rate", repr(RATE)] + (["--features", arguments.features] if arguments.features else [])
        commands = {
            "raw f64": [sonde, "process", paths["raw.f64"], "--sample-type", "f64le", "--channels", str(CHANNELS)] + rate,
            "HDF5": [sonde, "process", paths["data.h5"], "--variables", "/signals"] + rate,
            "MAT v7.3": [sonde, "process", paths["data.mat"], "--variables", "x"] + rate,
            "TDMS": [sonde, "process", paths["data.tdms"], "--variables", ",".join("g/c%d" % c for c in range(CHANNELS))]
            + rate,
        }
        results = {name: [] for name in commands}
        for _ in range(arguments.runs):
            for name in ["HDF5", "MAT v7.3", "TDMS"]:
                results["raw f64"].append(timed(commands["raw f64"], folder))
                results[name].append(timed(commands[name], folder))
        raw_wall = statistics.median(r[0] for r in results["raw f64"])
        raw_cpu = statistics.median(r[1] for r in results["raw f64"])
        print("| input | runs | wall s (median) | CPU s (median) | MB/s (wall) | throughput vs raw, wall | "
              "vs raw, CPU | peak RSS MiB (max) |")
        print("|---|---|---|---|---|---|---|---|")
        for name, runs in results.items():
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            print("| %s | %d | %.2f | %.2f | %.0f | %.1f%% | %.1f%% | %.0f |"
                  % (name, len(runs), wall, cpu, megabytes / wall, 100 * raw_wall / wall, 100 * raw_cpu / cpu,
                     max(r[2] for r in runs)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
