"""Every column `sonde process` can write besides the record keys: its unit and where
docs/features.md defines it, for `sonde.features()`.

The binary lists the names `--features` takes (`sonde.feature_names()` asks it) but not
their units, so the units are kept here, copied from docs/features.md (which the binary's
declarations generate). The package's tests fail when this table and the binary's list
disagree, or when a unit here differs from the page's.
"""

from __future__ import annotations

# The page, relative to the root of sonde's repository.
PAGE = "docs/features.md"

# (section number, heading anchor) of each group of columns on the page.
TIME_DOMAIN = (4, "4-time-domain-features")
SPECTRAL = (5, "5-spectral-features")
MEL = (7, "mel")
FLUX = (7, "flux")
VELOCITY = (7, "velocity")
ENVELOPE = (7, "envelope")
LEVEL = (7, "level")
BEARING = (7, "bearing")
BAND_POWERS = (7, "band-powers")
OCTAVE_BANDS = (7, "octave-bands")

# (column as the page names it, unit, group, how it is asked for), in sonde's column order.
# "features" rows are the names `Measurer(features=...)` takes; the others are families of
# columns named by pattern, asked for by the keyword given.
COLUMNS = (
    ("mean", "input unit", TIME_DOMAIN, "default"),
    ("rms", "input unit", TIME_DOMAIN, "default"),
    ("std", "input unit", TIME_DOMAIN, "default"),
    ("peak", "input unit", TIME_DOMAIN, "default"),
    ("peak_to_peak", "input unit", TIME_DOMAIN, "default"),
    ("crest_factor", "1", TIME_DOMAIN, "default"),
    ("skewness", "1", TIME_DOMAIN, "default"),
    ("kurtosis", "1", TIME_DOMAIN, "default"),
    ("zero_crossing_rate", "1", TIME_DOMAIN, "default"),
    ("total_power", "input unit²", SPECTRAL, "default"),
    ("dominant_frequency", "Hz", SPECTRAL, "default"),
    ("dominant_amplitude", "input unit", SPECTRAL, "default"),
    ("spectral_centroid", "Hz", SPECTRAL, "default"),
    ("spectral_bandwidth", "Hz", SPECTRAL, "default"),
    ("spectral_rolloff", "Hz", SPECTRAL, "default"),
    ("spectral_flatness", "1", SPECTRAL, "default"),
    ("spectral_entropy", "1", SPECTRAL, "default"),
    ("thd", "1", SPECTRAL, "default"),
    ("snr_db", "dB", SPECTRAL, "default"),
    ("mel_1 .. mel_M", "dB", MEL, "mel=M"),
    ("mfcc_1 .. mfcc_C", "dB", MEL, "mfcc=C"),
    ("spectral_flux", "|X| (input unit · samples)", FLUX, "features"),
    ("velocity_rms",
     "input unit · s (m/s² in, m/s out); m/s with --input-unit, mm/s with --velocity-unit mm/s",
     VELOCITY, "features"),
    ("envelope_rms", "input unit", ENVELOPE, "features"),
    ("envelope_frequency", "Hz", ENVELOPE, "features"),
    ("level_a", "dB re R", LEVEL, "features"),
    ("level_c", "dB re R", LEVEL, "features"),
    ("bpfo_db", "dB", BEARING, "features"),
    ("bpfi_db", "dB", BEARING, "features"),
    ("bsf_db", "dB", BEARING, "features"),
    ("ftf_db", "dB", BEARING, "features"),
    ("band_power:LO-HI", "input unit²", BAND_POWERS, "bands='LO-HI'"),
    ("octave:NOMINAL", "dB re R", OCTAVE_BANDS, "bands='octave'"),
    ("third_octave:NOMINAL", "dB re R", OCTAVE_BANDS, "bands='third-octave'"),
)


def table():
    """`sonde.features()`'s frame."""
    import pandas as pd

    rows = []
    for name, unit, (section, anchor), asked in COLUMNS:
        named = asked in ("default", "features")
        rows.append(
            {
                "name": name,
                "unit": unit,
                "default": asked == "default",
                "asked_for_by": f"features=[{name!r}]" if named else asked,
                "definition": f"{PAGE} section {section}",
                "link": f"{PAGE}#{anchor}",
            }
        )
    return pd.DataFrame(rows).set_index("name")
