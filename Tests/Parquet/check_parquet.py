#!/usr/bin/env python3
"""Reads sonde's Parquet output with pyarrow, polars and DuckDB and checks it against the
CSV output of the same command (issue 21).

    python3 Tests/Parquet/check_parquet.py [path/to/sonde]     # default .build/debug/sonde

For each case it runs the built binary twice, `-o out.csv` and `-o out.parquet` (plus any
case options), then checks:
  - the schema: column names and order as the CSV header; physical and logical types
    (DOUBLE, INT64, BYTE_ARRAY + STRING, dictionary-encoded); every column REQUIRED;
  - every value, read by each of the three readers, bit-identical to Python's float() of
    the CSV's shortest text (integers and strings equal);
  - row groups: count and sizes from --row-group-rows; codec (ZSTD or UNCOMPRESSED);
  - statistics per row group and column: null_count 0, min/max equal to the true min/max
    of that row group's values (a zero minimum as -0.0, a zero maximum as +0.0);
  - the footer's sonde.version and sonde.settings;
  - an empty result (input shorter than one window) is a valid file with the schema;
  - Parquet to standard output gives the same bytes as to a file;
  - a failed run leaves no file behind.
Exits non-zero at the first failure, and when a reader is missing (never skips a check).
"""

from __future__ import annotations

import csv
import datetime
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

try:
    import duckdb
    import polars
    import pyarrow
    import pyarrow.parquet as pq
except ImportError as error:  # fail loudly: a missing reader is a failed check
    sys.exit(f"check_parquet: {error}; install the readers: python3 -m pip install pyarrow polars duckdb")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SONDE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "sonde"))

PUMP = ["sample-data/pump-vibration.csv", "--filter", "highpass:10", "--bands", "0-500,500-2000"]
# (name, sonde arguments, Parquet-only options, expected rows or None when unknown)
CASES = [
    ("pump, zstd, one row group", PUMP, [], None),
    ("pump, uncompressed, row groups of 7", PUMP, ["--compression", "none", "--row-group-rows", "7"], None),
    (
        "two inputs (file column), row groups of 300 crossing the files",
        ["Tests/Fixtures/inputs/accel_time_1k.csv", "Tests/Fixtures/inputs/accel_time_1k_b.csv", "--window", "64", "--hop", "16"],
        ["--row-group-rows", "300"],
        None,
    ),
    (
        "raw 2 channels, some features, row groups of 300",
        ["sample-data/bearing.f32le", "--rate", "25600", "--channels", "2", "--sample-type", "f32le",
         "--window", "256", "--hop", "64", "--features", "rms,kurtosis,dominant_frequency,thd"],
        ["--row-group-rows", "300"],
        None,
    ),
    ("empty: input shorter than one window", PUMP + ["--window", "1048576"], [], 0),
]


class CheckFailed(Exception):
    pass


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def bits(value: float) -> bytes:
    return struct.pack("<d", value)


def run(arguments: list[str], expect_success: bool = True, command: list[str] = ["process"], **options) -> subprocess.CompletedProcess:
    result = subprocess.run([SONDE, *command, *arguments], cwd=ROOT, capture_output=True, **options)
    if expect_success and result.returncode != 0:
        raise CheckFailed(f"sonde {' '.join(command + arguments)} failed ({result.returncode}): {result.stderr.decode()}")
    return result


def read_csv(path: str) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="") as file:
        rows = list(csv.reader(file))
    return rows[0], rows[1:]


def milliseconds(text: str) -> int:
    """Milliseconds since 1970 of an RFC 3339 UTC time as sonde prints it (`...T12:00:00.123Z`)."""
    moment = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return round(moment.timestamp() * 1000)


def typed_columns(header: list[str], rows: list[list[str]], wall_clock: bool = False) -> dict[str, list]:
    """The CSV's columns as Python values: str for file/channel, int for frame/start and for a
    wall-clock time (milliseconds), float else."""
    columns = {}
    for index, name in enumerate(header):
        texts = [row[index] for row in rows]
        if name in ("file", "channel"):
            columns[name] = texts
        elif name in ("frame", "start"):
            columns[name] = [int(text) for text in texts]
        elif name == "time" and wall_clock:
            columns[name] = [milliseconds(text) for text in texts]
        else:
            columns[name] = [float(text) for text in texts]
    return columns


