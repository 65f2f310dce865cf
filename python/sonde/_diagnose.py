"""`sonde.diagnose`: `sonde diagnose --format json` as a DataFrame, one row per channel and defect."""

from __future__ import annotations

import json
import numbers
import os
from collections.abc import Mapping
from typing import Optional, Sequence, Union

import numpy as np

from . import _binary, _measurer

# The four defects, in the binary's order (docs/features.md section 9).
DEFECTS = ("bpfo", "bpfi", "bsf", "ftf")

# What every channel shares across its four rows: (column, JSON path).
CHANNEL_COLUMNS = (
    ("verdict", ("verdict",)),
    ("verdict_text", ("verdict_text",)),
    ("threshold_db", ("threshold_db",)),
    ("shaft_hz", ("shaft_hz",)),
    ("band_low_hz", ("band", "low_hz")),
    ("band_high_hz", ("band", "high_hz")),
    ("band_level", ("band", "level")),
    ("band_kurtosis", ("band", "kurtosis")),
    ("band_row", ("band", "row")),
    ("band_index", ("band", "band")),
    ("envelope_rate", ("envelope", "sample_rate")),
    ("envelope_resolution_hz", ("envelope", "resolution_hz")),
    ("envelope_segments", ("envelope", "segments")),
    ("velocity_rms_mm_s", ("velocity_rms_mm_s",)),
    ("iso20816_zone", ("iso20816_zone",)),
    ("machine_group", ("machine_group",)),
    ("foundation", ("foundation",)),
)


def diagnose(
    source,
    *,
    shaft_speed: str,
    bearing: Union[str, Mapping],
    rate: Optional[float] = None,
    channels: Optional[int] = None,
    sample_type: Optional[str] = None,
    input_unit: Optional[str] = None,
    machine_group: Optional[int] = None,
    foundation: Optional[str] = None,
    threshold: Optional[float] = None,
    levels: Optional[int] = None,
    variables: Union[None, str, Sequence[str]] = None,
    rate_variable: Optional[str] = None,
    rate_attribute: Optional[str] = None,
    orientation: Optional[str] = None,
    sonde_bin: Optional[str] = None,
):
    """A rolling-element bearing's condition (`sonde diagnose --format json`), as a pandas
    DataFrame with one row per channel and defect: index (`channel`, `defect`), the defects
    in the binary's order bpfo, bpfi, bsf, ftf.

        df = sonde.diagnose("pump.f32le", rate=25600, channels=2, sample_type="f32le",
                            shaft_speed="1797rpm", bearing="6205-2RS")
        df.loc["ch0", "bpfi"].level_db        # BPFI's level over the background, dB
        df[df.named]                          # the defect each channel's verdict names

    - source: a file path (anything `sonde diagnose` reads), or a numpy array of shape
      (n,) or (n, channels) with `rate=`, streamed to the binary's standard input (float32
      as f32, everything else as f64).
    - shaft_speed: with its unit, as the CLI takes it: "1797rpm" or "29.95hz".
    - bearing: a name ("6205-2RS", "6203-2RS", "ZA-2115", "MFPT"), the CLI's spelling
      ("bpfo=3.5848,bpfi=5.4152,bsf=2.357,ftf=0.3983", "n=9,d=7.94mm,D=39.04mm,angle=0"),
      or a dict of the same: `{"bpfo": 3.5848, "bpfi": 5.4152, "bsf": 2.357, "ftf": 0.3983}`
      or `{"n": 9, "d": "7.94mm", "D": "39.04mm", "angle": 0}` (lengths with their unit).
    - rate, channels, sample_type: how to read a file, as for `Measurer.process_file`
      (an array needs `rate`; its shape and dtype give the rest).
    - input_unit: "m/s2" (the binary's default) or "g"; only the velocity depends on it.
    - machine_group (1 or 2, default 2), foundation ("rigid", the default, or "flexible"):
      the ISO 20816-3 class for the zone.
    - threshold: dB over the background a defect must reach (default 10).
    - levels: levels of the kurtogram (default 6); the recording needs 2^(levels+7)
      samples per channel.
    - variables, rate_variable, rate_attribute, orientation: MATLAB, HDF5 and TDMS inputs,
      as for `Measurer`.
    - sonde_bin: the binary to run; default as `sonde.find_binary()`: $SONDE_BIN, else the one
      the wheel carries, else `sonde` on PATH.

    Columns, per defect: `frequency_hz` (multiple x shaft speed), `multiple`, `level_db`
    (the fundamental's level: NaN when not measurable, `not_measurable` then says why),
    `harmonics_found` (harmonics at or above the threshold), and per harmonic h = 1, 2, 3
    `h<h>_peak_hz` (the bin read) and `h<h>_db`; `named`: True on the row of the defect
    the channel's verdict names. Per channel, repeated on its rows: `verdict` ("bpfo",
    "bpfi", "bsf", "ftf", "none" or "not_measurable"), `verdict_text`, `threshold_db`,
    `shaft_hz`, the kurtogram band (`band_low_hz`, `band_high_hz`, `band_level`,
    `band_kurtosis`, `band_row`, `band_index`), its envelope spectrum (`envelope_rate`,
    `envelope_resolution_hz`, `envelope_segments`), `velocity_rms_mm_s` and
    `iso20816_zone` (None when not measurable), `machine_group`, `foundation`.
    docs/features.md section 9 in sonde's repository defines every number.
    `df.attrs["diagnosis"]` holds the binary's JSON as parsed (every harmonic's reason).

    Raises TypeError for a shaft speed without a unit or a value of the wrong shape,
    ValueError for an array without `rate` or of the wrong shape, `sonde.SondeError` with
    the binary's message for what it refuses (an unknown bearing, a recording too short
    for the kurtogram), `sonde.SondeNotFound` when there is no binary.
    """
    binary = _binary.find_binary(sonde_bin)
    arguments = ["diagnose"]
    stdin_chunks = None
    if isinstance(source, (str, os.PathLike)):
        arguments.append(os.fspath(source))
        arguments += _measurer.Measurer._input_options(rate, channels, sample_type)
    else:
        if channels is not None or sample_type is not None:
            raise ValueError("channels and sample_type describe a raw file; an array's shape and dtype give them")
        if rate is None:
            raise ValueError("an array carries no sample rate; pass rate= (Hz)")
        array, kind = _measurer.samples(source)
        arguments += ["-", "--rate", repr(float(rate)), "--channels", str(array.shape[1]), "--sample-type", kind]
        stdin_chunks = _measurer.chunks(array, kind)
    arguments += ["--shaft-speed", _shaft_speed(shaft_speed), "--bearing", _bearing(bearing)]
    for flag, value in (
        ("--input-unit", input_unit),
        ("--machine-group", machine_group),
        ("--foundation", foundation),
        ("--levels", levels),
        ("--rate-variable", rate_variable),
        ("--rate-attribute", rate_attribute),
        ("--orientation", orientation),
    ):
        if value is not None:
            arguments += [flag, str(value)]
    if threshold is not None:
        arguments += ["--threshold", repr(float(threshold))]
    names = _measurer._names(variables, "variables")
    if names is not None:
        arguments += ["--variables", ",".join(names)]
    arguments += ["--format", "json"]
    return frame(json.loads(_binary.run(binary, arguments, stdin_chunks)))


