#!/usr/bin/env python3
"""Every third-party module a committed Python script imports is named in Tests/requirements.txt.

`make test` runs the scripts in a virtual environment made from that list alone, so a
package installed by hand in the system's Python cannot make a green run on one machine
and a red one on a fresh machine (issue 27). This check closes the other half: a script
that starts importing something new fails here, naming the file and line, until the list
names it too.

    python3 Tests/Python/check_imports.py                       # the static check
    python3 Tests/Python/check_imports.py --python VENV/bin/python
        # and every listed module imports with that interpreter
    python3 Tests/Python/check_imports.py --python EMPTY/bin/python --expect-missing
        # and none imports there: the environment does not see the system's packages

Standard library only, so it runs before any environment exists.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REQUIREMENTS = os.path.join(ROOT, "Tests", "requirements.txt")

# Import names that differ from the distribution's name on PyPI.
DISTRIBUTION_OF_MODULE = {
    "PIL": "pillow",
    "axe_selenium_python": "axe-selenium-python",
    "yaml": "pyyaml",
}


def normalized(name: str) -> str:
    """PyPI compares names case-insensitively with runs of `-`, `_` and `.` equal."""
    return re.sub(r"[-_.]+", "-", name).lower()


def python_files() -> list[str]:
    """The committed scripts (git's list, so build folders and virtual environments are out)."""
    try:
        listed = subprocess.run(
            ["git", "-C", ROOT, "ls-files", "-z", "--", "*.py"], check=True, capture_output=True
        ).stdout
        return sorted(name for name in listed.decode().split("\0") if name)
    except (OSError, subprocess.CalledProcessError):
        found = []
        for folder, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            found += [os.path.relpath(os.path.join(folder, f), ROOT) for f in files if f.endswith(".py")]
        return sorted(found)


def requirements() -> dict[str, tuple[str, int]]:
    """Pinned names of the list: normalised name -> (version, line)."""
    pinned: dict[str, tuple[str, int]] = {}
    problems = []
    with open(REQUIREMENTS, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!-]+)", text)
            if not match:
                problems.append(
                    f"Tests/requirements.txt:{number}: '{text}': expected NAME==VERSION, "
                    "the version the tests were checked with"
                )
                continue
            pinned[normalized(match.group(1))] = (match.group(2), number)
    if problems:
        sys.exit("\n".join(problems))
    return pinned


def local_modules(files: list[str]) -> set[str]:
    """Modules the repository itself provides (scripts import their neighbours by name)."""
    names = set()
    for path in files:
        parts = path[:-3].split("/")
        names.add(parts[-1])
        if parts[-1] == "__init__" and len(parts) > 1:
            names.add(parts[-2])
        # A package's folder (python/sonde/...) is importable by its name.
        names.update(parts[:-1])
    return names


def third_party_imports(files: list[str]) -> dict[str, list[str]]:
    """Top-level module -> the places (`file:line`) that import it, stdlib and local ones left out."""
    local = local_modules(files)
    standard = set(sys.stdlib_module_names) | {"__future__"}
    found: dict[str, list[str]] = {}
    for path in files:
        with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), filename=path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".", 1)[0]
                if top in standard or top in local:
                    continue
                found.setdefault(top, []).append(f"{path}:{node.lineno}")
    return found


def importable(python: str, module: str) -> bool:
    result = subprocess.run([python, "-c", f"import {module}"], capture_output=True)
    return result.returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", help="an interpreter to import every third-party module with")
    parser.add_argument(
        "--expect-missing",
        action="store_true",
        help="with --python: pass only when none of them imports (an empty environment)",
    )
    args = parser.parse_args()

    files = python_files()
    pinned = requirements()
    imports = third_party_imports(files)
    failures = []
    for module, places in sorted(imports.items()):
        distribution = normalized(DISTRIBUTION_OF_MODULE.get(module, module))
        if distribution not in pinned:
            failures.append(
                f"{places[0]}: imports '{module}', which Tests/requirements.txt does not name "
                f"(add '{DISTRIBUTION_OF_MODULE.get(module, module)}==VERSION'; also imported at "
                f"{', '.join(places[1:]) or 'no other place'})"
            )
    if args.python:
        for module in sorted(imports):
            found = importable(args.python, module)
            if args.expect_missing and found:
                failures.append(f"'{module}' imports with {args.python}, which should see no package")
            elif not args.expect_missing and not found:
                failures.append(f"'{module}' does not import with {args.python} (imported at {imports[module][0]})")
    for failure in failures:
        print(failure, file=sys.stderr)
    where = f", with {args.python}" if args.python else ""
    verdict = "missing everywhere as expected" if args.expect_missing else "all named in Tests/requirements.txt"
    if failures:
        print(f"check_imports: {len(failures)} problem(s) in {len(files)} scripts{where}", file=sys.stderr)
        return 1
    print(f"check_imports: {len(imports)} third-party modules in {len(files)} scripts, {verdict}{where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
