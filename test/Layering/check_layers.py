"""Checks the layering of docs/Design.md ("The layers") on the source tree.

Each library of lib/ links only libraries of its own layer or of a layer
above it (lower in the list below), and each source or header of a layer
includes only headers of its own layer or above. Prints every violation
and exits 1 if there is one.

Usage: check_layers.py SOURCE_ROOT
"""

import re
import sys
from pathlib import Path

# (layer, folder under lib/ or include/gather/), most basic first. A
# library's layer is its folder's.
LAYERS = [
    ("dialect", "Dialect/Gather/IR"),
    ("dialect utilities", "Dialect/Gather/Utils"),
    ("transforms", "Dialect/Gather/Transforms"),
    ("transforms", "Transforms"),
    ("transform ops", "Dialect/Gather/TransformOps"),
    ("conversions", "Conversion"),
    ("pipelines", "Pipelines"),
    ("registration", "InitAll"),
    ("runtime", "Runtime"),
    ("hosts", "CAPI"),
]
ORDER = {}
for layer, _ in LAYERS:
    ORDER.setdefault(layer, len(ORDER))

LIBRARY = re.compile(
    r"add_(?:mlir_\w*library|gather_conversion_library|library)\(([\w-]+)")
TARGET_LINKS = re.compile(r"target_link_libraries\(([\w-]+)")
LINKED = re.compile(r"\b(Gather[\w-]*)\b")
INCLUDE = re.compile(r'^\s*#\s*include\s+"gather/([^"]+)"', re.M)


def layer_of_path(relative):
    """The layer of a path under lib/ or include/gather/, or None."""
    for layer, folder in LAYERS:
        if relative == folder or relative.startswith(folder + "/") or \
                relative.startswith(folder + "."):
            return layer
    return None


def main():
    root = Path(sys.argv[1])
    errors = []
    libraries = {}
    links = {}
    for cmake in sorted((root / "lib").rglob("CMakeLists.txt")):
        text = cmake.read_text()
        folder = cmake.parent.relative_to(root / "lib").as_posix()
        layer = layer_of_path(folder if folder != "." else "InitAll")
        # Each call's arguments run to its first ")" (they hold no call).
        for match in LIBRARY.finditer(text):
            body = text[match.end():text.index(")", match.end())]
            libraries[match.group(1)] = layer
            links.setdefault(match.group(1), []).extend(
                LINKED.findall(body.split("LINK_LIBS", 1)[1])
                if "LINK_LIBS" in body else [])
        for match in TARGET_LINKS.finditer(text):
            body = text[match.end():text.index(")", match.end())]
            links.setdefault(match.group(1), []).extend(LINKED.findall(body))
    for name, linked in links.items():
        if name not in libraries:
            continue
        for other in linked:
            if other not in libraries or other == name:
                continue
            if ORDER[libraries[other]] > ORDER[libraries[name]]:
                errors.append(f"{name} ({libraries[name]}) links {other} "
                              f"({libraries[other]}), a layer below it")
    for base in (root / "lib", root / "include" / "gather"):
        for source in sorted(base.rglob("*")):
            if source.suffix not in (".cpp", ".h"):
                continue
            relative = source.relative_to(base).as_posix()
            layer = layer_of_path(relative)
            if layer is None:
                continue
            for included in INCLUDE.findall(source.read_text()):
                other = layer_of_path(included)
                if other is not None and ORDER[other] > ORDER[layer]:
                    errors.append(f"{source.relative_to(root)} ({layer}) "
                                  f"includes gather/{included} ({other})")
    for error in errors:
        print("layering:", error)
    if not libraries:
        print("layering: no library found under", root / "lib")
        return 1
    print(f"layering: {len(libraries)} libraries, {len(errors)} violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
