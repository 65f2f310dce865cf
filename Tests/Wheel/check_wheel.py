"""The wheel as a user installs it (issue 50): `make test` runs this on the wheel of its debug
binary (`make wheel-check`).

    check_wheel.py --auditwheel AUDITWHEEL --deps-python PYTHON WHEEL
    check_wheel.py --auditwheel AUDITWHEEL --tag-only WHEEL     (`make wheel`: step 1 only)

1. `auditwheel show` agrees with the platform tag in the wheel's name (run beside 2-4).
2. A new venv (python -m venv: no system site-packages; no pip, the test venv's installs
   into it) in a temporary folder outside the checkout. Its dependencies come from the
   test venv (PYTHON) with no network: a folder of links to exactly the distributions the
   wheel's Requires-Dist needs (numpy, pandas, pyarrow and what they require, resolved
   from their own metadata) is put on its path by a .pth file; `pip install --no-index
   WHEEL` then installs only if those declared dependencies are met, and nothing the
   wheel does not declare is importable.
3. From that folder, with PATH = the venv's bin, /usr/bin and /bin (no sonde, no Swift:
   checked), SONDE_BIN unset and LD_LIBRARY_PATH empty: `sonde --version` and an exit
   status through the console script, `import sonde` measuring a file with the carried
   binary, and ldd of that binary: every library inside the installed package or one the
   manylinux policy lets it take from the system (glibc's, libstdc++, libgcc_s, libz);
   its RUNPATH only $ORIGIN-relative, so the build tree and the toolchain are never
   looked in. The build tree stays where it is (the rest of `make test` runs from it):
   nothing installed points into it.
4. The test packages (pytest, scipy, polars, librosa, linked the same way) added, the
   package's tests (python/tests) against the installed package (SONDE_TEST_INSTALLED=1:
   they import it from the venv and take the carried binary as the CLI they compare with).

Prints each step's seconds and the wheel's size and install time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The packages the tests import besides the package and its dependencies.
TEST_REQUIREMENTS = ["pytest", "scipy", "polars", "librosa"]
# Libraries the bundled binary may load from the system: the manylinux policy's glibc and
# GCC runtime (auditwheel bundles everything else).
SYSTEM_LIBRARIES = {
    "libc.so.6",
    "libm.so.6",
    "libdl.so.2",
    "librt.so.1",
    "libpthread.so.0",
    "libresolv.so.2",
    "libutil.so.1",
    "libz.so.1",
    "libstdc++.so.6",
    "libgcc_s.so.1",
    "ld-linux-x86-64.so.2",
    "ld-linux-aarch64.so.1",
}

# Run in PYTHON: the distributions that satisfy REQUIREMENTS (transitively, markers evaluated
# with pip's own packaging), and the top-level entries of each in site-packages.
CLOSURE = r"""
import json, sys
from importlib import metadata
from pip._vendor.packaging.requirements import Requirement
from pip._vendor.packaging.utils import canonicalize_name
wanted, seen, entries = list(json.loads(sys.argv[1])), {}, set()
while wanted:
    requirement = Requirement(wanted.pop())
    name = canonicalize_name(requirement.name)
    if name in seen:
        continue
    dist = metadata.distribution(requirement.name)
    assert requirement.specifier.contains(dist.version, prereleases=True), (requirement, dist.version)
    seen[name] = dist.version
    for line in dist.requires or []:
        nested = Requirement(line)
        if nested.marker is None or nested.marker.evaluate({"extra": ""}):
            wanted.append(line)
    for file in dist.files or []:
        top = file.parts[0]
        if top not in ("..", "__pycache__") and not top.endswith(".pth"):
            entries.add(str(dist.locate_file(top)))
