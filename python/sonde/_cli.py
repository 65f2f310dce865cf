"""`sonde` on the command line after `pip install` of the wheel: the console script the
wheel declares (python/build_wheel.py) runs this, which replaces itself with the binary the
wheel carries, so the arguments, standard streams, signals and exit status are the
binary's own and no Python stays in between."""

from __future__ import annotations

import os
import sys

from ._binary import BUNDLED, executable


def main() -> None:
    # SONDE_BIN first, as for the package (find_binary); never PATH, where this script
    # itself is `sonde`.
    named = os.environ.get("SONDE_BIN") or BUNDLED
    if not executable(named):
        source = "SONDE_BIN" if os.environ.get("SONDE_BIN") else "the package"
        sys.stderr.write(f"sonde: {source} has no sonde binary at {named}; reinstall the wheel or set SONDE_BIN\n")
        sys.exit(127)
    os.execv(named, [named, *sys.argv[1:]])