def _shaft_speed(value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Real):
        raise TypeError(f"shaft_speed={value!r}: give its unit, as shaft_speed='{value:g}rpm' or '{value:g}hz'")
    raise TypeError(f"shaft_speed={value!r}: expected a string such as '1797rpm' or '29.95hz'")


def _bearing(value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        parts = []
        for key, item in value.items():
            if isinstance(item, bool) or not isinstance(item, (str, numbers.Real)):
                raise TypeError(f"bearing: {key}={item!r} is not a number or a length such as '7.94mm'")
            text = item if isinstance(item, str) else (str(item) if isinstance(item, numbers.Integral) else repr(float(item)))
            parts.append(f"{key}={text}")
        return ",".join(parts)
    raise TypeError(
        f"bearing={value!r}: expected a name ('6205-2RS'), the CLI's spelling ('bpfo=3.5848,...') or a dict "
        "({'bpfo': 3.5848, 'bpfi': 5.4152, 'bsf': 2.357, 'ftf': 0.3983})"
    )


def _at(entry: dict, path: Sequence[str]):
    for key in path:
        entry = entry[key]
    return entry


def frame(diagnosis: list):
    """The binary's JSON (a list of channels) as the DataFrame `diagnose` returns."""
    import pandas as pd

    orders = sorted({h["order"] for channel in diagnosis for d in channel["defects"] for h in d["harmonics"]})
    rows, index = [], []
    for channel in diagnosis:
        shared = {name: _at(channel, path) for name, path in CHANNEL_COLUMNS}
        for defect in channel["defects"]:
            row = {
                "frequency_hz": defect["frequency_hz"],
                "multiple": defect["multiple"],
                "level_db": _number(defect["level_db"]),
                "harmonics_found": defect["harmonics_found"],
            }
            harmonics = {h["order"]: h for h in defect["harmonics"]}
            for order in orders:
                harmonic = harmonics.get(order, {})
                row[f"h{order}_peak_hz"] = _number(harmonic.get("peak_hz"))
                row[f"h{order}_db"] = _number(harmonic.get("level_db"))
            first = harmonics.get(1, {})
            row["not_measurable"] = first.get("not_measurable")
            row["named"] = channel["verdict"] == defect["defect"]
            row.update(shared)
            rows.append(row)
            index.append((channel["channel"], defect["defect"]))
    columns = ["frequency_hz", "multiple", "level_db", "harmonics_found"]
    columns += [f"h{order}_{what}" for order in orders for what in ("peak_hz", "db")]
    columns += ["not_measurable", "named"] + [name for name, _ in CHANNEL_COLUMNS]
    result = pd.DataFrame(rows, columns=columns, index=pd.MultiIndex.from_tuples(index, names=["channel", "defect"]))
    if not rows:
        result.index = pd.MultiIndex.from_arrays([[], []], names=["channel", "defect"])
    result["velocity_rms_mm_s"] = result["velocity_rms_mm_s"].astype("float64")
    result.attrs["diagnosis"] = diagnosis
    return result


def _number(value) -> float:
    return float("nan") if value is None else float(value)
