"""An acquisition program for benchmarks of a command device (issue 46): writes raw f32le
samples to stdout paced to real time, one period of all channels each time a period's
last sample is due (as a sound card's driver hands over a period), and notes when.

    paced_writer.py --rate 48000 --channels 8 --period 480 [--source FILE] [--log FILE]

Without --source it writes 1 s of sines (each channel its own tone) over and over until it
is ended (SIGTERM, as sonde ends a command at the capture's end, or a closed pipe); with
--source it writes that raw f32le file once, at real time, then exits 0.

--log FILE receives, at exit, JSON: `t0_ns` (CLOCK_MONOTONIC, as sonde's clock, when the
first sample was taken: sample n is due at t0_ns + (n + 1) / rate s), `writes` ([frames
written so far, monotonic ns just before that write], one per period), and `cpu_s` (this
process's own CPU time, for a benchmark to subtract: the program is not sonde's cost).
"""

import argparse
import json
import math
import os
import resource
import signal
import struct
import sys
import time


def sines(rate, channels):
    """1 s of interleaved f32le, a whole number of cycles per channel (it loops cleanly)."""
    values = []
    for n in range(rate):
        values.extend(0.5 * math.sin(2 * math.pi * (100 + 50 * c) * n / rate) for c in range(channels))
    return struct.pack(f"<{len(values)}f", *values)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=int, required=True)
    parser.add_argument("--channels", type=int, required=True)
    parser.add_argument("--period", type=int, required=True, help="frames per write")
    parser.add_argument("--source", help="a raw f32le file to write once, instead of looping sines")
    parser.add_argument("--log", help="where to write the JSON of write times and CPU at exit")
    options = parser.parse_args()
    # sonde ends the command with SIGTERM at the capture's end: leave through `finally`.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    frame_bytes = 4 * options.channels
    period_bytes = options.period * frame_bytes
    period_ns = options.period * 1_000_000_000 // options.rate
    source = open(options.source, "rb") if options.source else None
    loop = None if source else sines(options.rate, options.channels)
    out = os.fdopen(1, "wb", buffering=0)
    writes = []
    frames = 0
    t0 = time.monotonic_ns()
    try:
        while True:
            if source:
                chunk = source.read(period_bytes)
                if len(chunk) < frame_bytes:
                    break
                chunk = chunk[:len(chunk) - len(chunk) % frame_bytes]
            else:
                start = (frames * frame_bytes) % len(loop)
                chunk = (loop[start:] + loop)[:period_bytes] if start + period_bytes > len(loop) \
                    else loop[start:start + period_bytes]
            count = len(chunk) // frame_bytes
            due = t0 + (frames + count) * 1_000_000_000 // options.rate
            wait = due - time.monotonic_ns()
            if wait > 0:
                time.sleep(wait / 1e9)
            writes.append((frames + count, time.monotonic_ns()))
            view = memoryview(chunk)
            while view:
                view = view[out.write(view):]
            frames += count
    except (BrokenPipeError, SystemExit):
        pass
    finally:
        if options.log:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            with open(options.log, "w") as log:
                json.dump({"t0_ns": t0, "period_ns": period_ns, "writes": writes,
                           "cpu_s": usage.ru_utime + usage.ru_stime}, log)


if __name__ == "__main__":
    main()
