#!/usr/bin/env python3
"""Checks that the repository's docs stand on their own (standard library only).

    python3 Tests/Docs/check_docs.py

- Every relative link in a Markdown file resolves to a file of the repository (and a
  `#anchor` to one of its headings); no link climbs out of the repository. Image links
  must stay inside it too; their files may be made by the test suite (screenshots).
- No tracked file names a folder of the machine it was written on (its work folder, root's
  home) or the folder of shared notes beside the repository, which a clone does not have.
- README.md stays a guide: under 10 KB.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINK = re.compile(r"(!?)\[[^\]]*\]\(([^)\s]+)\)")
# Assembled from pieces so that this file does not match itself.
MACHINE_PATHS = re.compile("|".join(re.escape(path) for path in ("/" + "work/", "/" + "root/", "../" + "shared")))


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [name for name in out.decode().split("\0") if name]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: str) -> set[str]:
    found: set[str] = set()
    in_code = False
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("```"):
                in_code = not in_code
            elif not in_code and line.startswith("#"):
                found.add(slug(line.lstrip("#")))
    return found


def check_links(markdown: str, problems: list[str]) -> None:
    path = os.path.join(ROOT, markdown)
    in_code = False
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if line.startswith("```"):
                in_code = not in_code
            if in_code:
                continue
            for image, target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue  # a web address, not a file of this repository
                where = f"{markdown}:{number}: {target}"
                file_part, _, anchor = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if os.path.relpath(resolved, ROOT).startswith(".."):
                    problems.append(f"{where}: leaves the repository")
                elif image:
                    continue
                elif not os.path.exists(resolved):
                    problems.append(f"{where}: no such file")
                elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                    problems.append(f"{where}: no heading #{anchor}")


def main() -> int:
    problems: list[str] = []
    files = tracked_files()
    for name in files:
        if name.endswith(".md"):
            check_links(name, problems)
        try:
            with open(os.path.join(ROOT, name), encoding="utf-8") as fh:
                for number, line in enumerate(fh, 1):
                    if MACHINE_PATHS.search(line):
                        problems.append(f"{name}:{number}: names a path outside the repository: {line.strip()[:100]}")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # binary fixtures; a file deleted but not yet committed
    size = os.path.getsize(os.path.join(ROOT, "README.md"))
    if size >= 10_000:
        problems.append(f"README.md: {size} bytes; keep it under 10 KB (details belong in docs/)")
    for problem in problems:
        print(f"check_docs: {problem}", file=sys.stderr)
    print(f"check_docs: {len(files)} files, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