print(json.dumps({"dists": seen, "entries": sorted(entries)}))
"""


def step(name: str, started: float) -> float:
    now = time.monotonic()
    print(f"  {name}: {now - started:.1f} s", flush=True)
    return now


def run(arguments: list[str], **options) -> subprocess.CompletedProcess:
    result = subprocess.run(arguments, capture_output=True, text=True, **options)
    if result.returncode != 0:
        sys.exit(f"{' '.join(arguments)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


def link_view(deps_python: str, requirements: list[str], view: str) -> dict:
    """A folder of links to the distributions `requirements` need, as installed for deps_python."""
    found = json.loads(run([deps_python, "-c", CLOSURE, json.dumps(requirements)]).stdout)
    os.makedirs(view)
    for entry in found["entries"]:
        os.symlink(entry, os.path.join(view, os.path.basename(entry)))
    return found["dists"]


def requires_dist(wheel: str) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        text = archive.read(name).decode()
    headers = text.split("\n\n", 1)[0].splitlines()
    return [line.split(": ", 1)[1] for line in headers if line.startswith("Requires-Dist: ") and "extra ==" not in line]


def check_tag(shown: str, wheel: str) -> str:
    """The platform tag in the wheel's name is the one `auditwheel show` (its output: shown) gives."""
    claimed = re.fullmatch(r"sonde-[^-]+-py3-none-(.+)\.whl", os.path.basename(wheel))
    assert claimed, f"{wheel}: not a py3-none platform wheel's name"
    consistent = re.search(r'consistent with the\s+following platform tag:\s+"([^"]+)"', shown)
    assert consistent, shown
    assert claimed.group(1) == consistent.group(1), (claimed.group(1), shown)
    assert claimed.group(1).startswith("manylinux_"), claimed.group(1)
    return claimed.group(1)


