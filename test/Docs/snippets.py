"""Runs the fenced examples of README.md and docs/*.md (snippets.test).

Python examples with ``>>>`` are doctests, run by test/python/test_docs.py
against the installed package. This script runs the rest, file by file:

* ``sh`` blocks run in order with bash (``-euo pipefail``) in a scratch
  directory that links every top-level entry of the source tree, with
  ``build`` linked to the build tree, so ``build/bin/gather-opt
  examples/...`` works as written; a file the commands leave there (which
  a user would find in their tree) is a failure. ``/opt/gathermlir``, the docs' example install prefix, is read
  as the build tree (which has the prefix's ``bin/`` and ``lib/``).
* ``mlir`` blocks with ``// RUN:`` lines are lit tests: each is written
  into ``tests/`` next to the ``lit.cfg.py`` that docs/SDK.md shows, and
  ``lit`` runs them with GATHER_MLIR_PREFIX set to the build tree, as
  docs/SDK.md says.
* other ``mlir`` blocks must parse and verify with gather-opt: a whole
  module as it is; each statement of an op fragment (``%r = gather.gather
  %data[%idx] {...} : (types) -> type``) inside a function of its own whose
  arguments are its operands, typed by its functional type. Statements
  with ``...`` are pseudo-IR; in the generated pages, statements of other
  forms are left out too.

A comment on the line before a fence changes that:
``<!-- doc-test: skip REASON -->`` (not run, and why),
``<!-- doc-test: as PATH -->`` (written to PATH in the scratch directory
for the blocks after it, and not run itself), ``<!-- doc-test: file PATH
-->`` (must be the source tree's PATH, verbatim, and not run itself).
Blocks in other languages (cmake, json, grammar) are not run.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
MARKER = re.compile(r"^\s*<!-- doc-test: (skip|as|file) ?(.*?) -->\s*$")

# Generated pages (from the ODS and pass definitions, which
# docs-up-to-date.test pins) cannot carry markers: their blocks that are not
# whole examples, by their first line.
GENERATED = {"GatherDialect.md", "GatherPasses.md", "GatherTransformOps.md"}
GENERATED_NOT_EXAMPLES = {
    # A transform op needs a transform sequence around it and its loop.
    "%fused, %new_loop = transform.gather.fuse_consumer_into_loop",
    # The shape of IR a pass rewrites, with `...` for what does not matter.
    "%e = tensor.empty(%n) : tensor<?xf32>",
}


class Block:
    def __init__(self, path, line, lang, text, marker):
        self.path, self.line, self.lang, self.text = path, line, lang, text
        self.marker = marker  # (kind, argument) or None

    def where(self):
        return f"{self.path}:{self.line}"


def blocks(path):
    lines = path.read_text().split("\n")
    marker = None
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            mark = MARKER.match(lines[i])
            if mark:
                marker = (mark.group(1), mark.group(2))
            elif lines[i].strip():
                marker = None
            i += 1
            continue
        indent = len(m.group(1))
        j = i + 1
        while not re.match(r"^\s*```\s*$", lines[j]):
            j += 1
        text = "\n".join(l[indent:] for l in lines[i + 1:j]) + "\n"
        yield Block(path, i + 1, m.group(2), text, marker)
        marker = None
        i = j + 1


def run(cmd, cwd, env, what):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True,
                       stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        return f"{what} failed (exit {p.returncode}):\n{p.stdout}"
    return None


def fragment_module(text, partial):
    """A module in which each statement of an op fragment verifies, in a
    function of its own whose arguments are its operands, typed by its
    functional type. Statements with ``...`` are pseudo-IR and left out.
    None if a statement cannot be made into a function (unless
    ``partial``: then it is left out too)."""
    lines = [l for l in text.split("\n") if not l.strip().startswith("//")]
    statements = re.split(r"\n(?=\s*%[\w, %]+ =)", "\n".join(lines).strip())
    functions = []
    for s in statements:
        if "..." in s:
            continue
        m = re.match(r"\s*((?:%\w+(?:, )?)+) = (.*)", s, re.S)
        types = m and re.search(r":\s*\(([^()]*)\)\s*->\s*(.*?)\s*$",
                                m.group(2), re.S)
        if not types:
            if partial:
                continue
            return None
        head = m.group(2)[:types.start()]
        operands = list(dict.fromkeys(re.findall(r"%\w+", head)))
        operand_types = _split_types(types.group(1))
        if len(operands) != len(operand_types):
            if partial:
                continue
            return None
        signature = ", ".join(f"{n}: {t}"
                              for n, t in zip(operands, operand_types))
        functions.append(f"func.func @snippet{len(functions)}({signature}) "
                         f"{{\n{s}\n  return\n}}\n")
    return "".join(functions) if functions or partial else None


def _split_types(text):
    out, depth, current = [], 0, ""
    for c in text:
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += c
    if current.strip():
        out.append(current.strip())
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--src", required=True, type=Path)
    parser.add_argument("--build", required=True, type=Path)
    parser.add_argument("--lit", required=True)
    parser.add_argument("--list", action="store_true",
                        help="print what would run, run nothing")
    args = parser.parse_args()
    src, build = args.src.resolve(), args.build.resolve()
    docs = [src / "README.md"] + sorted((src / "docs").glob("*.md"))
    gather_opt = str(build / "bin" / "gather-opt")
    env = dict(os.environ)
    env["PATH"] = "/usr/lib/llvm-22/bin:" + env.get("PATH", "")
    failures, counts = [], {"run": 0, "skipped": 0}

    with tempfile.TemporaryDirectory(prefix="doc-snippets-") as scratch_root:
        scratch_root = Path(scratch_root)
        lit_dir = scratch_root / "lit" / "tests"
        lit_dir.mkdir(parents=True)
        lit_tests = []
        for doc in docs:
            scratch = scratch_root / doc.stem
            scratch.mkdir()
            for entry in src.iterdir():
                if entry.name not in ("build", ".git"):
                    (scratch / entry.name).symlink_to(entry)
            (scratch / "build").symlink_to(build)
            written = set()
            for b in blocks(doc):
                b.path = doc.relative_to(src)
                kind, argument = b.marker or (None, None)
                if kind == "skip":
                    counts["skipped"] += 1
                    if not argument:
                        failures.append(f"{b.where()}: a skip needs a reason")
                    continue
                if kind == "file":
                    if (src / argument).read_text() != b.text:
                        failures.append(f"{b.where()}: the block is not "
                                        f"{argument} as it is in the tree")
                    counts["run"] += 1
                    continue
                if kind == "as":
                    target = (lit_dir / Path(argument).name
                              if argument.startswith("tests/")
                              else scratch / argument)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(b.text)
                    written.add(target.relative_to(scratch).parts[0]
                                if scratch in target.parents else None)
                    continue
                if b.lang == "sh":
                    text = b.text.replace("/opt/gathermlir", str(build))
                    counts["run"] += 1
                    if args.list:
                        print(f"sh {b.where()}")
                        continue
                    error = run(["bash", "-euo", "pipefail", "-c", text],
                                scratch, env, f"{b.where()}: sh block")
                    if error:
                        failures.append(error)
                elif b.lang == "mlir" and "// RUN:" in b.text:
                    name = f"{doc.stem}-{b.line}.mlir"
                    (lit_dir / name).write_text(b.text)
                    lit_tests.append((b, name))
                    counts["run"] += 1
                elif b.lang == "mlir":
                    if b.text.split("\n")[0].strip().startswith(
                            tuple(GENERATED_NOT_EXAMPLES)):
                        counts["skipped"] += 1
                        continue
                    whole = re.search(r"^\s*(module|func\.func|shard\.grid)",
                                      b.text, re.M)
                    module = (b.text if whole else fragment_module(
                        b.text, b.path.name in GENERATED))
                    counts["run"] += 1
                    if module is None:
                        failures.append(f"{b.where()}: cannot make a module "
                                        "of this fragment")
                        continue
                    if args.list:
                        print(f"mlir {b.where()}")
                        continue
                    path = scratch / f"block-{b.line}.mlir"
                    path.write_text(module)
                    error = run([gather_opt, str(path), "-o", os.devnull],
                                scratch, env, f"{b.where()}: mlir block")
                    path.unlink()
                    if error:
                        failures.append(error + module)
            # What the commands wrote in the working directory, a user's
            # tree (build/ is the build tree's business).
            left = sorted(e.name for e in scratch.iterdir()
                          if not e.is_symlink() and e.name not in written)
            if left:
                failures.append(f"{doc.relative_to(src)}: its commands leave "
                                f"{', '.join(left)} in the source tree")
        if lit_tests and not args.list:
            if not (lit_dir / "lit.cfg.py").exists():
                failures.append("no lit.cfg.py for the RUN blocks (docs/SDK.md"
                                " marks it `as tests/lit.cfg.py`)")
            else:
                lit_env = dict(env, GATHER_MLIR_PREFIX=str(build))
                error = run([args.lit, "-v", str(lit_dir)], scratch_root,
                            lit_env, "lit on the RUN blocks ("
                            + ", ".join(b.where() for b, _ in lit_tests) + ")")
                if error:
                    failures.append(error)

    for f in failures:
        print(f"FAIL: {f}\n")
    print(f"doc snippets: {counts['run']} run, {counts['skipped']} skipped, "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
