#!/usr/bin/env python3
"""Writes gather-fuzz's seed corpus: every .mlir file under test/,
examples/ and tools/gather-fuzz/seeds/ (edge cases: extreme index values,
empty and huge dims), but not test/fuzz-crashes/, split at `// -----` like
-split-input-file does, with comment lines dropped (RUN/CHECK lines are
noise to the fuzzer), keeping the chunks that mention gather.

Usage: make_corpus.py SOURCE_ROOT OUTPUT_DIR
"""
import hashlib
import os
import re
import sys

SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)


def chunks(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for chunk in SPLIT.split(text):
        lines = [l for l in chunk.splitlines() if not l.lstrip().startswith("//")]
        body = "\n".join(lines).strip()
        if "gather" in body:
            yield body + "\n"


def main():
    root, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    count = 0
    for top in ("test", "examples", os.path.join("tools", "gather-fuzz", "seeds")):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            # Known crashes are not seeds: the run would stop at the first.
            dirnames[:] = sorted(d for d in dirnames if d != "fuzz-crashes")
            for name in sorted(filenames):
                if not name.endswith(".mlir"):
                    continue
                for body in chunks(os.path.join(dirpath, name)):
                    digest = hashlib.sha1(body.encode()).hexdigest()[:16]
                    with open(os.path.join(out, "seed-" + digest), "w") as f:
                        f.write(body)
                    count += 1
    print("make_corpus: %d seeds in %s" % (count, out))


if __name__ == "__main__":
    main()
