#!/usr/bin/env python3
"""Runs a fixed list of sonde commands with two binaries and compares stdout, stderr and
the exit status of each, byte for byte.

A refactoring that moves code between targets (issue 48: the application layer) must not
change what a user sees. This is the check of that: every command's and subcommand's
--help (found by walking SUBCOMMANDS from the root), the bad-input cases of
Tests/Fixtures/bad_cases.json and a list of wrong options, and `process` over
sample-data/ in every output format, single and dataset (--output-dir, whose outputs
and manifest are compared too, minus the manifest's times), and report, spectrum (also
--envelope), kurtogram and diagnose on the same files (and measurements report refused). It lives under Tests/ beside
the other checks that drive the binary from outside (Tests/Docs, Tests/Parquet); it is
run by hand against a build of main (`make` does not have two binaries).

    python3 Tests/SameBytes/same_bytes.py BASE_BINARY NEW_BINARY

(with the Python of Tests/requirements.txt, which has pyarrow for the Parquet outputs).

Exit status 0 when every case agrees; 1 with each difference listed.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")

# Wrong options and inputs, each refused before or while running (the message and status
# must not change). Run in the repository root.
BAD_OPTIONS = [
    ["process", "sample-data/motor.wav", "--window", "0"],
    ["process", "sample-data/motor.wav", "--window", "1024", "--hop", "4096"],
    ["process", "sample-data/motor.wav", "--filter", "lowpass:99999"],
    ["process", "sample-data/motor.wav", "--filter", "bogus:1"],
    ["process", "sample-data/motor.wav", "--features", "rms,nope"],
    ["process", "sample-data/motor.wav", "--compression", "zstd"],
    ["process", "sample-data/motor.wav", "--row-group-rows", "10", "--format", "csv"],
    ["process", "sample-data/motor.wav", "--overwrite"],
    ["process", "sample-data/motor.wav", "-o", "x.csv", "--output-dir", "out"],
    ["process", "sample-data/motor.wav", "-o", "sample-data/motor.wav"],
    ["process", "-", "--output-dir", "out"],
    ["process", "sample-data/motor.wav", "--output-dir", "OUT", "--shard", "3/2"],
    ["process", "no-such-file.wav"],
    ["process", "sample-data/motor.wav", "--rate", "-5"],
    ["process", "sample-data/motor.wav", "--ring-capacity", "1"],
    ["process", "sample-data/bearing.f32le", "--channels", "0", "--sample-type", "f32le", "--rate", "1000"],
    ["process", "sample-data/motor.wav", "--orientation", "sideways"],
    ["stream", "--realtime"],
    ["stream", "--tone", "50", "--frames", "2"],
    ["stream", "--tone", "50:x", "--frames", "2"],
    ["stream", "--tone", "50:1:a", "--frames", "2"],
    ["stream", "--tone", "0:1", "--frames", "2"],
    ["stream", "--tone", "50:1e39", "--frames", "2"],
    ["stream", "--drift", "1:0", "--frames", "2"],
    ["stream", "--drift", "1", "--frames", "2"],
    ["stream", "--impulses", "-1:2", "--frames", "2"],
    ["stream", "--noise", "-1", "--frames", "2"],
    ["stream", "--profile", "sample-data/healthy-pump.toml", "--noise", "1", "--frames", "2"],
    ["stream", "--profile", "sample-data/healthy-pump.toml", "--rate", "100", "--frames", "2"],
    ["stream", "--tone", "50:1", "--sample-type", "f32le", "--frames", "2"],
    ["stream", "--frames", "0"],
    ["stream", "--duration", "abc"],
    ["stream", "--input", "no-such.wav"],
    ["stream", "--frames", "2"],
    ["bench", "--seconds", "0"],
    ["bench", "--fft-only", "--versus-fft"],
    ["bench", "--sample-type", "f32le"],
    ["bench", "--tone", "50", "--seconds", "1"],
    ["bench", "--window", "3", "--seconds", "1"],
    ["device", "pair", "--tone", "50:1", "--profile", "sample-data/healthy-pump.toml"],
    ["device", "pair", "--rate", "100"],
    ["serve", "--trusted-proxy", "bad host"],
    ["serve", "--public-url", "ftp://x"],
    ["measure", "--duration", "0"],
    ["report", "sample-data/motor.wav", "-o", "sample-data/motor.wav"],
    ["report", "sample-data/motor.wav", "-o", "-"],
    ["report", "sample-data/motor.wav", "-o", "x.html", "--figures", "no-such-folder"],
    ["report", "sample-data/motor.wav", "-o", "x.html", "--shaft-speed", "1797rpm"],
    ["report", "sample-data/motor.wav", "-o", "x.html", "--shaft-speed", "1797rpm", "--tacho", "ch1",
     "--bearing", "6205"],
    ["spectrum", "sample-data/motor.wav", "-o", "sample-data/motor.wav"],
    ["spectrum", "sample-data/motor.wav", "--envelope", "-o", "sample-data/motor.wav"],
    ["spectrum", "sample-data/motor.wav", "--band", "2000-4000"],
    ["spectrum", "sample-data/motor.wav", "--levels", "3"],
    ["spectrum", "sample-data/motor.wav", "--envelope", "--hop", "10"],
    ["spectrum", "sample-data/motor.wav", "--envelope", "--band", "x"],
    ["spectrum", "sample-data/motor.wav", "--envelope", "--band", "2000-4000", "--levels", "3"],
    ["spectrum", "sample-data/motor.wav", "--envelope", "--levels", "13"],
    ["spectrum", "no-such-file.wav", "--envelope"],
    ["kurtogram", "sample-data/motor.wav", "--levels", "13"],
    ["kurtogram", "sample-data/motor.wav", "--format", "xml"],
    ["kurtogram", "sample-data/motor.wav", "--levels", "12"],
    ["kurtogram", "no-such-file.wav"],
    ["diagnose", "sample-data/motor.wav", "--bearing", "6205"],
    ["diagnose", "sample-data/motor.wav", "--shaft-speed", "1797rpm"],
    ["diagnose", "sample-data/motor.wav", "--shaft-speed", "fast", "--bearing", "6205"],
    ["diagnose", "sample-data/motor.wav", "--shaft-speed", "1797rpm", "--bearing", "6205", "--machine-group", "3"],
    ["diagnose", "sample-data/motor.wav", "--tacho", "nope", "--bearing", "6205"],
    ["measurements", "report", "1", "-o", "-"],
    ["measurements", "report", "1", "-o", "x.html"],
    ["nonexistent-command"],
]

# Runs whose records must be the same bytes (stdout, or the files written).
RUNS = [
    ["process", "sample-data/pump-vibration.csv", "--filter", "highpass:10", "--bands", "0-500,500-2000",
     "--features", "rms,peak,kurtosis,dominant_frequency,spectral_centroid,thd"],
    ["process", "sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le",
     "--features", "rms,dominant_frequency,thd", "--format", "ndjson"],
    ["process", "sample-data/motor.wav"],
    ["process", "sample-data/motor.wav", "--format", "json", "--window", "4096", "--hop", "1024"],
    ["process", "sample-data/motor.wav", "sample-data/pump-vibration.csv", "--features", "rms,peak"],
    ["process", "sample-data/motor.wav", "--jobs", "3", "--features", "rms,kurtosis"],
    ["process", "sample-data/motor.wav", "--format", "parquet", "-o", "{tmp}/motor.parquet"],
    # A dataset, then the same command again (a rerun that skips both), then one more input.
    [["process", "sample-data/motor.wav", "sample-data/pump-vibration.csv", "--output-dir", "{tmp}/dataset",
      "--features", "rms,peak"],
     ["process", "sample-data/motor.wav", "sample-data/pump-vibration.csv", "--output-dir", "{tmp}/dataset",
      "--features", "rms,peak"],
     ["process", "sample-data/motor.wav", "sample-data/pump-vibration.csv", "sample-data/bearing.f32le", "--rate",
      "25600", "--output-dir", "{tmp}/dataset", "--features", "rms,peak", "--keep-going"]],
    ["stream", "--profile", "sample-data/faulty-pump.toml", "--seed", "7", "--as-fast-as-possible", "--frames", "20",
     "--format", "csv", "--quiet"],
    ["info", "sample-data/motor.wav"],
    ["report", "sample-data/pump-vibration.csv", "--filter", "highpass:10", "--bands", "0-500,500-2000", "-o",
     "{tmp}/pump.html", "--figures", "{tmp}"],
    ["report", "sample-data/motor.wav", "sample-data/pump-vibration.csv", "--features", "rms,kurtosis", "-o",
     "{tmp}/two.html"],
    ["report", "sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le", "--shaft-speed", "1797rpm", "--bearing", "6205", "-o", "{tmp}/bearing.html"],
    ["report", "sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le", "--tacho", "ch1", "--bearing", "6205", "-o", "{tmp}/tacho.html"],
    ["spectrum", "sample-data/motor.wav", "--window", "4096"],
    ["spectrum", "sample-data/motor.wav", "sample-data/pump-vibration.csv", "--format", "json"],
    ["spectrum", "sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le", "--filter", "highpass:10", "-o", "{tmp}/spectrum.json"],
    ["spectrum", "sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le", "--envelope", "--window", "8192"],
    ["spectrum", "sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le", "--envelope", "--band", "2000-4000", "--format", "json"],
    ["spectrum", "sample-data/motor.wav", "sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le", "--envelope", "--levels", "4", "-o", "{tmp}/envelope.csv"],
    ["kurtogram", "sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le"],
    ["kurtogram", "sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le", "--format", "json", "--levels", "4"],
    ["diagnose", "sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le", "--shaft-speed", "1797rpm", "--bearing", "6205"],
    ["diagnose", "sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le", "--shaft-speed", "29.95hz", "--bearing", "n=9,d=7.94mm,D=39.04mm,angle=0",
     "--machine-group", "1", "--foundation", "flexible", "--format", "json"],
    ["diagnose", "sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le", "--tacho", "ch1", "--bearing", "6205"],
]

# What varies between two runs of the same binary: times, a pid, paths of the temporary folder.
VOLATILE = [
    (re.compile(rb"\d+\.\d+ s\b"), b"T s"),
    (re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"), b"TIME"),
    (re.compile(rb'"(time|started|ended|mtime|input_mtime)":[0-9.e+-]+'), rb'"\1":T'),
    (re.compile(rb"sonde version [^\"\\\n]*|\"sonde\":\"[^\"]*\"|\"build\":\"[^\"]*\""), b"VERSION"),
    # The build named on a report page (its generator and "Made by"): the commit differs by build.
    (re.compile(rb"sonde \d+\.\d+\.\d+ \(commit [^)]*\)"), b"VERSION"),
]


def normalise(data, tmp):
    data = data.replace(tmp.encode(), b"TMP")
    for pattern, replacement in VOLATILE:
        data = pattern.sub(replacement, data)
    return data


def parquet_contents(path):
    """A Parquet file's rows, schema, row groups, codecs and footer metadata, with the
    build's version (its commit) taken out: the footer's bytes shift with that string's
    length, so the file is compared through pyarrow (Tests/requirements.txt) instead."""
    import pyarrow.parquet as pq

    file = pq.ParquetFile(path)
    metadata = {key.decode(): value.decode() for key, value in (file.schema_arrow.metadata or {}).items()}
    metadata["sonde.version"] = "VERSION"
    if "sonde.settings" in metadata:
        metadata["sonde.settings"] = re.sub(r'"sonde":"[^"]*"', '"sonde":"VERSION"', metadata["sonde.settings"])
    groups = [
        [(file.metadata.row_group(g).column(c).compression, file.metadata.row_group(g).column(c).num_values)
         for c in range(file.metadata.num_columns)]
        for g in range(file.metadata.num_row_groups)
    ]
    table = file.read()
    return repr((str(file.schema_arrow.remove_metadata()), metadata, groups, table.to_pydict())).encode()


def run(binary, arguments, cwd, tmp):
    environment = dict(os.environ, SONDE_HOME=os.path.join(tmp, "home"), NO_COLOR="1", COLUMNS="100")
    environment.pop("SONDE_DATABASE_URL", None)
    process = subprocess.run([binary] + arguments, cwd=cwd, capture_output=True, env=environment, timeout=300)
    files = {}
    for folder, _, names in os.walk(tmp):
        for name in names:
            path = os.path.join(folder, name)
            if "/home/" in path + "/" and not path.endswith(".jsonl"):
                continue
            if name.endswith(".lock"):  # holds the pid of the run
                files[os.path.relpath(path, tmp)] = b"LOCK"
                continue
            if name.endswith(".parquet"):
                files[os.path.relpath(path, tmp)] = parquet_contents(path)
                continue
            with open(path, "rb") as handle:
                files[os.path.relpath(path, tmp)] = normalise(handle.read(), tmp)
    return (normalise(process.stdout, tmp), normalise(process.stderr, tmp), process.returncode, files)


def commands(binary, prefix=()):
    """Every command path, found from the SUBCOMMANDS sections of --help."""
    found = [list(prefix)]
    text = subprocess.run([binary, *prefix, "--help"], capture_output=True, text=True).stdout
    if "SUBCOMMANDS:" not in text:
        return found
    section = text.split("SUBCOMMANDS:", 1)[1]
    for line in section.splitlines()[1:]:
        if not line.startswith("  ") or line.startswith("   " * 4):
            if line.strip() == "" or not line.startswith(" "):
                break
            continue
        name = line.split()[0]
        if name == "help" or not re.fullmatch(r"[a-z][a-z-]*", name):
            continue
        found += commands(binary, (*prefix, name))
    return found


def cases(base):
    for path in commands(base):
        yield " ".join(path + ["--help"]), path + ["--help"], ROOT
    with open(os.path.join(FIXTURES, "bad_cases.json")) as handle:
        for case in json.load(handle):
            yield "bad_cases.json " + case["name"], ["process", *case["inputs"], *case["args"]], FIXTURES
    for arguments in BAD_OPTIONS:
        yield " ".join(arguments), arguments, ROOT
    for arguments in RUNS:
        steps = arguments if isinstance(arguments[0], list) else [arguments]
        yield " ; ".join(" ".join(step) for step in steps), arguments, ROOT


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    base, new = (os.path.abspath(path) for path in sys.argv[1:])
    differences = 0
    count = 0
    # One temporary folder per binary, at the same path, so outputs name the same places.
    for name, arguments, cwd in cases(base):
        count += 1
        results = []
        for binary in (base, new):
            tmp = tempfile.mkdtemp(prefix="sonde-same-bytes-")
            try:
                steps = arguments if isinstance(arguments[0], list) else [arguments]
                outputs = [run(binary, [a.replace("{tmp}", tmp) for a in step], cwd, tmp) for step in steps]
                results.append((b"".join(o[0] for o in outputs), b"".join(o[1] for o in outputs),
                                [o[2] for o in outputs], outputs[-1][3]))
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        (out1, err1, code1, files1), (out2, err2, code2, files2) = results
        for what, one, two in (("stdout", out1, out2), ("stderr", err1, err2), ("exit status", code1, code2),
                               ("files", sorted(files1), sorted(files2))):
            if one != two:
                differences += 1
                print(f"DIFFERENT {what}: sonde {name}\n  base: {one!r:.400}\n  new:  {two!r:.400}")
        for path in set(files1) & set(files2):
            if files1[path] != files2[path]:
                differences += 1
                print(f"DIFFERENT file {path}: sonde {name}")
    print(f"{count} cases, {differences} differences")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