def same_values(name: str, expected: list, actual: list, reader: str) -> None:
    expect(len(expected) == len(actual), f"{reader}: column {name}: {len(actual)} values, expected {len(expected)}")
    for row, (want, got) in enumerate(zip(expected, actual)):
        if isinstance(want, float):
            same = isinstance(got, float) and bits(want) == bits(got)
        else:
            same = want == got and type(want) is type(got)
        expect(same, f"{reader}: column {name}, row {row}: {got!r}, expected {want!r} (bit for bit)")


def check_schema(path: str, header: list[str], wall_clock: bool = False) -> None:
    metadata = pq.ParquetFile(path).metadata
    schema = metadata.schema
    expect([schema.column(i).name for i in range(len(schema))] == header, f"columns {schema.names} != CSV header {header}")
    arrow = pq.read_schema(path)
    for index, name in enumerate(header):
        column = schema.column(index)
        field = arrow.field(name)
        expect(not field.nullable, f"column {name} is nullable; every column must be REQUIRED")
        expect(column.max_definition_level == 0 and column.max_repetition_level == 0, f"column {name} is not a flat required leaf")
        if name in ("file", "channel"):
            expect(column.physical_type == "BYTE_ARRAY" and str(column.logical_type) == "String", f"{name}: {column.physical_type} {column.logical_type}")
            expect(field.type == pyarrow.string() or field.type == pyarrow.large_string(), f"{name}: arrow type {field.type}")
        elif name in ("frame", "start"):
            expect(column.physical_type == "INT64" and field.type == pyarrow.int64(), f"{name}: {column.physical_type} {field.type}")
        elif name == "time" and wall_clock:
            expect(column.physical_type == "INT64" and field.type == pyarrow.timestamp("ms", tz="UTC"),
                   f"time: {column.physical_type} {field.type}, expected INT64 TIMESTAMP(MILLIS, UTC)")
        else:
            expect(column.physical_type == "DOUBLE" and field.type == pyarrow.float64(), f"{name}: {column.physical_type} {field.type}")


def check_row_groups(path: str, header: list[str], columns: dict[str, list], rows: int, group_rows: int, codec: str) -> None:
    metadata = pq.ParquetFile(path).metadata
    expected_groups = math.ceil(rows / group_rows)
    expect(metadata.num_rows == rows, f"num_rows {metadata.num_rows}, expected {rows}")
    expect(metadata.num_row_groups == expected_groups, f"{metadata.num_row_groups} row groups, expected {expected_groups}")
    first = 0
    for group in range(metadata.num_row_groups):
        row_group = metadata.row_group(group)
        count = min(group_rows, rows - first)
        expect(row_group.num_rows == count, f"row group {group}: {row_group.num_rows} rows, expected {count}")
        for index, name in enumerate(header):
            chunk = row_group.column(index)
            expect(chunk.compression == codec, f"row group {group}, {name}: codec {chunk.compression}, expected {codec}")
            if name in ("file", "channel"):
                expect("RLE_DICTIONARY" in chunk.encodings and chunk.has_dictionary_page, f"{name}: not dictionary-encoded ({chunk.encodings})")
            elif chunk.physical_type == "DOUBLE":
                # Split byte streams under zstd (they compress better), PLAIN uncompressed.
                encoding = "PLAIN" if codec == "UNCOMPRESSED" else "BYTE_STREAM_SPLIT"
                expect(chunk.encodings == (encoding,), f"row group {group}, {name}: encodings {chunk.encodings}, expected {encoding}")
            stats = chunk.statistics
            expect(stats is not None and stats.has_min_max and stats.has_null_count, f"row group {group}, {name}: no statistics")
            expect(stats.null_count == 0, f"row group {group}, {name}: null_count {stats.null_count}")
            values = columns[name][first:first + count]
            low, high = min(values), max(values)
            if isinstance(low, float):
                low = -0.0 if low == 0 else low
                high = 0.0 if high == 0 else high
                expect(bits(stats.min) == bits(low) and bits(stats.max) == bits(high),
                       f"row group {group}, {name}: min/max {stats.min!r}/{stats.max!r}, expected {low!r}/{high!r}")
            else:
                if isinstance(stats.min, datetime.datetime):
                    # TIMESTAMP(MILLIS): pyarrow gives datetimes; compare milliseconds.
                    found = (round(stats.min.timestamp() * 1000), round(stats.max.timestamp() * 1000))
                    expect(found == (low, high), f"row group {group}, {name}: min/max {found}, expected {(low, high)}")
                    continue
                expect(stats.min == low and stats.max == high,
                       f"row group {group}, {name}: min/max {stats.min!r}/{stats.max!r}, expected {low!r}/{high!r}")
        first += count


