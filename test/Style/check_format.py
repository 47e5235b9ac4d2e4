"""Checks that every C and C++ source of the tree is as clang-format leaves it.

The style is the root's .clang-format (LLVM's, includes sorted). Prints each
file that clang-format would change and exits 1 if there is one.

Usage: check_format.py CLANG_FORMAT SOURCE_ROOT
"""

import subprocess
import sys
from pathlib import Path

FOLDERS = ["lib", "include", "tools", "python/src", "examples", "bench",
           "test/lib", "test/CAPI"]
SUFFIXES = {".c", ".cpp", ".h"}


def main():
    clang_format, root = sys.argv[1], Path(sys.argv[2])
    files = sorted(p for folder in FOLDERS if (root / folder).is_dir()
                   for p in (root / folder).rglob("*")
                   if p.suffix in SUFFIXES and p.is_file())
    unformatted = 0
    for path in files:
        text = path.read_text()
        formatted = subprocess.run(
            [clang_format, f"--assume-filename={path}"], input=text,
            capture_output=True, text=True, check=True, cwd=root).stdout
        if formatted != text:
            unformatted += 1
            print(f"format: {path.relative_to(root)} is not formatted")
    print(f"format: {len(files)} files, {unformatted} to format")
    return 1 if unformatted else 0


if __name__ == "__main__":
    sys.exit(main())
