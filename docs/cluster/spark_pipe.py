#!/usr/bin/env python3
"""A dataset measured by Spark: the file list is spread over the executors and piped through sonde.

    python docs/cluster/spark_pipe.py DATA -o features.parquet              # local[2]
    spark-submit --master yarn docs/cluster/spark_pipe.py /shared/DATA \
        -o /shared/features.parquet --ship /opt/sonde/bin/sonde --partitions 200

The driver lists the audio files under DATA (by extension, in sonde's order) and makes an
RDD of their names in --partitions slices. Each slice goes to one
`sonde process --files-from - --format ndjson` on an executor (`mapPartitions`): its
names on sonde's standard input, its records back from standard output, one JSON object
per line, as they are measured. The records become a DataFrame with sonde's columns in
sonde's order (`file` relative to DATA, as `sonde process DATA` names it), sorted by
file, channel and frame: the records of a single `sonde process DATA --format ndjson`.
Options after `--` go to sonde (`-- --window 2048 --features rms,kurtosis`).

On a cluster:
- every executor runs sonde: either the same build installed at the same path on every
  node (`--sonde PATH`; by default the driver's `sonde` on PATH), or the driver's binary
  shipped with the job (`--ship PATH`: SparkContext.addFile, the same as spark-submit's
  `--files`; each executor runs its copy). One build for the whole dataset (docs/cluster.md).
- DATA is the same path on the driver and every executor: a shared file system.
- Each sonde runs with --jobs 1, since Spark already runs one task per core; more
  partitions than cores keep the executors busy when clips differ in length.
- A sonde that fails fails its task, with sonde's one-line error in the task's error.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading

from pyspark.sql import SparkSession
from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

# The sample files sonde's folder walk takes (docs/formats.md); names starting with . are skipped.
AUDIO_EXTENSIONS = (".wav", ".flac", ".aiff", ".aif", ".ogg", ".oga", ".opus", ".mp3")


def audio_files(data: str, extensions: tuple[str, ...] = AUDIO_EXTENSIONS) -> list[str]:
    """Absolute paths of the audio files under `data`, in sonde's order (byte order of the names)."""
    found = []
    for folder, dirs, files in os.walk(data):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [
            os.path.join(folder, name)
            for name in files
            if not name.startswith(".") and name.lower().endswith(extensions)
        ]
    root = os.path.abspath(data)
    return sorted((os.path.abspath(path) for path in found), key=lambda p: os.path.relpath(p, root).encode())


def schema_of(record: dict) -> StructType:
    """sonde's columns in its order: text as strings, integers (frame, start) as longs, the rest doubles."""

    def kind(value):
        if isinstance(value, str):
            return StringType()
        if isinstance(value, int) and not isinstance(value, bool):
            return LongType()
        return DoubleType()

    return StructType([StructField(name, kind(value), nullable=False) for name, value in record.items()])


def sonde_records(paths, sonde: str, shipped: bool, cwd: str, options: list[str]):
    """One slice of the file list through one sonde process: paths to its standard input, records from its output.

    Runs on an executor. The paths are relative to `cwd` (the dataset folder), so the
    `file` column is what `sonde process DATA` writes. sonde's one-line error, if any,
    becomes the task's error.
    """
    if shipped:
        from pyspark import SparkFiles

        sonde = SparkFiles.get(sonde)
    command = [sonde, "process", "--files-from", "-", "--format", "ndjson", "--quiet", "--jobs", "1", *options]
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)

        def feed() -> None:
            try:
                for path in paths:
                    process.stdin.write(path.encode() + b"\n")
            except BrokenPipeError:
                pass  # sonde stopped reading: its status says why
            finally:
                process.stdin.close()

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        for line in process.stdout:
            yield json.loads(line)
        writer.join()
        if process.wait() != 0:
            errors.seek(0)
            message = errors.read().decode(errors="replace").strip()
            raise RuntimeError(f"{shlex.join(command)} (in {cwd}) exited with status {process.returncode}: {message}")


