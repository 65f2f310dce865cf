"""sonde's Parquet records as a DataFrame indexed by file, channel, start and end."""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from . import _binary

# Columns sonde writes besides the values: they become the index or are dropped.
RECORD_COLUMNS = ("file", "time", "channel", "frame", "start")

# Read as their Parquet dictionaries: codes without a Python string per row (a third of
# the conversion over 2,000 clips went to building and hashing those strings).
LABEL_COLUMNS = ("file", "channel")


def read_records(data) -> pa.Table:
    """Parquet bytes or a memory map of them, read without a copy."""
    # ParquetFile, not read_table: the dataset layer read_table goes through cost a first
    # call 0.1 s more (and later ones a few ms). It refuses a dictionary column the file
    # lacks (a single input has no `file`), so the footer is read first, once.
    buffer = pa.py_buffer(data)
    footer = pq.ParquetFile(pa.BufferReader(buffer))
    labels = [name for name in LABEL_COLUMNS if name in footer.schema_arrow.names]
    return pq.ParquetFile(pa.BufferReader(buffer), metadata=footer.metadata, read_dictionary=labels).read()


def to_frame(
    table: pa.Table,
    window: int,
    rate: Optional[float],
    rate_of: Callable[[Optional[str]], float],
    file_name: Optional[str] = None,
    backend: str = "pandas",
    padding: int = 0,
):
    """Index by (file,) channel, start, end; keep the value columns in sonde's order.

    The sample rate: when every record has the same, pandas' `frame.attrs["rate"]` holds it
    (Hz) and there is no rate column; when the files' rates differ, `attrs["rate"]` is None,
    a `rate` column (Hz, before the features; polars: after `end`) gives each row's, and a
    `SondeWarning` says so.

    - Parameters:
      - rate: the sample rate when the caller knows it (a signal, or `rate=`).
      - rate_of: asks sonde for a file's rate, for an input too short to give two windows.
      - file_name: a `file` value to add when sonde wrote none (a single input).
      - padding: zero samples put before the signal (center=True): sonde's window starts
        are counted from the padded signal's first sample, the frame's from the signal's.
    """
    if backend not in ("pandas", "polars"):
        raise ValueError(f"backend {backend!r}: expected 'pandas' or 'polars'")
    rows = table.num_rows
    table = table.unify_dictionaries()
    labels = {}
    for name in LABEL_COLUMNS:
        if name in table.column_names:
            labels[name] = _codes(table.column(name))
    if "file" not in labels and file_name is not None:
        labels["file"] = (np.zeros(rows, dtype=np.int32), [file_name] if rows else [])
    starts = table.column("start").to_numpy()
    if rate is not None:
        rates = np.full(rows, float(rate))
    else:
        rates = _rates(starts, table.column("time").to_numpy(), labels.get("file"), rate_of)
    start = pd.to_timedelta((starts - padding) / rates, unit="s")
    end = start + pd.to_timedelta(window / rates, unit="s")
    distinct = np.unique(rates).tolist() if rows else ([float(rate)] if rate is not None else [])
    mixed = len(distinct) > 1
    if mixed:
        shown = ", ".join(f"{value:g} Hz" for value in distinct)
        _binary.warn(
            f"files of different sample rates in one frame ({shown}): the `rate` column gives each row's "
            f"(a window of {window} samples lasts a different time in each)"
        )

    values = [name for name in table.column_names if name not in RECORD_COLUMNS]
    # One block per column: the value columns are handed over without a copy.
    frame = table.select(values).to_pandas(split_blocks=True)
    keys = [name for name in ("file", "channel") if name in labels]
    if backend == "polars":
        import polars as pl

        columns = {name: np.asarray(labels[name][1], dtype=object)[labels[name][0]] for name in keys}
        columns["start"], columns["end"] = start, end
        if mixed:
            columns["rate"] = rates
        return pl.from_pandas(pd.concat([pd.DataFrame(columns), frame], axis=1))
    if mixed:
        frame.insert(0, "rate", rates)
    frame.attrs["rate"] = distinct[0] if len(distinct) == 1 else None
    levels, codes = [], []
    for name in keys:
        level_codes, names = labels[name]
        values_of_codes = np.asarray(names, dtype=object)
        # Levels sorted, as MultiIndex.from_arrays makes them.
        order = np.argsort(values_of_codes, kind="stable")
        remap = np.empty(len(names), dtype=np.int64)
        remap[order] = np.arange(len(names))
        levels.append(pd.Index(values_of_codes[order], dtype=str))
        codes.append(remap[level_codes])
    for times in (start, end):
        level_codes, uniques = times.factorize(sort=True)
        levels.append(uniques)
        codes.append(level_codes)
    frame.index = pd.MultiIndex(levels=levels, codes=codes, names=keys + ["start", "end"], verify_integrity=False)
    return frame


def _codes(column: pa.ChunkedArray) -> tuple[np.ndarray, list[str]]:
    """A dictionary column's codes per row and its values (one dictionary after
    `unify_dictionaries`); a plain string column is encoded first."""
    if not pa.types.is_dictionary(column.type):
        column = column.dictionary_encode()
    if column.num_chunks == 0:
        return np.zeros(0, dtype=np.int32), []
    codes = np.concatenate([chunk.indices.to_numpy(zero_copy_only=False) for chunk in column.chunks])
    return codes, column.chunk(0).dictionary.to_pylist()


def _rates(starts, times, files, rate_of) -> np.ndarray:
    """Each input's rate from its own records, for all inputs at once: samples between its
    first and last window starts over the seconds between them. Inputs too short for two
    windows get theirs from sonde (`rate_of`), one question each."""
    codes, names = files if files is not None else (np.zeros(len(starts), dtype=np.int32), [None])
    count = len(names)
    first, last = np.full(count, np.iinfo(np.int64).max), np.full(count, np.iinfo(np.int64).min)
    earliest, latest = np.full(count, np.inf), np.full(count, -np.inf)
    np.minimum.at(first, codes, starts)
    np.maximum.at(last, codes, starts)
    np.minimum.at(earliest, codes, times)
    np.maximum.at(latest, codes, times)
    span = (last - first).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_input = np.where(span > 0, span / (latest - earliest), np.nan)
    for index in np.flatnonzero(np.isnan(per_input) & (np.bincount(codes, minlength=count) > 0)):
        per_input[index] = rate_of(names[index])
    # Samples over seconds is the rate to a few ulps: 12 significant digits give every input
    # of one rate the same value, so a frame of one rate is seen as one.
    snapped = np.array([float(f"{value:.12g}") if np.isfinite(value) else value for value in per_input])
    return snapped[codes]