def check_readers(path: str, header: list[str], columns: dict[str, list], wall_clock: bool = False) -> None:
    """Every value through each reader; a wall-clock time as each reader's milliseconds since 1970."""
    table = pq.read_table(path)
    expect(table.column_names == header, f"pyarrow columns {table.column_names}")
    for name in header:
        column = table.column(name)
        if name == "time" and wall_clock:
            column = column.cast(pyarrow.int64())
        same_values(name, columns[name], column.to_pylist(), "pyarrow")

    frame = polars.read_parquet(path)
    expect(frame.columns == header, f"polars columns {frame.columns}")
    for name in header:
        series = frame.get_column(name)
        if name == "time" and wall_clock:
            series = series.dt.epoch("ms")
        same_values(name, columns[name], series.to_list(), "polars")

    connection = duckdb.connect()
    selection = ", ".join('epoch_ms("time")' if name == "time" and wall_clock else f'"{name}"' for name in header)
    rows = connection.execute(f"SELECT {selection} FROM read_parquet(?)", [path]).fetchall()
    names = [description[0] for description in connection.execute("SELECT * FROM read_parquet(?)", [path]).description]
    expect(names == header, f"duckdb columns {names}")
    for index, name in enumerate(header):
        same_values(name, columns[name], [row[index] for row in rows], "duckdb")
    count = connection.execute("SELECT count(*) FROM read_parquet(?)", [path]).fetchone()[0]
    expect(count == len(columns[header[0]]), f"duckdb count(*) {count}")


def check_footer(path: str, arguments: list[str]) -> None:
    metadata = pq.ParquetFile(path).metadata
    pairs = {key.decode(): value.decode() for key, value in (metadata.metadata or {}).items()}
    expect("sonde.version" in pairs, f"no sonde.version in {sorted(pairs)}")
    expect(metadata.created_by.startswith("sonde version "), f"created_by {metadata.created_by!r}")
    settings = json.loads(pairs.get("sonde.settings", "null"))
    expect(isinstance(settings, dict), "sonde.settings is not a JSON object")
    window = int(arguments[arguments.index("--window") + 1]) if "--window" in arguments else 1024
    expect(settings.get("window") == window, f"sonde.settings window {settings.get('window')}, expected {window}")
    for key in ("hop", "filters", "features", "bands"):
        expect(key in settings, f"sonde.settings has no {key}")


def check_case(directory: str, name: str, arguments: list[str], parquet_options: list[str], expected_rows: int | None) -> None:
    csv_path = os.path.join(directory, "out.csv")
    parquet_path = os.path.join(directory, "out.parquet")
    run([*arguments, "--quiet", "-o", csv_path])
    run([*arguments, *parquet_options, "--quiet", "-o", parquet_path])
    header, rows = read_csv(csv_path)
    columns = typed_columns(header, rows)
    if expected_rows is not None:
        expect(len(rows) == expected_rows, f"{len(rows)} CSV records, expected {expected_rows}")
    group_rows = int(parquet_options[parquet_options.index("--row-group-rows") + 1]) if "--row-group-rows" in parquet_options else 65536
    codec = "UNCOMPRESSED" if "none" in parquet_options else "ZSTD"
    check_schema(parquet_path, header)
    check_row_groups(parquet_path, header, columns, len(rows), group_rows, codec)
    check_readers(parquet_path, header, columns)
    check_footer(parquet_path, arguments)
    # The same bytes through standard output (a pipe): the file is written front to back.
    piped = run([*arguments, *parquet_options, "--quiet", "--format", "parquet"]).stdout
    with open(parquet_path, "rb") as file:
        expect(piped == file.read(), "Parquet on standard output differs from the file")
    print(f"ok  {name}: {len(rows)} records, {pq.ParquetFile(parquet_path).metadata.num_row_groups} row groups, "
          f"{os.path.getsize(parquet_path)} bytes (CSV {os.path.getsize(csv_path)})")


