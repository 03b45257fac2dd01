"""The quiz banks exported to learning platforms (dcglab.book.quiz_export).

* Moodle XML parses (xml.etree), holds one question per bank question plus one category
  per quiz, and every choice, right answer and known mistake appears with its feedback.
* GIFT escapes its special characters (``~ = # { } :``) so that a reader of the format
  recovers each prompt, choice and feedback exactly.
* The command writes either format and refuses bad arguments on one line, exit status 2.
"""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from dcglab.book.explorers.quiz import TOLERANCE, load_bank, quiz_names
from dcglab.book.quiz_export import flat_questions, gift, gift_escape, main, moodle

ALL = quiz_names()


def _count() -> int:
    return sum(len(load_bank(q)["questions"]) for q in ALL)


@pytest.mark.parametrize("number_set", [1, 4])
def test_moodle_xml_holds_every_question_choice_and_answer(number_set):
    root = ET.fromstring(moodle(ALL, number_set))
    questions = root.findall("question")
    cats = [q for q in questions if q.get("type") == "category"]
    real = [q for q in questions if q.get("type") != "category"]
    assert len(cats) == len(ALL)
    assert len(real) == _count()
    by_name = {q.findtext("name/text"): q for q in real}
    for quiz in ALL:
        for flat in flat_questions(quiz, number_set):
            node = by_name[flat["name"]]
            assert node.findtext("questiontext/text") == flat["text"]
            assert node.findtext("generalfeedback/text") == flat["explanation"]
            answers = node.findall("answer")
            if flat["form"] == "choice":
                assert node.get("type") == "multichoice"
                got = [
                    (a.findtext("text"), a.get("fraction"), a.findtext("feedback/text"))
                    for a in answers
                ]
                want = [(t, "100" if r else "0", f) for t, r, f in flat["choices"]]
                assert got == want, flat["name"]
                assert sum(a.get("fraction") == "100" for a in answers) == 1
            else:
                assert node.get("type") == "numerical"
                values = [float(a.findtext("text")) for a in answers]
                assert (
                    abs(values[0] - flat["answer"]) <= 1e-9 and answers[0].get("fraction") == "100"
                )
                assert len(values) == 1 + len(flat["mistakes"])
                for a, (value, feedback) in zip(answers[1:], flat["mistakes"]):
                    assert abs(float(a.findtext("text")) - value) <= 1e-9
                    assert a.get("fraction") == "0" and a.findtext("feedback/text") == feedback
                assert all(float(a.findtext("tolerance")) == TOLERANCE for a in answers)


def test_moodle_export_has_the_mistakes_the_brief_names():
    cg = next(q for q in flat_questions("building") if q["name"] == "building/cg")
    assert cg["answer"] == 6
    assert (5, "5 is CG@3, not CG@4: the sum stops one result early.") in cg["mistakes"]


def test_gift_escape_covers_every_special_character():
    assert gift_escape("~=#{}:") == "\\~\\=\\#\\{\\}\\:"
    assert gift_escape("a\\b") == "a\\\\b"
    assert gift_escape("no specials here") == "no specials here"


UNESCAPED = re.compile(r"(?<!\\)[~=#{}]")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _split(body: str, marks: str) -> list[str]:
    """Pieces of ``body`` cut before each unescaped mark."""
    cuts = [m.start() for m in re.finditer(rf"(?<!\\)[{re.escape(marks)}]", body)]
    return [body[a:b] for a, b in zip(cuts, cuts[1:] + [len(body)])]


def test_gift_round_trips_prompts_choices_and_feedback():
    text = gift(ALL)
    blocks = [b.strip() for b in text.split("\n\n") if b.startswith("::")]
    assert len(blocks) == _count()
    assert text.count("$CATEGORY:") == len(ALL)
    flats = {q["name"]: q for quiz in ALL for q in flat_questions(quiz)}
    for block in blocks:
        assert "\n" not in block
        m = re.fullmatch(r"::(.+?)(?<!\\)::(.*?)(?<!\\)\{(.*)(?<!\\)\}", block)
        assert m, block[:80]
        flat = flats[_unescape(m.group(1))]
        prompt = m.group(2).strip()
        assert _unescape(prompt) == flat["text"]
        assert not UNESCAPED.search(prompt) and not re.search(r"(?<!\\):", prompt)
        body, _, general = m.group(3).partition("####")
        assert _unescape(general) == flat["explanation"]
        if flat["form"] == "choice":
            pieces = _split(body, "=~")
            assert len(pieces) == len(flat["choices"])
            for piece, (choice, right, feedback) in zip(pieces, flat["choices"]):
                assert piece[0] == ("=" if right else "~")
                answer, fb = re.split(r"(?<!\\)#", piece[1:].strip(), maxsplit=1)
                assert _unescape(answer) == choice and _unescape(fb) == feedback
        else:
            assert body.startswith("#")
            pieces = _split(body[1:], "=")
            assert len(pieces) == 1 + len(flat["mistakes"])
            value = float(pieces[0][1:].split(":")[0])
            assert abs(value - flat["answer"]) <= 1e-9
            for piece, (wrong, feedback) in zip(pieces[1:], flat["mistakes"]):
                head, fb = re.split(r"(?<!\\)#", piece.strip(), maxsplit=1)
                assert head.startswith("=%0%")
                assert abs(float(head[4:].split(":")[0]) - wrong) <= 1e-9
                assert _unescape(fb) == feedback


def test_the_command_writes_both_formats(tmp_path):
    for fmt in ("moodle", "gift"):
        out = tmp_path / f"bank.{fmt}"
        assert main(["--format", fmt, "--quiz", "practice", str(out)]) == 0
        assert "practice/mean_zero" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "pdf", "x"], "argument --format: invalid choice: 'pdf'"),
        (["--format", "gift", "--number-set", "11", "x"], "--number-set: must be from 1 to 10"),
        (["--format", "gift", "/nonexistent/dir/x"], "cannot write OUT /nonexistent/dir/x"),
    ],
)
def test_bad_arguments_get_one_line_and_status_2(args, message):
    done = subprocess.run(
        [sys.executable, "-m", "dcglab.book.quiz_export", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
