#!/usr/bin/env python3
"""Fuzz harness for sonde (issue 23): mutated inputs and option values through the built
binary, failing on any crash, hang, partial output or NaN/Inf in an output.

Usage:
    python3 Tests/Fuzz/fuzz.py --binary .build/debug/sonde --budget 400        # make test
    python3 Tests/Fuzz/fuzz.py --binary .build/release/sonde --budget 100000   # make fuzz
    python3 Tests/Fuzz/fuzz.py --binary ... --seed 7 --only 1234               # one case again

Every case is derived from (--seed, case number) alone, so a reported case number replays
the same input and arguments with --only. The committed crash inputs in
Tests/Fuzz/regressions/*/case.json are replayed first, every run. A failing case is saved
under --save (Tests/Fuzz/crashes/ by default, not committed) as a folder with case.json and
its files; moving that folder to regressions/ makes it a regression fixture.

What is checked, per run (each a category of its own in the summary):
- crash: death by a signal, or a trap's or fatal error's text on stderr;
- hang: no exit within --timeout seconds (the process group is killed);
- nonfinite: NaN or Infinity in any value of any output (CSV cells, JSON numbers);
- malformed: a successful run whose -o file is missing or does not parse;
- partial-output: a failed run that left an -o file behind where there was none;
- temp-leftover: a `.sonde-tmp-*` file left in the output folder after the run.
The last two belong to the atomic-output work (OutputFile.swift); on a branch without it
they may fire, so --allow lists categories that are reported but do not fail the run.
Only the standard library is used, so `make test` needs python3 and nothing else.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import hashlib
import io
import json
import math
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FUZZ = os.path.join(ROOT, "Tests", "Fuzz")
REGRESSIONS = os.path.join(FUZZ, "regressions")
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "inputs")
SAMPLE_DATA = os.path.join(ROOT, "sample-data")

CATEGORIES = ["crash", "hang", "nonfinite", "malformed", "partial-output", "temp-leftover"]
CRASH_TEXT = re.compile(r"Fatal error|Program crashed|Precondition failed|Assertion failed|Backtrac|"
                        r"Swift runtime failure|Segmentation fault|failed to allocate")

# ---------------------------------------------------------------------------------------
# Interesting values

INTERESTING_FLOATS = [
    0.0, -0.0, 1.0, -1.0, 0.5, 1e-300, 5e-324, 2.2250738585072014e-308, 1e100, -1e100, 1.0000000000000002e100,
    1e101, 1e148, 1e155, 1e160, -1e200, 1e300, 1.7976931348623157e308, -1.7976931348623157e308, 3.4e38, 3.5e38,
    float("inf"), float("-inf"), float("nan"), 9.81, 32767.0, 2.0 ** 53, 2.0 ** 63,
]
INTERESTING_TEXT = [
    "nan", "NaN", "inf", "-inf", "Infinity", "1e400", "-1e400", "1e160", "1e155", "1e100", "1e101", "-1e308",
    "1.7976931348623157e308", "4.9e-324", "1e-400", "0x1p3", "", " ", "-", "+", ".", "e5", "1e", "1,5", "\"",
    "\"\"", "\"1\"", "\"1e160\"", "abc", "time", "t", "timestamp", "\r", "\n", "\r\n", "\x00", "\xff", "9" * 400,
    "0." + "0" * 330 + "1", "1" + "0" * 320, "-0", "+7", "1e-5", "123456789012345678901234567890",
]
INTERESTING_INTS = [0, 1, -1, 2, 3, 7, 15, 16, 17, 255, 256, 1023, 1024, 1025, 4096, 65535, 65536, 1 << 20,
                    (1 << 20) + 1, 1 << 24, 1 << 26, (1 << 26) + 1, 1 << 31, (1 << 31) - 1, 1 << 32, 1 << 40,
                    (1 << 62), (1 << 63) - 1, -(1 << 63), 10 ** 6, 10 ** 12, 10 ** 15, 10 ** 19, 10 ** 30]
INTERESTING_NUMBER_TEXT = ["0", "-0", "1", "-1", "-5", "0.5", "1e-9", "1e-10", "1e-307", "1e-320", "1e12", "1e13",
                           "1e307", "1e308", "1e309", "nan", "inf", "-inf", "1000", "25600", "51200", "44100",
                           "8000", "3.5e38", "1e39", "-1e39", "1e15", "9223372036854775807",
                           "9223372036854775808", "18446744073709551615", "1e-6", "abc", "", " 5", "0x10"]

FEATURES = ["mean", "rms", "std", "peak", "peak_to_peak", "crest_factor", "skewness", "kurtosis",
            "zero_crossing_rate", "total_power", "dominant_frequency", "dominant_amplitude", "spectral_centroid",
            "spectral_bandwidth", "spectral_rolloff", "spectral_flatness", "spectral_entropy", "thd", "snr_db"]


def number_text(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.5:
        return rng.choice(INTERESTING_NUMBER_TEXT)
    if roll < 0.75:
        return str(rng.choice(INTERESTING_INTS))
    return repr(rng.choice([v for v in INTERESTING_FLOATS if math.isfinite(v)]) * rng.choice([1, -1, 0.5, 3]))


# ---------------------------------------------------------------------------------------
# Seeds

def read_seed(path: str, limit: int = 64 << 10) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(limit)


def seed_files() -> dict[str, list[tuple[str, bytes]]]:
    """Committed inputs by kind, cut to 64 KiB (enough for several frames, fast to run)."""
    kinds: dict[str, list[tuple[str, bytes]]] = {"csv": [], "wav": [], "flac": [], "aiff": [], "raw": [],
                                                 "mat": [], "h5": [], "tdms": []}
    # MATLAB, HDF5 and TDMS recordings (issue 45), good and bad, whole.
    for folder in ("mat", "hdf5", "tdms", "containers"):
        directory = os.path.join(ROOT, "Tests", "Fixtures", folder)
        for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
            extension = name.rsplit(".", 1)[-1].lower()
            if extension in ("mat", "h5", "tdms"):
                kinds[extension].append((name, read_seed(os.path.join(directory, name), 256 << 10)))
    for directory in (FIXTURES, SAMPLE_DATA, os.path.join(ROOT, "Tests", "Fixtures", "bad")):
        if not os.path.isdir(directory):
            continue
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            extension = name.rsplit(".", 1)[-1].lower()
            # Whole files for containers (a cut FLAC or WAV is one mutation among others).
            if extension == "csv":
                kinds["csv"].append((name, read_seed(path)))
            elif extension == "wav":
                kinds["wav"].append((name, read_seed(path, 256 << 10)))
            elif extension == "flac":
                kinds["flac"].append((name, read_seed(path, 256 << 10)))
            elif extension in ("aif", "aiff"):
                kinds["aiff"].append((name, read_seed(path, 256 << 10)))
            elif extension in ("f32le", "f64le", "i16le", "i32le"):
                kinds["raw"].append((name, read_seed(path)))
    for directory in (REGRESSIONS,):
        for folder, _, names in os.walk(directory):
            for name in names:
                extension = name.rsplit(".", 1)[-1].lower()
                if extension in kinds:
                    kinds[extension].append((name, read_seed(os.path.join(folder, name), 256 << 10)))
    return kinds


def profile_seeds() -> list[str]:
    """The sample TOML profiles, and one in the format before 0.8 (still read, with a note)."""
    paths = [os.path.join(SAMPLE_DATA, name) for name in sorted(os.listdir(SAMPLE_DATA)) if name.endswith(".toml")]
    paths.append(os.path.join(ROOT, "Tests", "Fixtures", "profiles", "faulty-pump-legacy.profile"))
    seeds = []
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            seeds.append(handle.read())
    return seeds


def float_wav(rng: random.Random, frames: int, channels: int, double: bool, rate: int) -> bytes:
    """A WAVE_FORMAT_IEEE_FLOAT file with a few interesting samples."""
    width = 8 if double else 4
    code = "d" if double else "f"
    samples = []
    for index in range(frames * channels):
        value = math.sin(index * 0.05) * 0.5
        if rng.random() < 0.01:
            value = rng.choice(INTERESTING_FLOATS)
            if not double and math.isfinite(value) and abs(value) > 3.4e38:
                value = 3.4e38
        samples.append(value)
    data = struct.pack("<%d%s" % (len(samples), code), *samples)
    header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack(
        "<IHHIIHH", 16, 3, channels, rate, (rate * channels * width) & 0xFFFFFFFF, channels * width, width * 8)
    return header + b"data" + struct.pack("<I", len(data)) + data


def synthetic_csv(rng: random.Random) -> bytes:
    columns = rng.choice([1, 1, 2, 3, 5])
    rows = rng.choice([10, 16, 17, 100, 600, 2100])
    header = rng.random() < 0.7
    time_column = header and rng.random() < 0.5
    out = io.StringIO()
    names = [rng.choice(["a", "b", "x", "ch", "nan", "inf", "\"q,uoted\"", "t", "Time", "", "é"]) + str(i)
             for i in range(columns)]
    if header:
        out.write(",".join((["time"] if time_column else []) + names) + "\n")
    step = rng.choice([0.001, 1e-5, 1.0, 1e-12, 1e9, 3600.0])
    for row in range(rows):
        cells = []
        if time_column:
            cells.append(repr(row * step))
        for column in range(columns):
            cells.append("%.6f" % math.sin(row * 0.1 * (column + 1)))
        out.write(",".join(cells) + "\n")
    return out.getvalue().encode()


# ---------------------------------------------------------------------------------------
# Mutators

def mutate_bytes(rng: random.Random, data: bytes, rounds: int) -> bytes:
    buffer = bytearray(data)
    for _ in range(rounds):
        if not buffer:
            buffer.extend(rng.randbytes(rng.randint(1, 64)))
            continue
        roll = rng.random()
        position = rng.randrange(len(buffer))
        if roll < 0.3:  # flip bits
            buffer[position] ^= 1 << rng.randrange(8)
        elif roll < 0.45:  # set a byte
            buffer[position] = rng.choice([0, 0xFF, 0x7F, 0x80, rng.randrange(256)])
        elif roll < 0.6:  # overwrite a 32-bit field with an interesting integer
            value = rng.choice(INTERESTING_INTS) & 0xFFFFFFFF
            buffer[position:position + 4] = struct.pack("<I" if rng.random() < 0.5 else ">I", value)
        elif roll < 0.7:  # overwrite 8 bytes with an interesting double
            value = rng.choice(INTERESTING_FLOATS)
            buffer[position:position + 8] = struct.pack("<d", value)
        elif roll < 0.78:  # overwrite 4 bytes with an interesting float
            value = rng.choice(INTERESTING_FLOATS)
            try:
                packed = struct.pack("<f", value)
            except OverflowError:
                packed = struct.pack("<I", 0x7F800000)
            buffer[position:position + 4] = packed
        elif roll < 0.85:  # delete a range
            del buffer[position:position + rng.randint(1, 256)]
        elif roll < 0.9:  # duplicate a range
            chunk = buffer[position:position + rng.randint(1, 512)]
            buffer[position:position] = chunk
        elif roll < 0.95:  # truncate
            del buffer[rng.randrange(len(buffer) + 1):]
        else:  # insert random bytes
            buffer[position:position] = rng.randbytes(rng.randint(1, 16))
    return bytes(buffer)


def mutate_text(rng: random.Random, data: bytes, rounds: int) -> bytes:
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    for _ in range(rounds):
        if not lines:
            lines = [""]
        roll = rng.random()
        index = rng.randrange(len(lines))
        if roll < 0.45:  # replace a cell
            cells = lines[index].split(",")
            cells[rng.randrange(len(cells))] = rng.choice(INTERESTING_TEXT)
            lines[index] = ",".join(cells)
        elif roll < 0.55:  # add or remove a cell
            cells = lines[index].split(",")
            if rng.random() < 0.5:
                cells.insert(rng.randrange(len(cells) + 1), rng.choice(INTERESTING_TEXT))
            elif len(cells) > 1:
                del cells[rng.randrange(len(cells))]
            lines[index] = ",".join(cells)
        elif roll < 0.65:  # duplicate, delete or swap lines
            choice = rng.random()
            if choice < 0.4:
                lines.insert(index, lines[index])
            elif choice < 0.7 and len(lines) > 1:
                del lines[index]
            else:
                other = rng.randrange(len(lines))
                lines[index], lines[other] = lines[other], lines[index]
        elif roll < 0.72:  # an empty line, a CR, a lone quote
            lines.insert(index, rng.choice(["", "\r", "\"", ",", ",,,", "\ufeff"]))
        elif roll < 0.8:  # make the first row a header or not
            lines[0] = rng.choice(["time,a,b", "t,x", "timestamp,time,a", "a", "nan,inf", "", "\"time\",a"])
        else:  # raw byte damage
            return mutate_bytes(rng, "\n".join(lines).encode(), 1)
    return "\n".join(lines).encode()


def mutate_profile(rng: random.Random, text: str, rounds: int) -> str:
    legacy = "[channel " in text
    lines = text.split("\n")
    for _ in range(rounds):
        roll = rng.random()
        index = rng.randrange(len(lines)) if lines else 0
        if roll < 0.5 and lines:  # replace a number
            numbers = list(re.finditer(r"[-+]?[0-9][0-9.eE+-]*", lines[index]))
            if numbers:
                match = rng.choice(numbers)
                lines[index] = lines[index][:match.start()] + number_text(rng) + lines[index][match.end():]
        elif roll < 0.7:  # add a setting
            key = rng.choice(["tone", "tones", "noise", "offset", "drift", "impulses", "rate", "name", "bogus"])
            if legacy:
                count = rng.choice([0, 1, 2, 3, 33])
                value = " ".join(number_text(rng) for _ in range(count))
            else:
                value = rng.choice([
                    number_text(rng), '"%s"' % number_text(rng), "[%s]" % ", ".join(number_text(rng) for _ in range(rng.choice([0, 1, 3, 33]))),
                    "{ frequency = %s, amplitude = %s }" % (number_text(rng), number_text(rng)),
                    "[{ frequency = %s, amplitude = %s, harmonics = [%s] }]" % (number_text(rng), number_text(rng), number_text(rng)),
                    "{ amplitude = %s, period = %s }" % (number_text(rng), number_text(rng)),
                    "{ rate = %s, amplitude = %s }" % (number_text(rng), number_text(rng)), "true", "nan", "inf", ""])
            lines.insert(index, "%s = %s" % (key, value))
        elif roll < 0.8:  # sections
            sections = ["[channel z]", "[channel ]", "[chan", "[channel a] x", ""] if legacy else [
                "[[channels]]", "[channels]", "[[channels", "[[channels.tones]]", "[drift]", "name = 1", ""]
            lines.insert(index, rng.choice(sections))
        elif roll < 0.9 and lines:
            del lines[index]
        else:
            return mutate_bytes(rng, "\n".join(lines).encode(), 1).decode("utf-8", errors="replace")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# Options

def pipeline_options(rng: random.Random) -> list[str]:
    args: list[str] = []
    window = rng.choice([16, 16, 32, 64, 128, 256, 1024, 4096]) if rng.random() < 0.9 else rng.choice(INTERESTING_INTS)
    args += ["--window", str(window)]
    if rng.random() < 0.4:
        # Small hops only with small windows: a debug build measuring 4096-sample frames
        # every sample is slow work, not a hang.
        hops = [window // 2, window, window // 4, window + 1] + ([1, 3, 8] if window <= 64 else [window // 8])
        if rng.random() < 0.1:
            hops = [0, -1, 1 << 40, (1 << 63) - 1]
        args += ["--hop", str(rng.choice(hops))]
    if rng.random() < 0.3:
        stage = rng.choice(["lowpass", "highpass", "bandpass", "bandstop", "notch", "dc"])
        if stage == "dc":
            args += ["--filter", "dc"]
        elif stage in ("bandpass", "bandstop"):
            args += ["--filter", "%s:%s-%s:%s" % (stage, number_text(rng), number_text(rng), rng.choice(["1", "4", "16", "17", "0"]))]
        else:
            args += ["--filter", "%s:%s" % (stage, rng.choice(["10", "100", "0.001", number_text(rng)]))]
    if rng.random() < 0.3:
        bands = []
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.7:
                low = rng.choice([0, 1, 10, 100, 0.5])
                bands.append("%s-%s" % (low, low + rng.choice([1, 10, 100, 400, 1e6])))
            else:
                bands.append("%s-%s" % (number_text(rng), number_text(rng)))
        args += ["--bands", ",".join(bands)]
    if rng.random() < 0.5:
        chosen = rng.sample(FEATURES, rng.randint(1, 5))
        if rng.random() < 0.1:
            chosen.append(rng.choice(["bogus", "", "rms"]))
        args += ["--features", ",".join(chosen)]
    return args


def engine_options(rng: random.Random) -> list[str]:
    args: list[str] = []
    if rng.random() < 0.3:
        args += ["--jobs", str(rng.choice([1, 2, 3, 1, 2, 3, 256, 16, 257, 0, -1, 1000000]))]
    if rng.random() < 0.15:
        args += ["--ring-capacity", str(rng.choice([2, 3, 64, 1000, 1 << 16, 1 << 26, 2, 64, (1 << 26) + 1, 1 << 40, (1 << 63) - 1, 0]))]
    return args


# ---------------------------------------------------------------------------------------
# Cases

class Case:
    """One run: arguments, files to create in a fresh folder, optional stdin, output file."""

    def __init__(self, number: int, kind: str, args: list[str], files: dict[str, bytes], stdin: bytes | None,
                 output: str | None):
        self.number = number
        self.kind = kind
        self.args = args
        self.files = files
        self.stdin = stdin
        self.output = output


def make_case(seed: int, number: int, seeds: dict[str, list[tuple[str, bytes]]], profiles: list[str]) -> Case:
    rng = random.Random(seed * 1_000_003 + number)
    kind = rng.choices(["csv", "wav", "flac", "aiff", "raw", "stdin", "profile", "flags", "options", "mat", "h5",
                        "tdms"], weights=[26, 12, 10, 4, 14, 8, 12, 6, 8, 4, 3, 4])[0]
    rounds = rng.choice([1, 1, 2, 3, 5, 10])
    args: list[str]
    files: dict[str, bytes] = {}
    stdin = None
    output = None
    if kind in ("mat", "h5", "tdms"):
        data = mutate_bytes(rng, rng.choice(seeds[kind])[1], rounds) if seeds[kind] else b""
        name = "input." + kind
        files[name] = data
        args = ["process", name] + (["--rate", rng.choice(["1000", "12000", number_text(rng)])]
                                    if rng.random() < 0.7 else [])
        args += pipeline_options(rng) + engine_options(rng)
        if rng.random() < 0.5:
            output = "out." + rng.choice(["csv", "json", "ndjson"])
            args += ["-o", output]
        return Case(number, kind, args, files, stdin, output)
    if kind in ("csv", "wav", "flac", "aiff", "raw", "options"):
        source_kind = kind if kind != "options" else rng.choice(["csv", "wav", "raw"])
        pool = seeds[source_kind]
        if source_kind == "csv" and (not pool or rng.random() < 0.4):
            data = synthetic_csv(rng)
        elif source_kind == "wav" and (not pool or rng.random() < 0.3):
            data = float_wav(rng, rng.choice([16, 100, 2000]), rng.choice([1, 2]), rng.random() < 0.5,
                             rng.choice([1000, 8000, 1, 2 ** 31 - 1]))
        else:
            data = rng.choice(pool)[1]
        if kind != "options":
            data = (mutate_text if source_kind == "csv" and rng.random() < 0.8 else mutate_bytes)(rng, data, rounds)
        extension = {"csv": "csv", "wav": "wav", "flac": "flac", "aiff": "aiff"}.get(source_kind)
        if source_kind == "raw":
            sample_type = rng.choice(["f32le", "f64le", "i16le", "i32le"])
            name = "input." + sample_type
            args = ["process", name, "--rate", rng.choice(["1000", "25600", "51200", "8000", number_text(rng)]),
                    "--channels", rng.choice(["1", "2", "3", "1", "2"]) if rng.random() < 0.9 else number_text(rng)]
        else:
            name = "input." + (extension or "csv")
            args = ["process", name]
            if source_kind == "csv" and rng.random() < 0.6 or rng.random() < 0.15:
                args += ["--rate", rng.choice(["1000", "8000", number_text(rng)])]
        files[name] = data
        args += pipeline_options(rng) + engine_options(rng)
        if kind == "options" and rng.random() < 0.3:
            args += [rng.choice(["--rate", "--channels", "--window", "--hop", "--jobs"]), number_text(rng)]
        roll = rng.random()
        if roll < 0.55:
            output = "out." + rng.choice(["csv", "json", "ndjson"])
            args += ["-o", output]
        elif roll < 0.85:
            args += ["--format", rng.choice(["csv", "json", "ndjson"])]
        if rng.random() < 0.2 and source_kind != "raw":
            args += ["--sample-type", rng.choice(["f32le", "f64le", "i16le", "i32le"]), "--rate", "1000"]
        if rng.random() < 0.1:
            # through stream --input as well
            args = ["stream", "--input", name] + [a for a in args[2:] if a not in ("-o",)]
            if output:
                args = [a for a in args if a != output]
                output = None
            args = [a for a in args if not a.startswith("--ring-capacity")]
            cleaned = []
            skip = False
            for index, arg in enumerate(args):
                if skip:
                    skip = False
                    continue
                if arg in ("--ring-capacity",):
                    skip = True
                    continue
                if arg == "--format" and index + 1 < len(args) and args[index + 1] == "json":
                    cleaned += ["--format", "ndjson"]
                    skip = True
                    continue
                cleaned.append(arg)
            args = cleaned + ["--frames", str(rng.choice([1, 5, 50]))]
    elif kind == "stdin":
        sample_type = rng.choice(["f32le", "f64le", "i16le", "i32le", None])
        if sample_type is None:
            stdin = mutate_text(rng, synthetic_csv(rng), rounds)
            args = ["process", "-", "--rate", "1000"]
        else:
            stdin = mutate_bytes(rng, rng.choice(seeds["raw"])[1] if seeds["raw"] else b"", rounds)
            command = rng.choice(["process", "stream"])
            args = ([command, "-"] if command == "process" else ["stream", "--input", "-"]) + [
                "--rate", "1000", "--sample-type", sample_type, "--channels", rng.choice(["1", "2", "3"])]
        args += pipeline_options(rng)
        if args[0] == "process" and rng.random() < 0.5:
            output = "out.csv"
            args += ["-o", output]
    elif kind == "profile":
        text = mutate_profile(rng, rng.choice(profiles), rounds)
        name = "device.profile" if "[channel " in text else "device.toml"
        files[name] = text.encode("utf-8", errors="replace")
        args = ["stream", "--profile", name, "--as-fast-as-possible", "--frames",
                str(rng.choice([1, 2, 5])), "--seed", str(rng.randrange(1 << 32))]
        args += pipeline_options(rng)
        if rng.random() < 0.3:
            args += ["--format", "csv"]
    else:  # flags describing a device
        args = ["stream", "--as-fast-as-possible", "--frames", str(rng.choice([1, 3])), "--rate",
                rng.choice(["1000", "25600", number_text(rng)]), "--channels", rng.choice(["1", "2", number_text(rng)])]
        for flag in rng.sample(["--tone", "--noise", "--offset", "--drift", "--impulses"], rng.randint(1, 3)):
            if flag == "--tone":
                value = "%s:%s" % (number_text(rng), number_text(rng))
                if rng.random() < 0.3:
                    value += ":" + ",".join(number_text(rng) for _ in range(rng.randint(1, 3)))
            elif flag in ("--drift", "--impulses"):
                value = "%s:%s" % (number_text(rng), number_text(rng))
            else:
                value = number_text(rng)
            args += [flag, value]
        if rng.random() < 0.3:
            args += ["--duration", rng.choice(["1s", "0.01", "1e15", "-1s", "1e9", "500ms", "nan", "2m"])]
        args += pipeline_options(rng)
    if rng.random() < 0.9:
        args.append("--quiet") if args[0] == "process" else args.append("-q")
    return Case(number, kind, args, files, stdin, output)


def load_regressions() -> list[Case]:
    cases = []
    if not os.path.isdir(REGRESSIONS):
        return cases
    for index, name in enumerate(sorted(os.listdir(REGRESSIONS))):
        folder = os.path.join(REGRESSIONS, name)
        description = os.path.join(folder, "case.json")
        if not os.path.isfile(description):
            continue
        with open(description, encoding="utf-8") as handle:
            spec = json.load(handle)
        files = {}
        for file_name in os.listdir(folder):
            if file_name not in ("case.json", spec.get("stdin")):
                with open(os.path.join(folder, file_name), "rb") as handle:
                    files[file_name] = handle.read()
        stdin = None
        if spec.get("stdin"):
            with open(os.path.join(folder, spec["stdin"]), "rb") as handle:
                stdin = handle.read()
        cases.append(Case(-1 - index, "regression:" + name, spec["args"], files, stdin, spec.get("output")))
    return cases


# ---------------------------------------------------------------------------------------
# Checks

NONFINITE_WORD = re.compile(r"^[+-]?(nan|inf|infinity)$", re.IGNORECASE)
TEXT_COLUMNS = {"file", "channel", "time"}


def nonfinite_in_csv(text: str) -> str | None:
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return None
    header = rows[0]
    for row in rows[1:]:
        for name, cell in zip(header, row):
            if name in TEXT_COLUMNS and name != "time":
                continue
            if name == "time" and "T" in cell:
                continue  # RFC 3339 wall-clock time of a live source
            try:
                value = float(cell)
            except ValueError:
                return "column %s: %r is not a number" % (name, cell)
            if not math.isfinite(value):
                return "column %s: %r" % (name, cell)
    return None


def nonfinite_in_json_values(values) -> str | None:
    for record in values:
        if not isinstance(record, dict):
            return "a record that is not an object"
        for key, value in record.items():
            if key in TEXT_COLUMNS:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return "key %s: %r is not a number" % (key, value)
            if not math.isfinite(value):
                return "key %s: %r" % (key, value)
    return None


class NonFinite(Exception):
    pass


def reject_constant(name):
    raise NonFinite(name)


def check_output(text: str, fmt: str, complete: bool) -> tuple[str | None, str | None]:
    """(nonfinite detail, malformed detail) for an output's text in `fmt`."""
    if fmt == "csv":
        return nonfinite_in_csv(text), None
    try:
        if fmt == "json":
            if not complete:
                return None, None
            values = json.loads(text, parse_constant=reject_constant) if text.strip() else []
            if not isinstance(values, list):
                return None, "the JSON output is not an array"
        else:
            lines = [line for line in text.split("\n") if line.strip()]
            if not complete and lines and not text.endswith("\n"):
                lines = lines[:-1]
            values = [json.loads(line, parse_constant=reject_constant) for line in lines]
    except NonFinite as error:
        return "the JSON constant %s" % error, None
    except ValueError as error:
        return None, "does not parse as %s: %s" % (fmt, error)
    return nonfinite_in_json_values(values), None


