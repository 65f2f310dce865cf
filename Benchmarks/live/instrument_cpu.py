"""What capturing from an instrument costs (issue 46): 8 channels at 48 kHz, 60 s of samples,
on the same options both ways. `sonde stream` picks its graph's options from its source: a
real instrument (and a replay at real time, `--input FILE --realtime`) gets the live ones,
small blocks and one record per write so that records leave as soon as their window ends;
a file read as fast as possible gets the batch ones. So the two set-ups, run in turn
(A B A B ...), both at real time with the live options and the same records:

  device  a command device: `paced_writer.py --source FILE` writes the file's samples at
          real time, one 10 ms period (480 frames) per write, and `sonde stream` reads them
          (start the command, poll and read the pipe, decode f32le);
  file    `sonde stream --input FILE --realtime`: the same samples replayed from the file at
          real time by sonde's own clock (it reads about 1 ms of samples at a time).

CPU from the kernel's accounting of each finished child (getrusage); the device's figure
leaves out the writer's own CPU (it reports it: the acquisition program is not sonde's
cost). Medians and the pairwise difference; the difference in CPU seconds over the
seconds of signal is the capture's share of one core at real time. Each run lasts as long
as its signal (60 s), so the default 5 pairs take 10 minutes.

    python Benchmarks/live/instrument_cpu.py .build/release/sonde [--runs 5] [--seconds 60]

The samples (92 MB for 60 s) are written to a temporary folder and removed.
"""

import argparse
import json
import math
import os
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RATE, CHANNELS, PERIOD = 48_000, 8, 480


def write_samples(path, seconds):
    with open(path, "wb") as out:
        block = 4800
        for start in range(0, RATE * seconds, block):
            values = []
            for n in range(start, start + block):
                t = n / RATE
                values.extend(math.sin(2 * math.pi * (100 + 50 * c) * t) * (0.5 + 0.05 * c) for c in range(CHANNELS))
            out.write(struct.pack(f"<{len(values)}f", *values))


def timed(command, environment, writer_log=None):
    """(wall s, CPU s) of `command`, less the CPU the writer reported in `writer_log` (its
    usage is counted in sonde's children, which are counted in ours)."""
    if writer_log and os.path.exists(writer_log):
        os.remove(writer_log)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    subprocess.run(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if writer_log:
        with open(writer_log) as log:
            cpu -= json.load(log)["cpu_s"]
    return wall, cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=60, help="of signal per run (each run lasts as long)")
    arguments = parser.parse_args()
    seconds = arguments.seconds
    sonde = os.path.abspath(arguments.binary)
    work = tempfile.mkdtemp(prefix="sonde-instrument-cpu-")
    try:
        samples = os.path.join(work, "signal.f32")
        write_samples(samples, seconds)
        environment = dict(os.environ, SONDE_HOME=os.path.join(work, "home"))
        log = os.path.join(work, "writer.json")
        writer = (f"exec '{sys.executable}' '{os.path.join(HERE, 'paced_writer.py')}' --rate {RATE} --channels "
                  f"{CHANNELS} --period {PERIOD} --source '{samples}' --log '{log}'")
        subprocess.run([sonde, "device", "pair", "--command", writer, "--rate", str(RATE), "--channels",
                        str(CHANNELS), "--sample-type", "f32le"], env=environment, check=True,
                       stdout=subprocess.DEVNULL)
        device = [sonde, "stream"]
        file = [sonde, "stream", "--input", samples, "--rate", str(RATE), "--channels", str(CHANNELS),
                "--sample-type", "f32le", "--realtime"]
        same = [subprocess.run(command, env=environment, capture_output=True, check=True).stdout.count(b"\n")
                for command in (device, file)]
        if same[0] != same[1]:
            raise RuntimeError(f"the device gave {same[0]} records, the file {same[1]}: not the same work")
        pairs = [(timed(device, environment, log), timed(file, environment)) for _ in range(arguments.runs)]
        cpu_device = [a[1] for a, _ in pairs]
        cpu_file = [b[1] for _, b in pairs]
        extra = [a[1] - b[1] for a, b in pairs]
        print(f"{same[0]} records each way, {seconds} s of signal per run")
        print(f"command device: cpu median {statistics.median(cpu_device):.3f} s (min {min(cpu_device):.3f}, "
              f"max {max(cpu_device):.3f}), wall median {statistics.median(a[0] for a, _ in pairs):.3f} s")
        print(f"file, realtime: cpu median {statistics.median(cpu_file):.3f} s (min {min(cpu_file):.3f}, "
              f"max {max(cpu_file):.3f}), wall median {statistics.median(b[0] for _, b in pairs):.3f} s")
        share = statistics.median(extra) / seconds * 100
        print(f"capture's extra CPU, pair by pair: median {statistics.median(extra):+.3f} s over {seconds} s of "
              f"signal = {share:+.2f}% of one core at real time ({arguments.runs} pairs)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