def check_libraries(binary: str, libraries_folder: str, environment: dict) -> list[str]:
    """ldd of the carried binary: each library in the wheel's libraries_folder (whose names
    it returns) or a system one of SYSTEM_LIBRARIES; its RUNPATH names no absolute folder."""
    libraries_folder = os.path.realpath(libraries_folder)
    dynamic = run(["readelf", "-d", binary]).stdout
    paths = re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[(.*)\]", dynamic)
    assert paths, f"{binary} has no RUNPATH: its bundled libraries cannot be found"
    for folder in ":".join(paths).split(":"):
        assert folder.startswith("$ORIGIN"), f"{binary}'s RUNPATH names {folder}"
    listed = run(["ldd", binary], env=environment).stdout
    bundled = []
    for line in listed.splitlines():
        line = line.strip()
        assert "not found" not in line, f"ldd {binary}: {line}"
        # "libfftw3.so.3 => /path (0x...)", or the loader's "/lib64/ld-linux-x86-64.so.2 (0x...)"
        match = re.match(r"(\S+) => (\S+) \(", line) or re.match(r"((/\S+)) \(", line)
        if match is None:
            assert line.startswith("linux-vdso"), line
            continue
        name, path = os.path.basename(match.group(1)), match.group(2)
        real = os.path.realpath(path)
        if real.startswith(libraries_folder + os.sep):
            bundled.append(name)
        else:
            assert name in SYSTEM_LIBRARIES, f"ldd {binary}: {name} resolves outside the wheel, to {path}"
    assert bundled, listed
    return bundled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--auditwheel", required=True)
    parser.add_argument("--deps-python", help="the Python whose packages the new venv links to")
    parser.add_argument("--tag-only", action="store_true", help="only step 1 (make wheel, on the wheel it ships)")
    parser.add_argument("wheel")
    arguments = parser.parse_args()
    wheel = os.path.abspath(arguments.wheel)
    started = time.monotonic()
    if arguments.tag_only:
        tag = check_tag(run([arguments.auditwheel, "show", wheel]).stdout, wheel)
        print(f"{os.path.basename(wheel)}: {os.path.getsize(wheel) / 1e6:.1f} MB, auditwheel show agrees on {tag}")
        return
    if not arguments.deps_python:
        parser.error("--deps-python is needed but with --tag-only")

    # `auditwheel show` reads every ELF file's symbols again (about a minute for the debug
    # binary on a loaded 2-core machine): it runs beside the rest, checked at the end.
    show = subprocess.Popen(
        [arguments.auditwheel, "show", wheel], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )

    with tempfile.TemporaryDirectory(prefix="sonde-wheel-check-") as folder:
        assert not os.path.realpath(folder).startswith(os.path.realpath(ROOT) + os.sep)
        venv = os.path.join(folder, "venv")
        # The interpreter the test venv was made from: a venv made from a venv's Python
        # would be the same, but this says where it comes from.
        base = run([arguments.deps_python, "-c", "import sys; print(sys._base_executable)"]).stdout.strip()
        # Without pip of its own (ensurepip: seconds of CPU): the test venv's pip installs
        # into it (`pip --python`), resolving against what the new venv sees.
        run([base, "-m", "venv", "--without-pip", venv])
        python = os.path.join(venv, "bin", "python")
        site = run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip()
        dependencies = link_view(arguments.deps_python, requires_dist(wheel), os.path.join(folder, "dependencies"))
        with open(os.path.join(site, "sonde-check-views.pth"), "w", encoding="utf-8") as file:
            file.write(os.path.join(folder, "dependencies") + "\n")
        started = step(f"new venv, dependencies linked ({', '.join(sorted(dependencies))})", started)

        install_started = time.monotonic()
        pip = [arguments.deps_python, "-m", "pip", "--python", python, "--disable-pip-version-check"]
        run([*pip, "install", "--no-index", "-q", wheel])
        install_seconds = time.monotonic() - install_started
        run([*pip, "check"])
        started = step("pip install --no-index of the wheel, pip check", started)

        system_path = "/usr/bin:/bin"
        for name in ("sonde", "swift", "swiftc"):
            assert shutil.which(name, path=system_path) is None, f"{name} is on {system_path}"
        environment = {
            "PATH": f"{os.path.join(venv, 'bin')}:{system_path}",
            # The user's HOME: pip's cache for the test that installs ./python from PyPI.
            "HOME": os.environ.get("HOME", folder),
            "TMPDIR": folder,
            "LANG": "C.UTF-8",
            "LD_LIBRARY_PATH": "",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        options = dict(cwd=folder, env=environment)
        version = run(["sonde", "--version"], **options).stdout.split()
        package_version = run([python, "-c", "import sonde; print(sonde.__version__)"], **options).stdout.strip()
        assert version[:2] == ["sonde", package_version], (version, package_version)
        refused = subprocess.run(["sonde", "process", "no-such-file.wav"], capture_output=True, text=True, **options)
        assert refused.returncode not in (0, 127) and "no-such-file.wav" in refused.stderr, refused
        motor = os.path.join(ROOT, "sample-data", "motor.wav")
        code = (
            "import sonde, sys; frame = sonde.Measurer(features=['rms']).process_file(sys.argv[1]); "
            "print(sonde.__file__); print(sonde.find_binary()); print(frame.shape)"
        )
        where, binary, shape = run([python, "-c", code, motor], **options).stdout.splitlines()
        package_folder = os.path.join(site, "sonde")
        assert where == os.path.join(package_folder, "__init__.py"), where
        assert binary == os.path.join(package_folder, "_bin", "sonde"), binary
        assert shape == "(256, 1)", shape
        bundled = check_libraries(binary, os.path.join(site, "sonde.libs"), environment)
        print(f"  the carried binary: {len(bundled)} bundled libraries, the rest glibc's, GCC's, zlib")
        started = step("sonde --version, exit status, import sonde, ldd", started)

        tests = link_view(arguments.deps_python, TEST_REQUIREMENTS, os.path.join(folder, "tests"))
        with open(os.path.join(site, "sonde-check-views.pth"), "a", encoding="utf-8") as file:
            file.write(os.path.join(folder, "tests") + "\n")
        pytest = subprocess.run(
            [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", os.path.join(ROOT, "python", "tests")],
            env=dict(environment, SONDE_TEST_INSTALLED="1"),
            cwd=folder,
        )
        if pytest.returncode != 0:
            sys.exit(f"the package's tests failed against the installed wheel (exit {pytest.returncode})")
        started = step(f"python/tests against the installed wheel (with {', '.join(sorted(tests))})", started)
    shown = show.communicate()[0]
    assert show.returncode == 0, shown
    tag = check_tag(shown, wheel)
    step(f"auditwheel show agrees on {tag} (the rest of its time ran beside the steps above)", started)
    print(f"wheel {os.path.getsize(wheel) / 1e6:.1f} MB ({tag}), pip install {install_seconds:.1f} s")


if __name__ == "__main__":
    main()
