"""sonde's measurements as DataFrames.

    import sonde
    m = sonde.Measurer(features=["rms", "kurtosis"], window=1024, hop=512)
    df = m.process_file("motor.wav")
    spec = sonde.spectrum("motor.wav")
    diag = sonde.diagnose("pump.f64", rate=25600, shaft_speed="1797rpm", bearing="6205-2RS")
    sonde.feature_names()     # every name `features=` takes
    sonde.features()          # every column: its unit and where docs/features.md defines it

The `sonde` binary does the work and writes Parquet; this package reads it with pyarrow, so
every value is the binary's, bit for bit. Which binary: `sonde.find_binary()` (SONDE_BIN,
else the one the wheel carries, else `sonde` on PATH). What the binary notes on standard
error arrives as `sonde.SondeWarning`.
"""

from __future__ import annotations

import functools
import io
import json
import os
import re
from typing import Optional, Sequence, Union

import pyarrow.csv as pacsv

from . import _catalog
from ._binary import SondeError, SondeNotFound, SondeWarning, find_binary, run
from ._diagnose import diagnose
from ._measurer import Measurer
from ._summary import summarize

# The package's version, the same as the sonde release it wraps (`sonde --version`);
# pyproject.toml reads it from here.
__version__ = "0.8.0"

__all__ = [
    "Measurer",
    "SondeError",
    "SondeNotFound",
    "SondeWarning",
    "__version__",
    "diagnose",
    "feature_names",
    "features",
    "find_binary",
    "spectrum",
    "summarize",
]


def feature_names(sonde_bin: Optional[str] = None) -> list[str]:
    """Every name `Measurer(features=...)` takes, in sonde's order: the default set (what
    `features=None` computes), then the optional ones. Asked of the binary, so the list is
    the one it was built with."""
    return list(_feature_names(find_binary(sonde_bin)))


def features():
    """Every column `sonde process` can write besides the record keys, as a pandas
    DataFrame indexed by `name`, in sonde's column order:

    - unit: the column's unit as docs/features.md gives it ("input unit" is the unit of
      the samples; "1" is a ratio; "dB re R" is relative to `--reference`, 1 by default).
    - default: whether `features=None` computes it.
    - asked_for_by: the `Measurer` keyword that adds it: `features=['spectral_flux']`, or,
      for the columns named by pattern (`mel_1 .. mel_M`, `band_power:LO-HI`,
      `octave:NOMINAL`, ...), `mel=M`, `mfcc=C`, `bands='LO-HI'`, `bands='octave'`.
    - definition: the section of docs/features.md in sonde's repository that defines it
      (`docs/features.md section 4`), and link: the page and heading anchor
      (`docs/features.md#4-time-domain-features`).

    The names are those `sonde.feature_names()` asks the binary for; the units are a table
    kept in the package (the binary does not print units), checked against the binary's
    list and docs/features.md by the package's tests.
    """
    return _catalog.table()


@functools.lru_cache(maxsize=None)
def _feature_names(binary: str) -> tuple[str, ...]:
    # argument-parser's JSON description of `sonde process`: the --features option's
    # completion values are the list the shell completions offer, from the declarations.
    description = json.loads(run(binary, ["process", "--experimental-dump-help"]))
    for argument in description.get("command", {}).get("arguments", []):
        if (argument.get("preferredName") or {}).get("name") != "features":
            continue
        values = ((argument.get("completionKind") or {}).get("list") or {}).get("values")
        if not values:
            # Else the help text's comma-separated lists: "...(default: a,b,c). Optional: x,y."
            lists = re.findall(r"\b[a-z][a-z0-9_]*(?:,[a-z][a-z0-9_]*)+", argument.get("abstract", ""))
            values = [name for names in lists for name in names.split(",")]
        # `default` names the default set, not a feature of its own.
        names = tuple(dict.fromkeys(name for name in values if name != "default"))
        if names:
            return names
    raise SondeError(f"{binary} process --experimental-dump-help lists no --features values", 0)


def spectrum(
    path: Union[str, os.PathLike],
    window: int = 1024,
    hop: Optional[int] = None,
    filters: Union[str, Sequence[str]] = (),
    rate: Optional[float] = None,
    channels: Optional[int] = None,
    sample_type: Optional[str] = None,
    sonde_bin: Optional[str] = None,
):
    """The Welch power spectrum of a file (`sonde spectrum`): indexed by `frequency` in Hz,
    one column per channel in units²/Hz.

    - window, hop: the segment length (a power of two) and the step between segments.
    - filters: filter specs applied first, as for `Measurer`.
    - rate, channels, sample_type: how to read the file, as for `Measurer.process_file`.
    - sonde_bin: the binary to run; default as `sonde.find_binary()`: $SONDE_BIN, else the one
      the wheel carries, else `sonde` on PATH.
    """
    arguments = ["spectrum", os.fspath(path), "--window", str(window)]
    if hop is not None:
        arguments += ["--hop", str(hop)]
    for spec in [filters] if isinstance(filters, str) else filters:
        arguments += ["--filter", spec]
    if rate is not None:
        arguments += ["--rate", repr(float(rate))]
    if channels is not None:
        arguments += ["--channels", str(channels)]
    if sample_type is not None:
        arguments += ["--sample-type", sample_type]
    output = run(find_binary(sonde_bin), arguments)
    frame = pacsv.read_csv(io.BytesIO(output)).to_pandas()
    return frame.set_index("frequency")
