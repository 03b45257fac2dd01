r"""List every run of 8 or more words the book shares with the reference texts.

Issue 8 asks that no run of ``RUN`` (8) or more consecutive words of the book's
prose (outside formulas, code and quotations marked as such) appear in the
reference texts ``../shared/reference/*.txt``. This module defines exactly what
that means; ``tests/test_originality.py`` and the command line share it.

Usage (from the repository root)::

    .venv/bin/python scripts/originality.py                  # every page of the book
    .venv/bin/python scripts/originality.py chapters/03_ideal_normalization.ipynb
    .venv/bin/python scripts/originality.py --reference DIR  # another reference folder

It prints one line per offending run, ``file  cell N  line L  (W words)  "run"``, a
count per file, and exits with status 1 if any run was found (2 on bad input).

What is compared
----------------
The *pages* are the files listed in ``_toc.yml`` and any ``chapters/*.ipynb`` it does
not list yet: of a notebook, its markdown
cells (one at a time); of a ``.md`` page, the whole file. The *reference* is every
``*.txt`` file in the reference folder, each read as one stream of words after the
same cleaning as a page (the reference texts write their formulas in ``$...$``).

Exempt text (removed before comparing; a removed span breaks a run, so no run
crosses it):

- math: ``$$...$$``, ``$...$`` (except a lone symbol such as ``$k$`` or ``$r_i$``,
  which reads as the word ``k`` or ``r``), ``\(...\)``, ``\[...\]``, ``\begin{..}...\end{..}``,
  the ``{math}`` role and ``{math}`` directive;
- code: fenced blocks whose info string is a language or ``{code-cell}``,
  ``{code-block}``, ``{code}``, ``{math}``, and inline code spans;
- quotations marked as such: a blockquote (lines starting with ``>``) that
  carries a ``{cite...}`` role, and text in double quotes (``"..."`` or
  ``“...”``) followed directly (spaces or an opening parenthesis between) by a
  ``{cite...}`` role;
- markup: HTML comments and tags, MyST targets ``(label)=``, directive option
  lines ``:name: value``, ``{cite}``, ``{eq}``, ``{numref}``, ``{doc}``/``{ref}``
  without their own text (these render as something other than the author's words).

Kept as words: the visible text of ``{term}``, ``{doc}``, ``{ref}`` roles written
``text <target>``, of links ``[text](url)`` and image alt text, headings, table
cells and directive bodies (exercises, notes, glossary entries).

Normalization of both sides
---------------------------
1. Numbers are facts, not words: in both texts every number (``4.324``, ``0,5``,
   the ``10`` of ``nDCG@10``) and every glue reference (``{glue}``, ``{glue:text}``,
   ``{glue:}`` ...) is deleted. A deleted number neither counts as a word nor breaks
   a run, so a copied sentence with other numbers in it still matches.
2. Lowercase; typographic apostrophes and quotes are unified, apostrophes removed
   (``don't`` -> ``dont``).
3. Every character that is not a letter or a digit separates words
   (punctuation, ``@``, hyphens, markdown emphasis, table pipes).
4. UK ``-ise``/``-isation`` endings are read as ``-ize``/``-ization`` so that
   respelling does not hide a copy.

A run is a maximal sequence of consecutive page words in which every window of
``RUN`` words also occurs, in order, in one reference file.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

RUN = 8
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REFERENCE = ROOT.parent / "shared" / "reference"

BREAK = "\n\x00\n"  # marks a removed span: no run crosses it
NUMBER = " "  # a number or glued value is deleted, not a break

_FENCE = re.compile(
    r"^(?P<ind>[ \t]*)(?P<fence>`{3,}|~{3,}|:{3,})(?P<info>[^\n]*)\n"
    r"(?P<body>.*?)^(?P=ind)(?P=fence)[ \t]*$",
    re.M | re.S,
)
_CODE_INFOS = re.compile(
    r"^\s*(\{(code-cell|code-block|code|math|sourcecode)\}|[A-Za-z0-9_+-]+\s*$|\s*$)"
)
_OPTION_LINE = re.compile(r"^[ \t]*:[\w-]+:.*$", re.M)
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_TARGET = re.compile(r"^[ \t]*\([^()\n]+\)=[ \t]*$", re.M)
_MATH_BLOCK = re.compile(r"\$\$.*?\$\$(?:[ \t]*\([^()\n]*\))?", re.S)
_MATH_ENV = re.compile(r"\\begin\{(?P<env>[^}]+)\}.*?\\end\{(?P=env)\}", re.S)
_MATH_PAREN = re.compile(r"\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)
_MATH_INLINE = re.compile(r"(?<![\\$])\$(?!\s)([^$\n]|\\\$)+?(?<![\s\\])\$(?!\d)")
_CITE = r"\{cite(?::[a-z]+)?\}`[^`]*`"
_QUOTED_CITED = re.compile(r"(?:\"[^\"\n]+\"|“[^”]+”)[ \t]*\(?[ \t]*(?:" + _CITE + r")")
_GLUE = re.compile(r"\{glue(?::[a-z]*)?\}`[^`]*`")
_ROLE_WITH_TEXT = re.compile(r"\{(?:term|doc|ref|numref|download|abbr)\}`([^`<]*?)\s*<[^`>]*>`")
_TERM = re.compile(r"\{term\}`([^`]*)`")
_ROLE_OTHER = re.compile(r"\{[\w:.-]+\}`[^`]*`")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+(.*)$", re.M)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_LONE_SYMBOL = re.compile(r"\$\s*\\?([A-Za-z]+)\s*(?:[_^]\s*(?:\{[^{}$]*\}|[\w*]))*\s*\$")
NUMBER_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
    " fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy"
    " eighty ninety hundred thousand million percent".split()
)
_APOSTROPHE = re.compile(r"(?<=\w)['’](?=\w)")
_NONWORD = re.compile(r"[^\w]+|_+")
_UK_IZE = re.compile(r"(?<=\w{2})is(e|ed|es|ing|ation|ations|er|ers)$")


@dataclass(frozen=True)
class Finding:
    """One maximal shared run of at least ``RUN`` words."""

    path: str
    cell: int | None  # markdown cell index in the notebook (0-based among all cells)
    line: int  # line of the cell (or page) where the run starts, 1-based
    words: tuple[str, ...]
    reference: str  # reference file name

    def __str__(self) -> str:
        where = f"cell {self.cell}  " if self.cell is not None else ""
        return (
            f"{self.path}  {where}line {self.line}  ({len(self.words)} words, {self.reference})  "
            f'"{" ".join(self.words)}"'
        )


def _blockquotes(text: str) -> str:
    """Drop blockquotes that carry a citation; keep other blockquotes as prose."""
    out: list[str] = []
    block: list[str] = []

    def flush() -> None:
        if block:
            joined = "\n".join(block)
            if re.search(_CITE, joined):
                out.append(BREAK)
            else:
                out.extend(re.sub(r"^[ \t]*>[ \t]?", "", line) for line in block)
            block.clear()

    for line in text.split("\n"):
        if re.match(r"^[ \t]*>", line):
            block.append(line)
        else:
            flush()
            out.append(line)
    flush()
    return "\n".join(out)


def _fences(text: str) -> str:
    """Remove code and math fences; keep directive bodies (minus their options)."""

    def repl(m: re.Match[str]) -> str:
        info = m.group("info")
        if m.group("fence").startswith(":") and not info.strip().startswith("{"):
            return BREAK + m.group("body") + BREAK
        if _CODE_INFOS.match(info):
            return BREAK
        title = re.sub(r"^\s*\{[^}]*\}", "", info)
        body = _OPTION_LINE.sub("", m.group("body"))
        return BREAK + title + "\n" + _fences(body) + BREAK

    return _FENCE.sub(repl, text)


def _symbol_word(name: str) -> str:
    """``k`` for ``$k$``; a TeX command (``$\\alpha$``) or longer name breaks the run."""
    return name if len(name) == 1 else BREAK


def prose(markdown: str) -> str:
    """The author's own words of a MyST markdown text, exempt spans replaced by breaks.

    Examples
    --------
    >>> prose("The gain $g(r) = 2^r - 1$ grows `fast`.").split()
    ['The', 'gain', '\\x00', 'grows', '\\x00', '.']
    """
    t = markdown.replace("\r\n", "\n")
    t = _HTML_COMMENT.sub(BREAK, t)
    t = _fences(t)
    t = _MATH_BLOCK.sub(BREAK, t)
    t = _MATH_ENV.sub(BREAK, t)
    t = _MATH_PAREN.sub(BREAK, t)
    t = _blockquotes(t)
    t = _QUOTED_CITED.sub(BREAK, t)
    t = _GLUE.sub(NUMBER, t)
    t = _ROLE_WITH_TEXT.sub(r"\1", t)
    t = _TERM.sub(r"\1", t)
    t = _ROLE_OTHER.sub(BREAK, t)
    t = _CODE_SPAN.sub(BREAK, t)
    t = _LONE_SYMBOL.sub(lambda m: " " + _symbol_word(m.group(1)) + " ", t)
    t = _MATH_INLINE.sub(BREAK, t)
    t = _TARGET.sub(BREAK, t)
    t = _OPTION_LINE.sub("", t)
    t = _HTML_TAG.sub(" ", t)
    t = _IMAGE.sub(r"\1", t)
    t = _LINK.sub(r"\1", t)
    t = _HEADING.sub(BREAK + r"\1" + BREAK, t)
    return t


def words(text: str) -> list[str]:
    """Normalized words of plain text; a break (``\\x00``) becomes the token ``""``.

    Examples
    --------
    >>> words("Normalised DCG@10 is 0.903, isn't it? Seven.")
    ['normalized', 'dcg', 'is', 'isnt', 'it']
    """
    out: list[str] = []
    for piece in text.split("\x00"):
        if out:
            out.append("")
        p = _NUMBER.sub(NUMBER, piece.lower().replace("’", "'"))
        p = _APOSTROPHE.sub("", p)
        for w in _NONWORD.split(p):
            if w and w not in NUMBER_WORDS:
                out.append(_UK_IZE.sub(r"iz\1", w))
    return out


def ngrams(tokens: list[str], n: int = RUN) -> set[tuple[str, ...]]:
    """All windows of ``n`` consecutive tokens that contain no break."""
    found: set[tuple[str, ...]] = set()
    for start in range(len(tokens) - n + 1):
        window = tuple(tokens[start : start + n])
        if "" not in window:
            found.add(window)
    return found


def load_reference(folder: Path) -> dict[str, set[tuple[str, ...]]]:
    """The ``RUN``-word windows of each ``*.txt`` file in ``folder``."""
    files = sorted(folder.glob("*.txt"))
    if not files:
        raise FileNotFoundError(f"no *.txt reference files in {folder}")
    return {f.name: ngrams(words(prose(f.read_text(encoding="utf-8")))) for f in files}


def shared_runs(
    text: str, reference: dict[str, set[tuple[str, ...]]]
) -> list[tuple[int, tuple[str, ...], str]]:
    """Maximal runs of page words whose every ``RUN``-window is in one reference file.

    ``text`` is MyST markdown. Returns ``(line, words, reference name)`` per run, with
    ``line`` the 1-based line of ``text`` on which the run starts.
    """
    tokens = words(prose(text))
    runs: list[tuple[int, tuple[str, ...], str]] = []
    for name, grams in reference.items():
        hit = [
            "" not in tokens[s : s + RUN] and tuple(tokens[s : s + RUN]) in grams
            for s in range(len(tokens) - RUN + 1)
        ]
        s = 0
        while s < len(hit):
            if not hit[s]:
                s += 1
                continue
            e = s
            while e + 1 < len(hit) and hit[e + 1]:
                e += 1
            run = tuple(tokens[s : e + RUN])
            runs.append((_line_of(text, run), run, name))
            s = e + 1
    runs.sort()
    return runs


def _line_of(text: str, run: tuple[str, ...]) -> int:
    """Best-effort 1-based line of ``text`` where ``run`` starts (1 if not found)."""
    lines = text.split("\n")
    for head in (3, 2, 1):
        probe = list(run[:head])
        for number, line in enumerate(lines, start=1):
            lw = words(line)
            for s in range(len(lw)):
                if lw[s : s + head] == probe:
                    return number
    return 1


def page_texts(path: Path) -> list[tuple[int | None, str]]:
    """``(cell index, markdown)`` of a notebook's markdown cells, or ``(None, text)``."""
    if path.suffix == ".ipynb":
        try:
            nb = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: not valid notebook JSON (line {exc.lineno})") from exc
        return [
            (index, "".join(cell["source"]))
            for index, cell in enumerate(nb.get("cells", []))
            if cell.get("cell_type") == "markdown"
        ]
    return [(None, path.read_text(encoding="utf-8"))]


