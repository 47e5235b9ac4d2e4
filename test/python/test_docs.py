"""The Python examples of README.md and docs/*.md are doctests: every
```python block with ``>>>`` prompts runs against the installed package and
must print what the page shows. The blocks of a page share one namespace,
in order, as a reader typing them into one interpreter would. An expected
exception is written as Python prints its last line (``IndexError: ...``),
without the traceback. The other blocks run in test/Docs/snippets.test."""

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*(Error|Exception|Warning)): ")


def python_examples(page):
    """The ```python blocks of ``page`` that have prompts, with their
    first line numbers."""
    lines = page.read_text().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            j = i + 1
            while lines[j].strip() != "```":
                j += 1
            text = "\n".join(lines[i + 1:j]) + "\n"
            if ">>>" in text:
                yield i + 2, text
            i = j
        i += 1


def pages_with_examples():
    return [p for p in PAGES if any(python_examples(p))]


def test_the_pages_have_examples():
    names = {p.name for p in pages_with_examples()}
    assert {"README.md", "Python.md"} <= names


@pytest.mark.parametrize("page", pages_with_examples(),
                         ids=lambda p: p.name)
def test_page_examples(page):
    examples = list(python_examples(page))
    if any("torch" in text for _, text in examples):
        pytest.importorskip("torch")
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs = {}
    for line, text in examples:
        test = parser.get_doctest(text, globs, page.name, str(page), line - 1)
        for example in test.examples:
            # The pages show an exception as its last line only.
            if EXCEPTION.match(example.want):
                example.exc_msg = example.want
        runner.run(test, clear_globs=False)
        globs = test.globs  # A DocTest works on a copy.
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 0
    assert failed == 0, f"{failed} of {attempted} examples of {page.name} " \
                        "failed (the report is above)"
