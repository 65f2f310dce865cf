"""sonde's Parquet records as a DataFrame indexed by file, channel, start and end."""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

# Columns sonde writes besides the values: they become the index or are dropped.
RECORD_COLUMNS = ("file", "time", "channel", "frame", "start")


def read_records(data) -> pa.Table:
    """Parquet bytes or a memory map of them, read without a copy."""
    return pq.read_table(pa.BufferReader(pa.py_buffer(data)))


def to_frame(
    table: pa.Table,
    window: int,
    rate: Optional[float],
    rate_of: Callable[[Optional[str]], float],
    file_name: Optional[str] = None,
    backend: str = "pandas",
):
    """Index by (file,) channel, start, end; keep the value columns in sonde's order.

    - Parameters:
      - rate: the sample rate when the caller knows it (a signal, or `rate=`).
      - rate_of: asks sonde for a file's rate, for an input too short to give two windows.
      - file_name: a `file` value to add when sonde wrote none (a single input).
    """
    # One block per column: the value columns are handed over without a copy.
    frame = table.to_pandas(split_blocks=True)
    if file_name is not None and "file" not in frame.columns:
        frame.insert(0, "file", file_name)
    keys = ["file"] if "file" in frame.columns else []
    starts = frame["start"].to_numpy(dtype=float)
    if rate is not None:
        rates = np.full(len(frame), float(rate))
    else:
        # Each input's rate from its own records, for all inputs at once: samples between
        # its first and last window starts over the seconds between them (a loop over the
        # inputs' groups was most of process_folder's time over 2,000 clips).
        groups = frame.groupby(keys, sort=False) if keys else frame.groupby(np.zeros(len(frame)), sort=False)
        span = groups["start"].transform("max") - groups["start"].transform("min")
        seconds_span = groups["time"].transform("max") - groups["time"].transform("min")
        rates = (span / seconds_span.where(span > 0)).to_numpy(dtype=float, copy=True)
        missing = np.isnan(rates)
        if missing.any():
            # Inputs too short for two windows: their rate from sonde, one question each.
            names = frame.loc[missing, "file"] if keys else pd.Series([None] * int(missing.sum()))
            asked = {name: rate_of(name) for name in pd.unique(names)}
            rates[missing] = [asked[name] for name in names]
    frame["start"] = pd.to_timedelta(starts / rates, unit="s")
    frame["end"] = frame["start"] + pd.to_timedelta(window / rates, unit="s")
    values = [name for name in table.column_names if name not in RECORD_COLUMNS]
    index = keys + ["channel", "start", "end"]
    frame = frame[index + values]
    if backend == "polars":
        import polars as pl

        return pl.from_pandas(frame)
    if backend != "pandas":
        raise ValueError(f"backend {backend!r}: expected 'pandas' or 'polars'")
    return frame.set_index(index)