def measure(
    spark: SparkSession, data: str, sonde: str, shipped: bool = False, partitions: int = 4, options: list[str] = ()
):
    """The records of every audio file under `data`, measured by sonde on Spark's executors, as a DataFrame.

    `sonde` is the binary each executor runs: a path valid on every node, or, with
    `shipped`, the name of a file added to the job (SparkContext.addFile, spark-submit --files).
    """
    root = os.path.abspath(data)
    paths = [os.path.relpath(path, root) for path in audio_files(root)]
    if not paths:
        raise SystemExit(f"error: {data}: no audio files ({', '.join(AUDIO_EXTENSIONS)}) found under it")
    options = list(options)

    # No slice is empty (an empty list is an error to sonde): at most one slice per file.
    slices = spark.sparkContext.parallelize(paths, min(partitions, len(paths)))
    records = slices.mapPartitions(lambda part: sonde_records(part, sonde, shipped, root, options)).cache()
    first = records.first()
    schema = schema_of(first)
    doubles = [field.name for field in schema.fields if isinstance(field.dataType, DoubleType)]

    names = schema.fieldNames()

    def row(record: dict) -> tuple:
        for name in doubles:
            record[name] = float(record[name])  # a JSON number without a fraction is still a double column
        return tuple(record[name] for name in names)

    order = [name for name in ("file", "channel", "frame") if name in names]
    return spark.createDataFrame(records.map(row), schema).orderBy(*order)


def session(master: str | None) -> SparkSession:
    """spark-submit's session (it sets the master), else one on `master` (default local[2])."""
    builder = SparkSession.builder.appName("sonde-pipe").config("spark.ui.enabled", "false")
    if master or "PYSPARK_GATEWAY_PORT" not in os.environ:  # not started by spark-submit
        master = master or "local[2]"
        builder = builder.master(master).config("spark.sql.shuffle.partitions", "4")
        if master.startswith("local"):
            # One machine: the driver on loopback, whatever the host name resolves to.
            builder = builder.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
    return builder.config("spark.ui.showConsoleProgress", "false").getOrCreate()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", help="the dataset folder (the same path on every executor)")
    parser.add_argument("-o", "--output", help="write the records as Parquet (a folder of parts, Spark's layout)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--sonde", help="the sonde each executor runs: the same path on every node (default: the driver's, from PATH)"
    )
    where.add_argument(
        "--ship", metavar="PATH", help="send this sonde binary with the job; each executor runs its own copy"
    )
    parser.add_argument("--partitions", type=int, default=4, help="slices of the file list: sonde runs (default 4)")
    parser.add_argument("--master", default=None, help="Spark master (default: spark-submit's, else local[2])")
    parser.add_argument("sonde_options", nargs="*", help="after --: options for sonde process, e.g. -- --window 2048")
    args = parser.parse_args()
    if args.partitions < 1:
        parser.error(f"--partitions {args.partitions}: expected 1 or more")
    sonde = args.ship or args.sonde or shutil.which("sonde")
    if sonde is None:
        parser.error("no sonde on PATH: install it on every node (make install), name it with --sonde, or --ship it")
    if args.ship and not os.access(args.ship, os.X_OK):
        parser.error(f"--ship {args.ship}: not an executable file; expected a sonde binary (make build)")
    if not os.path.isdir(args.data):
        parser.error(f"{args.data}: not a folder; expected the dataset's folder, the same path on every executor")
    spark = session(args.master)
    try:
        spark.sparkContext.setLogLevel("WARN")
        if args.ship:
            spark.sparkContext.addFile(os.path.abspath(args.ship))
            sonde = os.path.basename(args.ship)
        frame = measure(spark, args.data, sonde, bool(args.ship), args.partitions, args.sonde_options)
        if args.output:
            frame.write.mode("errorifexists").parquet(args.output)
            print(f"wrote the records of {len(audio_files(args.data))} files to {args.output}")
        else:
            frame.show(5)
    finally:
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