def toc_pages(root: Path = ROOT) -> list[Path]:
    """Every page named in ``_toc.yml`` (``root`` and each ``file:``), as paths."""
    toc = (root / "_toc.yml").read_text(encoding="utf-8")
    names = re.findall(r"^\s*(?:-\s*)?(?:root|file):\s*(\S+)\s*$", toc, re.M)
    pages: list[Path] = []
    for name in names:
        for suffix in (".ipynb", ".md"):
            candidate = root / f"{name}{suffix}"
            if candidate.exists():
                pages.append(candidate)
                break
        else:
            raise FileNotFoundError(f"_toc.yml names {name!r}, but no .ipynb or .md file exists")
    return pages


def book_pages(root: Path = ROOT) -> list[Path]:
    """The pages of ``_toc.yml``, then any ``chapters/*.ipynb`` the toc does not list yet."""
    pages = toc_pages(root)
    listed = {p.resolve() for p in pages}
    extra = [p for p in sorted((root / "chapters").glob("*.ipynb")) if p.resolve() not in listed]
    return pages + extra


def check(pages: list[Path], reference: dict[str, set[tuple[str, ...]]]) -> list[Finding]:
    """All findings for ``pages``, in page order."""
    findings: list[Finding] = []
    for page in pages:
        shown = page.relative_to(ROOT).as_posix() if page.is_relative_to(ROOT) else str(page)
        for cell, text in page_texts(page):
            for line, run, name in shared_runs(text, reference):
                findings.append(Finding(shown, cell, line, run, name))
    return findings


def main(argv: list[str] | None = None) -> int:
    """Command line: print the findings, return 0 (none), 1 (some) or 2 (bad input)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pages", nargs="*", type=Path, help="pages to check (default: _toc.yml)")
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    args = parser.parse_args(argv)
    try:
        reference = load_reference(args.reference)
        pages = [p.resolve() for p in args.pages] or book_pages()
        for p in pages:
            if not p.is_file():
                raise FileNotFoundError(f"page {p} does not exist")
        findings = check(pages, reference)
    except (OSError, ValueError) as exc:
        print(f"originality: {exc}", file=sys.stderr)
        return 2
    for f in findings:
        print(f)
    per_page: dict[str, int] = {}
    for f in findings:
        per_page[f.path] = per_page.get(f.path, 0) + 1
    print()
    for page in pages:
        shown = page.relative_to(ROOT).as_posix() if page.is_relative_to(ROOT) else str(page)
        print(f"{per_page.get(shown, 0):4d}  {shown}")
    print(f"{len(findings):4d}  runs of {RUN}+ words shared with {args.reference}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
