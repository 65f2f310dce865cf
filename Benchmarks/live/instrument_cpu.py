"""What capturing from an instrument costs (issue 46): 8 channels at 48 kHz, 60 s of samples,
streamed from a command device (`cat` of the raw file, as an acquisition program would
write them) against `sonde stream --input` of the same file: the same graph and records,
only the source differs. Both unpaced, run in turn (A B A B ...), CPU from the kernel's
accounting of each finished child (getrusage), medians and the pairwise difference.

    python Benchmarks/live/instrument_cpu.py .build/release/sonde [--runs 5]

The difference in CPU seconds over the 60 s of signal is the capture's share of one core at
real time. The samples (92 MB) are written to a temporary folder and removed.
"""

import argparse
import math
import os
import resource
import shutil
import statistics
import struct
import subprocess
import tempfile
import time

RATE, CHANNELS, SECONDS = 48_000, 8, 60


def write_samples(path):
    with open(path, "wb") as out:
        block = 4800
        for start in range(0, RATE * SECONDS, block):
            values = []
            for n in range(start, start + block):
                t = n / RATE
                values.extend(math.sin(2 * math.pi * (100 + 50 * c) * t) * (0.5 + 0.05 * c) for c in range(CHANNELS))
            out.write(struct.pack(f"<{len(values)}f", *values))


def timed(command, environment):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    subprocess.run(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    sonde = os.path.abspath(arguments.binary)
    work = tempfile.mkdtemp(prefix="sonde-instrument-cpu-")
    try:
        samples = os.path.join(work, "signal.f32")
        write_samples(samples)
        environment = dict(os.environ, SONDE_HOME=os.path.join(work, "home"))
        subprocess.run([sonde, "device", "pair", "--command", f"cat '{samples}'", "--rate", str(RATE), "--channels",
                        str(CHANNELS), "--sample-type", "f32le"], env=environment, check=True,
                       stdout=subprocess.DEVNULL)
        device = [sonde, "stream"]
        file = [sonde, "stream", "--input", samples, "--rate", str(RATE), "--channels", str(CHANNELS),
                "--sample-type", "f32le"]
        timed(device, environment)
        timed(file, environment)
        pairs = [(timed(device, environment), timed(file, environment)) for _ in range(arguments.runs)]
        cpu_device = [a[1] for a, _ in pairs]
        cpu_file = [b[1] for _, b in pairs]
        extra = [a[1] - b[1] for a, b in pairs]
        print(f"command device: cpu median {statistics.median(cpu_device):.3f} s (min {min(cpu_device):.3f}, "
              f"max {max(cpu_device):.3f}), wall median {statistics.median(a[0] for a, _ in pairs):.3f} s")
        print(f"same file:      cpu median {statistics.median(cpu_file):.3f} s (min {min(cpu_file):.3f}, "
              f"max {max(cpu_file):.3f}), wall median {statistics.median(b[0] for _, b in pairs):.3f} s")
        share = statistics.median(extra) / SECONDS * 100
        print(f"capture's extra CPU, pair by pair: median {statistics.median(extra):+.3f} s over {SECONDS} s of "
              f"signal = {share:+.2f}% of one core at real time ({arguments.runs} pairs)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
