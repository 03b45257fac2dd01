"""The book's prose shares no run of 8 or more words with the reference texts.

The rules (what is a word, what is exempt) live in ``scripts/originality.py``, which is
also the command line the writers run; this test imports it. The reference texts are
read from ``../shared/reference`` beside the repository: without them the book check
is skipped with a reason, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "reference"


def _load_checker():
    spec = importlib.util.spec_from_file_location(
        "originality", ROOT / "scripts" / "originality.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


orig = _load_checker()

# A made-up reference text (not from any source), long enough for several 8-word runs.
SOURCE = (
    "The lighthouse keeper counted every passing ship in a small green notebook, "
    "and when the fog rolled in she wrote the time of each horn she heard. "
    "A ship seen at 3.5 miles counts for about 40 percent of one seen at the pier."
)


@pytest.fixture
def reference():
    return {"source.txt": orig.ngrams(orig.words(orig.prose(SOURCE)))}


def runs(text, reference):
    return [" ".join(run) for _, run, _ in orig.shared_runs(text, reference)]


def test_copied_sentence_is_found_as_one_maximal_run(reference):
    text = "Intro words here. The lighthouse keeper counted every passing ship in a small notebook."
    assert runs(text, reference) == ["the lighthouse keeper counted every passing ship in a small"]


def test_seven_shared_words_are_allowed(reference):
    text = "Our keeper counted every passing ship in a big blue book."
    # "keeper counted every passing ship in a" is 7 words.
    assert runs(text, reference) == []


def test_case_punctuation_and_markup_do_not_hide_a_copy(reference):
    text = (
        "**The Lighthouse** keeper -- counted *every* {term}`passing ship <ship>` in a SMALL green"
    )
    assert len(runs(text, reference)) == 1


def test_numbers_and_glued_values_are_deleted_not_breaks(reference):
    text = "A ship seen at {glue:text}`d:.1f` miles counts for about 7 % of one seen at the pier."
    assert runs(text, reference) == [
        "a ship seen at miles counts for about of seen at the pier"  # "one" is a number word
    ]


def test_uk_spelling_is_read_as_us():
    ref = {
        "r.txt": orig.ngrams(orig.words("we normalize the score by the ideal ranking every time"))
    }
    assert len(runs("We normalise the score by the ideal ranking every time.", ref)) == 1


def test_lone_symbol_reads_as_a_word():
    ref = {
        "r.txt": orig.ngrams(
            orig.words(orig.prose("the grades of the top $k$ results equal those"))
        )
    }
    assert len(runs("the grades of the top $k$ results equal those", ref)) == 1
    assert len(runs("the grades of the top k results equal those", ref)) == 1


@pytest.mark.parametrize(
    "exempt",
    [
        "$\\sum_i x$",  # inline math
        "$$\nx = 1\n$$",  # display math
        "`code`",  # code span
        "{cite}`key`",  # a citation renders as author and year, not our words
    ],
)
def test_math_code_and_citations_break_a_run(reference, exempt):
    text = f"The lighthouse keeper counted every {exempt} passing ship in a small green notebook"
    assert runs(text, reference) == []


def test_code_fence_is_exempt_but_directive_body_is_prose(reference):
    copied = "the fog rolled in she wrote the time of each horn"
    assert runs(f"```python\n# {copied}\n```\n", reference) == []
    assert runs(f"```{{exercise}}\n:label: ex-x\n\nThen {copied}.\n```\n", reference) == [copied]


def test_quotation_marked_with_a_citation_is_exempt(reference):
    quoted = "the lighthouse keeper counted every passing ship in a small green notebook"
    assert runs(f'As she wrote, "{quoted}" {{cite:p}}`keeper1900`.', reference) == []
    assert runs(f"As she wrote, “{quoted}” ({{cite:t}}`keeper1900`).", reference) == []
    assert runs(f"> {quoted}\n> -- {{cite:t}}`keeper1900`\n", reference) == []


def test_quotation_without_a_citation_is_not_exempt(reference):
    quoted = "the lighthouse keeper counted every passing ship in a small green notebook"
    assert len(runs(f'As she wrote, "{quoted}".', reference)) == 1
    assert len(runs(f"> {quoted}\n", reference)) == 1


def test_findings_name_the_page_cell_and_line(tmp_path, reference):
    cells = [
        {"cell_type": "code", "metadata": {}, "source": ["x = 1\n"], "outputs": []},
        {"cell_type": "markdown", "metadata": {}, "source": ["# Title\n", "\n", "Fine words.\n"]},
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": ["Line one.\n", "And the fog rolled in she wrote the time of each horn.\n"],
        },
    ]
    page = tmp_path / "nb.ipynb"
    page.write_text(
        json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    )
    [finding] = orig.check([page], reference)
    assert (finding.cell, finding.line) == (2, 2)
    assert "cell 2  line 2" in str(finding)


def test_command_line_reports_and_exits_1(tmp_path, capsys):
    (tmp_path / "ref").mkdir()
    (tmp_path / "ref" / "source.txt").write_text(SOURCE)
    page = tmp_path / "page.md"
    page.write_text("So the fog rolled in she wrote the time of each horn.\n")
    assert orig.main([str(page), "--reference", str(tmp_path / "ref")]) == 1
    out = capsys.readouterr().out
    assert '"the fog rolled in she wrote the time of each horn"' in out


def test_command_line_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    assert orig.main([str(tmp_path / "missing.md"), "--reference", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no *.txt reference files" in err[0]


def test_the_book_shares_no_run_of_8_words_with_the_references():
    if not sorted(REFERENCE.glob("*.txt")):
        if os.environ.get("CI") == "true":
            pytest.fail(f"reference texts missing: no *.txt in {REFERENCE} (required under CI)")
        pytest.skip(f"reference texts not available: no *.txt in {REFERENCE}")
    findings = orig.check(orig.book_pages(ROOT), orig.load_reference(REFERENCE))
    report = "\n".join(str(f) for f in findings)
    assert not findings, (
        f"{len(findings)} runs of {orig.RUN}+ words shared with {REFERENCE}:\n{report}"
    )
