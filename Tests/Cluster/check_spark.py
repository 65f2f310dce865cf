#!/usr/bin/env python3
"""docs/cluster/spark_pipe.py under PySpark (local[2]): its DataFrame holds the single run's records, exactly.

    python3 Tests/Cluster/check_spark.py .build/debug/sonde

Writes a small dataset with Benchmarks/dataset/make_dataset.py, measures it once with
`sonde process DATA --format ndjson`, then runs the example as docs/cluster.md shows it,
with the binary shipped to the executors (`--ship`, SparkContext.addFile) and the file
list in four slices, and reads the Parquet it writes with pyarrow. Same columns in the
same order, same number of records, and, sorted by file, channel and frame, every field
equal (values exactly, not within a tolerance).

Needs PySpark (Tests/requirements.txt) and Java 17 (make test installs
openjdk-17-jre-headless); without them it says which is missing and fails.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pyarrow.parquet as pq

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "docs", "cluster", "spark_pipe.py")
MAKE_DATASET = os.path.join(ROOT, "Benchmarks", "dataset", "make_dataset.py")


def why_spark_cannot_run() -> str | None:
    """None when PySpark imports and Java starts; else what is missing and how to get it."""
    if importlib.util.find_spec("pyspark") is None:
        return f"PySpark is not installed for {sys.executable}: make test-venv installs Tests/requirements.txt"
    home = os.environ.get("JAVA_HOME")
    java = (home and shutil.which("java", path=os.path.join(home, "bin"))) or shutil.which("java")
    if java is None:
        return "no java on PATH: apt-get install openjdk-17-jre-headless (make test installs it)"
    version = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    if version.returncode != 0:
        return f"{java} -version exited with status {version.returncode}: {version.stderr.strip()}"
    return None


def key(record: dict) -> tuple:
    return (record["file"], record["channel"], record["frame"])


def check_failing_slice(binary: str, work: str) -> None:
    """A slice naming a file that is not there fails with sonde's one-line error (no Spark needed)."""
    # The committed example itself, loaded from its path (it is no installed package).
    spec = importlib.util.spec_from_file_location("spark_pipe_example", EXAMPLE)
    assert spec is not None and spec.loader is not None, EXAMPLE
    spark_pipe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(spark_pipe)

    try:
        list(spark_pipe.sonde_records(iter(["gone.wav"]), binary, False, work, []))
    except RuntimeError as error:
        if "gone.wav" not in str(error) or "status 1" not in str(error):
            raise AssertionError(f"a slice with a missing file failed with: {error}") from None
        return
    raise AssertionError("a slice naming a missing file gave records instead of an error")


def check(binary: str, work: str, files: int, seconds: float) -> str:
    check_failing_slice(binary, work)
    data = os.path.join(work, "data")
    subprocess.run(
        [sys.executable, MAKE_DATASET, data, "--files", str(files), "--seconds", str(seconds)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    single = subprocess.run(
        [binary, "process", "data", "--format", "ndjson", "-o", "single.ndjson"],
        cwd=work,
        capture_output=True,
        text=True,
    )
    if single.returncode != 0:
        raise AssertionError(f"sonde process data --format ndjson: {single.stderr.strip()}")
    with open(os.path.join(work, "single.ndjson"), encoding="utf-8") as handle:
        expected = [json.loads(line) for line in handle]
    if len({r["file"] for r in expected}) != files:
        raise AssertionError(f"the single run measured {len({r['file'] for r in expected})} files of {files}")

    began = time.monotonic()
    command = [sys.executable, EXAMPLE, "data", "-o", "spark.parquet", "--ship", binary, "--partitions", "4"]
    env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=sys.executable)
    run = subprocess.run(command, cwd=work, capture_output=True, text=True, env=env, timeout=400)
    if run.returncode != 0:
        raise AssertionError(f"{' '.join(command)} exited with status {run.returncode}:\n{run.stderr[-4000:]}")
    elapsed = time.monotonic() - began

    table = pq.read_table(os.path.join(work, "spark.parquet"))
    columns = list(expected[0])
    if table.column_names != columns:
        raise AssertionError(f"the DataFrame's columns {table.column_names} != sonde's {columns}")
    got = table.to_pylist()
    if len(got) != len(expected):
        raise AssertionError(f"the DataFrame has {len(got)} records, the single run {len(expected)}")
    if [key(r) for r in got] != sorted(key(r) for r in got):
        raise AssertionError("the DataFrame is not sorted by file, channel and frame")
    compared = 0
    for mine, theirs in zip(got, sorted(expected, key=key)):
        for name in columns:
            a, b = mine[name], theirs[name]
            if type(a) is not type(b) and not (isinstance(a, float) and isinstance(b, int)):
                raise AssertionError(f"{key(theirs)} {name}: {a!r} ({type(a).__name__}) != {b!r} ({type(b).__name__})")
            if a != b:
                raise AssertionError(f"{key(theirs)} {name}: Spark {a!r} != single run {b!r}")
            compared += 1
    return (
        f"spark: spark_pipe.py on local[2], 4 slices, binary shipped with addFile: {len(got)} records of {files} "
        f"files == single run, {compared} values exactly ({elapsed:.0f} s)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the sonde binary the executors run")
    parser.add_argument("--files", type=int, default=24, help="clips in the dataset (default 24)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each clip (default 1 s)")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        print(f"error: {args.binary}: no executable sonde there; build it first (make test builds .build/debug/sonde)")
        return 1
    missing = why_spark_cannot_run()
    if missing:
        print(f"spark: did not run: {missing}", file=sys.stderr)
        return 1
    work = tempfile.mkdtemp(prefix="sonde-spark-")
    try:
        print(check(binary, work, args.files, args.seconds))
        return 0
    except (AssertionError, subprocess.SubprocessError, OSError) as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