def check_wall_clock(directory: str) -> None:
    """A live capture (`sonde measure` on the simulated device) exported as Parquet: time is a
    TIMESTAMP(MILLIS, UTC) holding the millisecond the CSV export prints."""
    home = os.path.join(directory, "home")
    environment = {**os.environ, "SONDE_HOME": home, "SONDE_SCRYPT_LOG_N": "10"}
    run(["register", "--email", "parquet@example.com", "--password-stdin"], command=[], input=b"correct horse\n", env=environment)
    # register no longer logs in (it answers alike for a known address).
    run(["login", "--email", "parquet@example.com", "--password-stdin"], command=[], input=b"correct horse\n", env=environment)
    run(["device", "pair", "--seed", "4"], command=[], env=environment)
    run(["measure", "--duration", "1s", "--features", "rms,kurtosis", "--bands", "0-1000"], command=[], env=environment)
    csv_path = os.path.join(directory, "live.csv")
    parquet_path = os.path.join(directory, "live.parquet")
    run(["measurements", "export", "1", "-o", csv_path], command=[], env=environment)
    run(["measurements", "export", "1", "-o", parquet_path, "--row-group-rows", "64"], command=[], env=environment)
    header, rows = read_csv(csv_path)
    expect(len(rows) > 64, f"a 1 s capture gave {len(rows)} records; expected several row groups of 64")
    columns = typed_columns(header, rows, wall_clock=True)
    check_schema(parquet_path, header, wall_clock=True)
    check_row_groups(parquet_path, header, columns, len(rows), 64, "ZSTD")
    check_readers(parquet_path, header, columns, wall_clock=True)
    pairs = {key.decode(): value.decode() for key, value in pq.ParquetFile(parquet_path).metadata.metadata.items()}
    expect(json.loads(pairs["sonde.settings"]).get("features") == ["rms", "kurtosis"], f"sonde.settings {pairs['sonde.settings']}")
    print(f"ok  live capture exported: {len(rows)} records, time as TIMESTAMP(MILLIS, UTC)")


def check_failed_run_leaves_nothing(directory: str) -> None:
    target = os.path.join(directory, "failed.parquet")
    result = run(["Tests/Fixtures/bad/cell_abc.csv", "--rate", "1000", "-o", target], expect_success=False)
    expect(result.returncode != 0, "a bad input did not fail")
    leftovers = [entry for entry in os.listdir(directory) if entry.startswith("failed.parquet")]
    expect(leftovers == [], f"a failed run left {leftovers}")
    print("ok  a failed run leaves no file")


def main() -> int:
    expect(os.access(SONDE, os.X_OK), f"no sonde binary at {SONDE}; build first")
    print(f"readers: pyarrow {pyarrow.__version__}, polars {polars.__version__}, duckdb {duckdb.__version__}", flush=True)
    with tempfile.TemporaryDirectory(prefix="sonde-parquet-") as directory:
        for name, arguments, parquet_options, expected_rows in CASES:
            try:
                check_case(directory, name, arguments, parquet_options, expected_rows)
            except CheckFailed as failure:
                print(f"FAIL {name}: {failure}", file=sys.stderr)
                return 1
        for name, check in [("failed run", check_failed_run_leaves_nothing), ("live capture", check_wall_clock)]:
            try:
                check(directory)
            except CheckFailed as failure:
                print(f"FAIL {name}: {failure}", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
