"""Per-file summaries of the records: one row per file and channel, a column per feature
and statistic, as opensmile-python's functionals give one row per file."""

from __future__ import annotations

import re
from typing import Sequence, Union

import numpy as np
import pandas as pd

# The statistics by name; pN (p5, p95, p2.5) is numpy.percentile(x, N).
NAMED = ("mean", "std", "min", "max", "median", "range")
PERCENTILE = re.compile(r"p(\d+(?:\.\d+)?)")


def statistics(summary: Union[str, Sequence[str]]) -> list[str]:
    """`summary`: a list of statistic names, or one comma-separated string "mean,std,p95"."""
    if isinstance(summary, str):
        names = [name.strip() for name in summary.split(",") if name.strip()]
    else:
        names = list(summary)
    if not names:
        raise ValueError("summary: no statistics; expected e.g. summary=['mean', 'std', 'p95']")
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"summary: {name!r} is not a statistic's name; expected e.g. summary=['mean', 'std', 'p95']")
        match = PERCENTILE.fullmatch(name)
        if name in NAMED or (match and float(match.group(1)) <= 100):
            continue
        raise ValueError(f"summary: unknown statistic {name!r}; expected {', '.join(NAMED)} or pN, 0 <= N <= 100 (p5, p95)")
    if len(set(names)) != len(names):
        raise ValueError(f"summary: {names!r} names a statistic twice")
    return names


def summarize(frame: pd.DataFrame, summary: Union[str, Sequence[str]]) -> pd.DataFrame:
    """The statistics of each feature over each file's and channel's windows, in one
    pandas DataFrame of one row per file and channel (opensmile-python's functionals shape).

        df = sonde.Measurer(features=["rms", "kurtosis"]).process_file("motor.wav")
        sonde.summarize(df, ["mean", "std", "p95"])   # columns rms_mean, rms_std, rms_p95, ...

    `Measurer(summary=[...])` returns the same from every method in one call.

    - frame: a pandas frame as `Measurer` returns it (index `file` when it has one,
      `channel`, `start`, `end`).
    - summary: the statistics, a list or one comma-separated string. For the values `x` of
      one feature over one file's and channel's windows, in time order:
      mean `numpy.mean(x)`; std `numpy.std(x)`, the population standard deviation
      (ddof=0, as sonde's own `std` feature and opensmile's stddev); min `numpy.min(x)`;
      max `numpy.max(x)`; median `numpy.median(x)`; range `max - min`; pN, 0 <= N <= 100
      (p5, p95, p2.5), `numpy.percentile(x, N)` with numpy's default method, "linear":
      the sorted values' entry at position (n - 1)·N/100, interpolated linearly between
      its neighbours.

    The index keeps the frame's levels: `file` (when the frame has it), `channel`, then
    `start`, the first window's start, and `end`, the last window's end: the span the
    windows cover. Rows come in the frame's order of files and channels. The columns are
    `<feature>_<statistic>`, feature by feature in the frame's order, each feature's
    statistics in the order asked for; a `rate` column (files of different rates) stays
    first, one value per file. `attrs` (the rate, `failed`) are kept.
    """
    names = statistics(summary)
    keys = [name for name in frame.index.names if name not in ("start", "end")]
    features = [name for name in frame.columns if name != "rate"]
    columns = [f"{feature}_{name}" for feature in features for name in names]
    if len(frame) == 0:
        index = pd.MultiIndex.from_arrays(
            [frame.index.get_level_values(name)[:0] for name in keys + ["start", "end"]], names=keys + ["start", "end"]
        )
        empty = pd.DataFrame({name: pd.Series([], dtype=float) for name in (["rate"] if "rate" in frame.columns else []) + columns})
        empty.index = index
        empty.attrs = dict(frame.attrs)
        return empty
    groups = pd.MultiIndex.from_arrays([frame.index.get_level_values(name) for name in keys], names=keys)
    codes, uniques = groups.factorize()  # in order of first appearance: the frame's order
    order = np.argsort(codes, kind="stable")  # each group's rows together, in time order
    bounds = np.searchsorted(codes[order], np.arange(len(uniques) + 1))
    # One row per feature, each group's windows a contiguous run of it: each statistic is
    # numpy's along that axis, the same value numpy gives for the feature's 1-D array.
    values = np.ascontiguousarray(frame[features].to_numpy(dtype=np.float64)[order].T)
    # The span the windows cover, as nanoseconds: reduceat over each group's run.
    starts = frame.index.get_level_values("start").to_numpy().view(np.int64)[order]
    ends = frame.index.get_level_values("end").to_numpy().view(np.int64)[order]
    first_start = np.minimum.reduceat(starts, bounds[:-1])
    last_end = np.maximum.reduceat(ends, bounds[:-1])
    percentiles = [(at, float(PERCENTILE.fullmatch(name).group(1))) for at, name in enumerate(names) if name not in NAMED]
    result = np.empty((len(uniques), len(features), len(names)))
    for group in range(len(uniques)):
        low, high = bounds[group], bounds[group + 1]
        block = values[:, low:high]
        for at, name in enumerate(names):
            if name == "mean":
                result[group, :, at] = np.mean(block, axis=1)
            elif name == "std":
                result[group, :, at] = np.std(block, axis=1)
            elif name == "min":
                result[group, :, at] = np.min(block, axis=1)
            elif name == "max":
                result[group, :, at] = np.max(block, axis=1)
            elif name == "median":
                result[group, :, at] = np.median(block, axis=1)
            elif name == "range":
                result[group, :, at] = np.max(block, axis=1) - np.min(block, axis=1)
        if percentiles:
            found = np.percentile(block, [q for _, q in percentiles], axis=1)
            for row, (at, _) in enumerate(percentiles):
                result[group, :, at] = found[row]
    out = pd.DataFrame(result.reshape(len(uniques), -1), columns=columns)
    if "rate" in frame.columns:
        out.insert(0, "rate", frame["rate"].to_numpy()[order][bounds[:-1]])
    arrays = [uniques.get_level_values(level) for level in range(len(keys))]
    arrays += [pd.to_timedelta(first_start, unit="ns"), pd.to_timedelta(last_end, unit="ns")]
    out.index = pd.MultiIndex.from_arrays(arrays, names=keys + ["start", "end"])
    out.attrs = dict(frame.attrs)
    return out
