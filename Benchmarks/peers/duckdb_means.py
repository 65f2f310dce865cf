#!/usr/bin/env python3
"""How long DuckDB takes to compute the mean of every feature per channel from sonde's
output, Parquet against CSV (issue 21's figure).

    python3 Benchmarks/peers/duckdb_means.py out.parquet out.csv [--rounds 5]

Each round runs the query once per file, alternating, each in a fresh connection (so no
cache of a previous read helps); prints every time and the median per file, and checks
that both files give the same means (to 1e-12 relative: DuckDB sums in its own order).
"""

from __future__ import annotations

import argparse
import statistics
import time

import duckdb


def query(path: str, connection: duckdb.DuckDBPyConnection) -> str:
    reader = "read_parquet" if path.endswith(".parquet") else "read_csv"
    columns = [row[0] for row in connection.execute(f"DESCRIBE SELECT * FROM {reader}(?)", [path]).fetchall()]
    features = [name for name in columns if name not in ("file", "time", "channel", "frame", "start")]
    means = ", ".join(f'avg("{name}")' for name in features)
    return f"SELECT channel, {means} FROM {reader}('{path}') GROUP BY channel ORDER BY channel"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    times: dict[str, list[float]] = {path: [] for path in arguments.files}
    results: dict[str, list] = {}
    for _ in range(arguments.rounds):
        for path in arguments.files:
            connection = duckdb.connect()
            sql = query(path, connection)
            start = time.perf_counter()
            results[path] = connection.execute(sql).fetchall()
            times[path].append(time.perf_counter() - start)
            connection.close()
    for path, measured in times.items():
        print(f"{path}: median {statistics.median(measured):.3f} s ({', '.join(f'{t:.3f}' for t in measured)})")
    reference = next(iter(results.values()))
    for path, rows in results.items():
        for want, got in zip(reference, rows):
            assert want[0] == got[0], f"{path}: channel {got[0]}, expected {want[0]}"
            for a, b in zip(want[1:], got[1:]):
                assert abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1e-300), f"{path}: mean {b} against {a}"
    print(f"same means from every file ({len(reference)} channels x {len(reference[0]) - 1} columns)")


if __name__ == "__main__":
    main()