def output_format(case: Case) -> str:
    args = case.args
    if "--format" in args:
        index = args.index("--format")
        if index + 1 < len(args):
            return args[index + 1]
    if case.output:
        return case.output.rsplit(".", 1)[-1]
    return "ndjson" if args[0] == "stream" else "csv"


def run_case(case: Case, binary: str, timeout: float) -> dict:
    folder = tempfile.mkdtemp(prefix="sonde-fuzz-")
    try:
        for name, data in case.files.items():
            with open(os.path.join(folder, name), "wb") as handle:
                handle.write(data)
        started = time.monotonic()
        process = subprocess.Popen(
            [binary] + case.args, cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True,
            env=dict(os.environ, SONDE_HOME=os.path.join(folder, "home"), SWIFT_BACKTRACE="enable=no"))
        hang = False
        try:
            stdout, stderr = process.communicate(case.stdin or b"", timeout=timeout)
        except subprocess.TimeoutExpired:
            hang = True
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
        elapsed = time.monotonic() - started
        status = process.returncode
        stderr_text = stderr.decode("utf-8", errors="replace")
        problems: dict[str, str] = {}
        if hang:
            problems["hang"] = "no exit within %.0f s" % timeout
        elif status < 0 or CRASH_TEXT.search(stderr_text):
            problems["crash"] = "status %d: %s" % (status, stderr_text.strip()[:300])
        fmt = output_format(case)
        stdout_text = stdout.decode("utf-8", errors="replace")
        if not hang:
            nonfinite, malformed = check_output(stdout_text, fmt if fmt in ("csv", "json", "ndjson") else "csv",
                                                complete=status == 0)
            if nonfinite:
                problems["nonfinite"] = "stdout: " + nonfinite
            if malformed and status == 0:
                problems["malformed"] = "stdout " + malformed
        if case.output and not hang:
            path = os.path.join(folder, case.output)
            if os.path.exists(path):
                with open(path, "rb") as handle:
                    text = handle.read().decode("utf-8", errors="replace")
                if status != 0:
                    problems["partial-output"] = "%s exists after a failed run (status %d)" % (case.output, status)
                nonfinite, malformed = check_output(text, fmt if fmt in ("csv", "json", "ndjson") else "csv",
                                                    complete=status == 0)
                if nonfinite:
                    problems["nonfinite"] = case.output + ": " + nonfinite
                if malformed and status == 0:
                    problems["malformed"] = case.output + " " + malformed
            elif status == 0:
                problems["malformed"] = "%s missing after a successful run" % case.output
        leftovers = [name for name in os.listdir(folder) if name.startswith(".sonde-tmp")]
        if leftovers:
            problems["temp-leftover"] = ", ".join(leftovers)
        return {"number": case.number, "kind": case.kind, "status": status, "problems": problems,
                "seconds": elapsed, "stderr": stderr_text[:2000]}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def save_case(case: Case, result: dict, directory: str) -> str:
    digest = hashlib.sha1(json.dumps(case.args).encode() + b"".join(case.files.values()) + (case.stdin or b"")).hexdigest()[:10]
    category = sorted(result["problems"])[0]
    folder = os.path.join(directory, "%s-%s-%s" % (category, case.kind.replace(":", "-"), digest))
    os.makedirs(folder, exist_ok=True)
    for name, data in case.files.items():
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(data)
    spec = {"args": case.args, "output": case.output, "case": case.number, "problems": result["problems"]}
    if case.stdin is not None:
        spec["stdin"] = "stdin.bin"
        with open(os.path.join(folder, "stdin.bin"), "wb") as handle:
            handle.write(case.stdin)
    with open(os.path.join(folder, "case.json"), "w", encoding="utf-8") as handle:
        json.dump(spec, handle, indent=2)
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "sonde"))
    parser.add_argument("--budget", type=int, default=400, help="mutated inputs to run (after the regressions)")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--timeout", type=float, default=30, help="seconds before a run counts as a hang")
    parser.add_argument("--workers", type=int, default=2, help="runs at once")
    parser.add_argument("--only", type=int, action="append", help="run only these case numbers")
    parser.add_argument("--save", default=os.path.join(FUZZ, "crashes"), help="folder for failing cases")
    parser.add_argument("--allow", default="", help="comma-separated categories reported without failing")
    parser.add_argument("--no-regressions", action="store_true")
    options = parser.parse_args()
    # Runs happen in their own folders: a relative path would not find the binary there.
    options.binary = os.path.abspath(options.binary)
    if not os.access(options.binary, os.X_OK):
        print("fuzz: no executable at %s; build first" % options.binary, file=sys.stderr)
        return 2
    allowed = {name for name in options.allow.split(",") if name}
    unknown = allowed - set(CATEGORIES)
    if unknown:
        print("fuzz: unknown categories in --allow: %s" % ", ".join(sorted(unknown)), file=sys.stderr)
        return 2

    seeds = seed_files()
    profiles = profile_seeds()
    regressions = [] if options.no_regressions or options.only else load_regressions()
    numbers = list(options.only) if options.only else list(range(options.budget))
    total = len(regressions) + len(numbers)

    def run(item) -> tuple[Case, dict]:
        # Mutated cases are made in the worker and dropped after their run: 10^5 inputs of
        # up to 256 KiB would not fit in memory at once.
        case = item if isinstance(item, Case) else make_case(options.seed, item, seeds, profiles)
        return case, run_case(case, options.binary, options.timeout)

    counts = {name: 0 for name in CATEGORIES}
    statuses: dict[str, int] = {}
    kinds: dict[str, int] = {}
    failures = []
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.workers) as pool:
        futures = [pool.submit(run, item) for item in regressions + numbers]
        done = 0
        for future in concurrent.futures.as_completed(futures):
            case, result = future.result()
            done += 1
            key = "ok" if result["status"] == 0 else "error %d" % result["status"]
            statuses[key] = statuses.get(key, 0) + 1
            kinds[case.kind.split(":")[0]] = kinds.get(case.kind.split(":")[0], 0) + 1
            for category in result["problems"]:
                counts[category] += 1
            if result["problems"]:
                folder = save_case(case, result, options.save)
                failures.append((case, result, folder))
                for category, detail in sorted(result["problems"].items()):
                    mark = "allowed" if category in allowed else "FAIL"
                    print("fuzz: %s %s: case %d (%s): %s -> %s" % (mark, category, case.number, case.kind,
                                                                 detail[:200], folder), file=sys.stderr)
            if done % 1000 == 0:
                print("fuzz: %d/%d runs, %.0f s: %s" % (done, total, time.monotonic() - started, ", ".join(
                    "%d %s" % (counts[name], name) for name in CATEGORIES)), file=sys.stderr, flush=True)

    elapsed = time.monotonic() - started
    failing = sum(count for name, count in counts.items() if name not in allowed)
    print("fuzz: %d runs (%d regressions, %d mutated; seed %d) in %.0f s: %s" % (
        total, len(regressions), len(numbers), options.seed, elapsed,
        ", ".join("%d %s" % (counts[name], name) for name in CATEGORIES)))
    print("fuzz: exits: %s; kinds: %s" % (
        ", ".join("%s %d" % item for item in sorted(statuses.items())),
        ", ".join("%s %d" % item for item in sorted(kinds.items()))))
    if allowed:
        print("fuzz: allowed (reported, not failing): %s" % ", ".join(sorted(allowed)))
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
