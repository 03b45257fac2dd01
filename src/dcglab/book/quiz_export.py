"""Export the quiz banks to a learning platform: Moodle XML or GIFT.

``python -m dcglab.book.quiz_export --format gift|moodle OUT`` writes every question of
every bank (``dcglab/book/quizzes/*.yaml``) in one number set (``--number-set``, 1 by
default, the book's numbers), one category per quiz. Each question carries its right
answer as dcglab computes it, the explanation as general feedback, and the feedback of
each wrong choice or known numeric mistake; numeric answers count within the quiz
tolerance, as on the site.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from dcglab.book.explorers.quiz import TOLERANCE, evaluate_expression, load_bank, quiz_names, render
from dcglab.cli.common import OneLineParser

GIFT_SPECIAL = "\\~=#{}:"


def _number(x: float) -> str:
    """A number for the platform: at most 12 significant digits."""
    return f"{x:.12g}"


def flat_questions(quiz: str, number_set: int = 1) -> list[dict[str, Any]]:
    """The questions of one bank in one number set, with every template filled in.

    Each entry has ``name``, ``text``, ``explanation``, ``form`` and either ``answer``
    and ``mistakes`` (``[(value, feedback)]``) or ``choices`` (``[(text, right,
    feedback)]``). A question with one number set shows it in every set.
    """
    out = []
    for q in load_bank(quiz)["questions"]:
        v = q["variants"][min(number_set, len(q["variants"])) - 1]
        answer, quoted = v["answer"], v["quoted"]
        entry: dict[str, Any] = {
            "name": f"{quiz}/{q['id']}",
            "text": render(v["text"], answer, quoted),
            "explanation": render(v["why"], answer, quoted),
            "form": q["form"],
        }
        if q["form"] == "choice":
            entry["choices"] = [
                (text, j == answer, render(fb, answer, quoted) if j != answer else "Right.")
                for j, (text, fb) in enumerate(zip(q["choices"], v["feedback"]))
            ]
        else:
            entry["answer"] = answer
            entry["mistakes"] = [
                (value, render(m["feedback"], answer, quoted, value))
                for m in v["mistakes"]
                for value in [evaluate_expression(m["expr"])]
            ]
        out.append(entry)
    return out


def _text(parent: ET.Element, tag: str, text: str, **attrs: str) -> ET.Element:
    node = ET.SubElement(parent, tag, attrs)
    ET.SubElement(node, "text").text = text
    return node


def moodle(quizzes: list[str], number_set: int = 1) -> str:
    """The banks as a Moodle XML question file (one category per quiz)."""
    root = ET.Element("quiz")
    plain = {"format": "plain_text"}
    for quiz in quizzes:
        cat = ET.SubElement(root, "question", type="category")
        _text(cat, "category", f"$course$/dcglab/{load_bank(quiz)['title']}")
        for q in flat_questions(quiz, number_set):
            kind = "multichoice" if q["form"] == "choice" else "numerical"
            node = ET.SubElement(root, "question", type=kind)
            _text(node, "name", q["name"])
            _text(node, "questiontext", q["text"], **plain)
            _text(node, "generalfeedback", q["explanation"], **plain)
            ET.SubElement(node, "defaultgrade").text = "1"
            if kind == "multichoice":
                ET.SubElement(node, "single").text = "true"
                ET.SubElement(node, "shuffleanswers").text = "0"
                ET.SubElement(node, "answernumbering").text = "abc"
                for text, right, feedback in q["choices"]:
                    a = _text(node, "answer", text, fraction="100" if right else "0", **plain)
                    _text(a, "feedback", feedback, **plain)
            else:
                rows = [(q["answer"], "100", "Right.")] + [(v, "0", f) for v, f in q["mistakes"]]
                for value, fraction, feedback in rows:
                    a = _text(node, "answer", _number(value), fraction=fraction)
                    ET.SubElement(a, "tolerance").text = _number(TOLERANCE)
                    _text(a, "feedback", feedback, **plain)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def gift_escape(text: str) -> str:
    r"""Text with GIFT's special characters escaped: ``~ = # { } :`` and ``\``.

    >>> gift_escape("a = {b}: #1 ~ c")
    'a \\= \\{b\\}\\: \\#1 \\~ c'
    """
    return "".join("\\" + c if c in GIFT_SPECIAL else c for c in text).replace("\n", " ")


def gift(quizzes: list[str], number_set: int = 1) -> str:
    """The banks in GIFT, Moodle's plain-text question format (one category per quiz)."""
    lines = []
    for quiz in quizzes:
        lines += [f"$CATEGORY: $course$/dcglab/{gift_escape(load_bank(quiz)['title'])}", ""]
        for q in flat_questions(quiz, number_set):
            e = gift_escape
            if q["form"] == "choice":
                body = " ".join(
                    f"{'=' if right else '~'}{e(text)}#{e(feedback)}"
                    for text, right, feedback in q["choices"]
                )
            else:
                tol = _number(TOLERANCE)
                body = "#" + " ".join(
                    [f"={_number(q['answer'])}:{tol}#Right."]
                    + [f"=%0%{_number(v)}:{tol}#{e(f)}" for v, f in q["mistakes"]]
                )
            lines += [f"::{e(q['name'])}::{e(q['text'])} {{{body} ####{e(q['explanation'])}}}", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: write the banks in the chosen format to OUT."""
    parser = OneLineParser(
        prog="python -m dcglab.book.quiz_export",
        description="Export the dcglab quiz banks to Moodle XML or GIFT.",
    )
    parser.add_argument("--format", choices=("gift", "moodle"), required=True)
    parser.add_argument("--number-set", type=int, default=1, help="number set (1 = book's)")
    parser.add_argument("--quiz", choices=quiz_names(), action="append", help="default: all")
    parser.add_argument("out", type=Path, help="the file to write")
    args = parser.parse_args(argv)
    top = min(load_bank(q)["variants"] for q in quiz_names())
    if not 1 <= args.number_set <= top:
        parser.error(f"argument --number-set: must be from 1 to {top}, got {args.number_set}")
    quizzes = args.quiz or quiz_names()
    text = (moodle if args.format == "moodle" else gift)(quizzes, args.number_set)
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as err:
        print(f"quiz_export: cannot write OUT {args.out}: {err.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
