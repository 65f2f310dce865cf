"""Sample-to-record latency of a command device (issue 46's goal: p99 under one period plus
10 ms): `paced_writer.py` writes 8 channels at 48 kHz of f32le paced to real time, one
10 ms period (480 frames) per write, as a sound card's driver would hand them over; it is
paired with `sonde device pair --command` and `sonde stream --stats` records for 20 s.

    python Benchmarks/live/instrument_latency.py .build/release/sonde [--seconds 20] [--period 480]
        [--features rms,peak] [--runs 1]

Three latencies per record (each record's window ends at sample frame * hop + window - 1):

- sample:  from the moment that sample was taken (the writer's clock: it is due at
           t0 + (n + 1) / rate) to the record's line read from sonde's stdout here. This is
           the issue's sample-to-record latency: it includes the wait for the rest of the
           sample's period (up to one period) and the pipe to this script. Goal: p99 under
           period + 10 ms.
- write:   from the writer's write() of the period holding that sample to the line read here.
- summary: `sonde stream --stats`'s own figure, from the sonde read that returned the sample
           (CommandCaptureSource.read, timed by the unpaced LiveClockSource's ArrivalLog) to
           the record written. It starts when sonde took the bytes from the pipe, not when the
           command wrote them: time the bytes wait in the pipe while sonde's reader is busy
           is not in it (the `write` column has it).

All clocks are CLOCK_MONOTONIC (Python's time.monotonic_ns, sonde's MonotonicClock). The
first second of records (start-up) is left out of the percentiles and reported apart.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RATE, CHANNELS = 48_000, 8
SUMMARY = re.compile(r"(\d+) records, (\d+) samples per channel, (\d+) dropped, .*latency p50 ([\d.]+) ms, "
                     r"p99 ([\d.]+) ms, p99.9 ([\d.]+) ms over (\d+) records")


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run_once(sonde, work, options):
    log = os.path.join(work, "writes.json")
    if os.path.exists(log):
        os.remove(log)
    environment = dict(os.environ, SONDE_HOME=os.path.join(work, "home"))
    command = (f"exec '{sys.executable}' '{os.path.join(HERE, 'paced_writer.py')}' --rate {RATE} "
               f"--channels {CHANNELS} --period {options.period} --log '{log}'")
    subprocess.run([sonde, "device", "pair", "--command", command, "--rate", str(RATE), "--channels",
                    str(CHANNELS), "--sample-type", "f32le"], env=environment, check=True, stdout=subprocess.DEVNULL)
    arguments = [sonde, "stream", "--stats", "--duration", f"{options.seconds}s", "--window", str(options.window),
                 "--hop", str(options.hop), "--format", "ndjson"]
    if options.features:
        arguments += ["--features", options.features]
    process = subprocess.Popen(arguments, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stderr = []
    threading.Thread(target=lambda: stderr.append(process.stderr.read().decode()), daemon=True).start()
    arrivals = []  # (window's last sample, monotonic ns the line was read)
    for line in process.stdout:
        now = time.monotonic_ns()
        frame = json.loads(line)["frame"]
        arrivals.append((frame * options.hop + options.window - 1, now))
    process.wait()
    time.sleep(0.2)
    summary = "".join(stderr).strip()
    if process.returncode != 0:
        raise RuntimeError(f"sonde stream exited {process.returncode}: {summary}")
    for _ in range(50):  # the writer writes its log as sonde ends it
        if os.path.exists(log) and os.path.getsize(log) > 0:
            break
        time.sleep(0.1)
    with open(log) as handle:
        writer = json.load(handle)
    t0, writes = writer["t0_ns"], writer["writes"]
    late = [at - (t0 + frames * 1_000_000_000 // RATE) for frames, at in writes]
    sample, write, startup = [], [], 0
    index = 0
    for last, read_at in arrivals:
        due = t0 + (last + 1) * 1_000_000_000 // RATE
        if due < t0 + 1_000_000_000:
            startup += 1
            continue
        while index < len(writes) and writes[index][0] <= last:
            index += 1
        if index == len(writes):
            continue
        sample.append((read_at - due) / 1e6)
        write.append((read_at - writes[index][1]) / 1e6)
    match = SUMMARY.search(summary)
    return {
        "records": len(arrivals), "startup": startup, "sample": sample, "write": write,
        "summary": match.groups() if match else None, "summary_line": summary.splitlines()[-1] if summary else "",
        "writer_late_p99_ms": percentile(late, 0.99) / 1e6, "writer_late_max_ms": max(late) / 1e6 if late else 0,
        "writer_cpu_s": writer["cpu_s"],
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--period", type=int, default=480, help="frames per write (480: 10 ms at 48 kHz)")
    parser.add_argument("--window", type=int, default=1024)
    parser.add_argument("--hop", type=int, default=512)
    parser.add_argument("--features", help="as sonde stream --features (default: stream's own default)")
    parser.add_argument("--runs", type=int, default=1)
    options = parser.parse_args()
    sonde = os.path.abspath(options.binary)
    period_ms = options.period / RATE * 1000
    goal = period_ms + 10
    work = tempfile.mkdtemp(prefix="sonde-instrument-latency-")
    worst = 0.0
    try:
        for run in range(1, options.runs + 1):
            result = run_once(sonde, work, options)
            sample, write = result["sample"], result["write"]
            print(f"run {run}: {result['records']} records ({result['startup']} in the first second left out); "
                  f"writer late p99 {result['writer_late_p99_ms']:.2f} ms, max {result['writer_late_max_ms']:.2f} ms, "
                  f"writer CPU {result['writer_cpu_s']:.2f} s")
            for name, values in (("sample", sample), ("write", write)):
                print(f"  {name:7} p50 {percentile(values, 0.5):7.2f} ms  p99 {percentile(values, 0.99):7.2f} ms  "
                      f"p99.9 {percentile(values, 0.999):7.2f} ms  max {max(values, default=float('nan')):7.2f} ms")
            if result["summary"]:
                _, _, dropped, p50, p99, p999, counted = result["summary"]
                print(f"  summary p50 {float(p50):7.2f} ms  p99 {float(p99):7.2f} ms  p99.9 {float(p999):7.2f} ms  "
                      f"({counted} records, {dropped} dropped)")
            else:
                print(f"  summary: {result['summary_line']!r}")
            worst = max(worst, percentile(sample, 0.99))
        verdict = "meets" if worst < goal else "misses"
        print(f"sample-to-record p99 {worst:.2f} ms (worst run) {verdict} the goal of one period + 10 ms = "
              f"{goal:.2f} ms")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
