"""sonde's Parquet records as a DataFrame indexed by file, channel, start and end."""

from __future__ import annotations

import io
from typing import Callable, Optional

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

# Columns sonde writes besides the values: they become the index or are dropped.
RECORD_COLUMNS = ("file", "time", "channel", "frame", "start")


def read_records(data: bytes) -> pa.Table:
    return pq.read_table(io.BytesIO(data))


def frame_rate(group: pd.DataFrame) -> Optional[float]:
    """The input's sample rate from its own records: samples between two window starts over
    the seconds between them (None when the input gave fewer than two windows)."""
    starts = group["start"].to_numpy()
    times = group["time"].to_numpy()
    last = int(np.argmax(starts))
    first = int(np.argmin(starts))
    if starts[last] == starts[first]:
        return None
    return float(starts[last] - starts[first]) / float(times[last] - times[first])


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
    frame = table.to_pandas()
    if file_name is not None and "file" not in frame.columns:
        frame.insert(0, "file", file_name)
    keys = ["file"] if "file" in frame.columns else []
    seconds = np.empty(len(frame))
    for name, group in frame.groupby(keys, sort=False) if keys else [(None, frame)]:
        if isinstance(name, tuple):
            name = name[0]
        group_rate = rate or frame_rate(group) or rate_of(name)
        seconds[frame.index.get_indexer(group.index)] = group["start"].to_numpy() / group_rate
        frame.loc[group.index, "_length"] = window / group_rate
    frame["start"] = pd.to_timedelta(seconds, unit="s")
    frame["end"] = frame["start"] + pd.to_timedelta(frame["_length"].to_numpy(dtype=float), unit="s")
    values = [name for name in table.column_names if name not in RECORD_COLUMNS]
    index = keys + ["channel", "start", "end"]
    frame = frame[index + values]
    if backend == "polars":
        import polars as pl

        return pl.from_pandas(frame)
    if backend != "pandas":
        raise ValueError(f"backend {backend!r}: expected 'pandas' or 'polars'")
    return frame.set_index(index)
