#!/bin/sh
# What capturing from an instrument costs (issue 46): 8 channels at 48 kHz, 60 s of
# samples, streamed from a command device (`cat` of the raw file, as an acquisition
# program would write them) against `sonde stream --input` of the same file: the same
# graph, the same records, only the source differs. Both unpaced; farm-bench pairs them.
#
#   sh Benchmarks/live/instrument_cpu.sh .build/release/sonde [RUNS]
#
# The difference in CPU seconds over the 60 s of signal is the capture's share of one core
# at real time. The samples (92 MB) are written to a temporary folder and removed.
set -eu
SONDE=$(realpath "$1")
RUNS=${2:-5}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 - "$WORK/signal.f32" <<'PY'
import math, struct, sys
rate, channels, seconds = 48000, 8, 60
with open(sys.argv[1], "wb") as out:
    block = 4800
    for start in range(0, rate * seconds, block):
        values = []
        for n in range(start, start + block):
            t = n / rate
            values.extend(math.sin(2 * math.pi * (100 + 50 * c) * t) * (0.5 + 0.05 * c) for c in range(channels))
        out.write(struct.pack(f"<{len(values)}f", *values))
PY
export SONDE_HOME="$WORK/home"
"$SONDE" device pair --command "cat '$WORK/signal.f32'" --rate 48000 --channels 8 --sample-type f32le >/dev/null
farm-bench -n "$RUNS" --timeout 1200 \
    --vs "$SONDE stream --input $WORK/signal.f32 --rate 48000 --channels 8 --sample-type f32le" \
    -- "$SONDE" stream
