"""dcglab.evaluation.batch.inputs: standard input, pipes, compressed and Parquet files, and the
Python
layouts of pytrec_eval, ir_measures and ir_datasets all give the same evaluation."""

import bz2
import gzip
import io
import lzma
import os
import subprocess
import sys
import threading
from collections import namedtuple
from pathlib import Path

import polars as pl
import pytest

from dcglab.cli import main
from dcglab.evaluation.batch import evaluate
from dcglab.evaluation.batch.inputs import Raw, resolve, run_tag

QRELS = "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d1 1\nq2 0 d4 0\n"
RUN = (
    "q1 Q0 d2 1 3.5 first\nq1 Q0 d1 2 2.25 first\nq1 Q0 d3 3 1 first\n"
    "q2 Q0 d4 1 9 first\nq2 Q0 d1 2 8 last_tag\n"
)
MEASURES = ["map", "bpref", "P.2", "ndcg_cut.2"]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return tmp_path / "qrels", tmp_path / "run"


@pytest.fixture
def expected(files):
    return evaluate(*files, MEASURES).per_query


@pytest.mark.parametrize("suffix", ["gz", "bz2", "xz"])
def test_compressed_files(files, expected, suffix, tmp_path):
    compress = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}[suffix]
    path = tmp_path / f"run.{suffix}"
    path.write_bytes(compress(RUN.encode()))
    assert evaluate(files[0], path, MEASURES).per_query.equals(expected)
    assert run_tag(path) == "last_tag"


def test_a_corrupt_compressed_file_names_it(files, tmp_path):
    path = tmp_path / "run.gz"
    path.write_bytes(gzip.compress(RUN.encode())[:20])
    with pytest.raises(ValueError, match="run.gz: looks like gzip but cannot be decompressed"):
        evaluate(files[0], path, MEASURES)


def test_parquet_with_ir_datasets_columns(files, expected, tmp_path):
    frame = pl.DataFrame(
        {"query_id": ["q1", "q1", "q1", "q2", "q2"], "doc_id": ["d2", "d1", "d3", "d4", "d1"]}
    ).with_columns(score=pl.Series([3.5, 2.25, 1.0, 9.0, 8.0]))
    frame.write_parquet(tmp_path / "run.parquet")
    assert evaluate(files[0], tmp_path / "run.parquet", MEASURES).per_query.equals(expected)


def test_pytrec_eval_dicts_and_ir_measures_namedtuples(files, expected):
    qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}, "q2": {"d1": 1, "d4": 0}}
    run = {"q1": {"d2": 3.5, "d1": 2.25, "d3": 1.0}, "q2": {"d4": 9.0, "d1": 8.0}}
    assert evaluate(qrels, run, MEASURES).per_query.equals(expected)
    Qrel = namedtuple("Qrel", "query_id doc_id relevance iteration")
    ScoredDoc = namedtuple("ScoredDoc", "query_id doc_id score")
    q = [Qrel(a, d, int(g), "0") for a, _, d, g in (line.split() for line in QRELS.splitlines())]
    r = [ScoredDoc(a, d, float(s)) for a, _, d, _, s, _ in map(str.split, RUN.splitlines())]
    assert evaluate(q, iter(r), MEASURES).per_query.equals(expected)


def test_ir_measures_own_readers(files, expected):
    ir_measures = pytest.importorskip("ir_measures")
    q = ir_measures.read_trec_qrels(str(files[0]))
    r = ir_measures.read_trec_run(str(files[1]))
    assert evaluate(q, r, MEASURES).per_query.equals(expected)


def test_file_objects(files, expected):
    got = evaluate(io.BytesIO(QRELS.encode()), io.StringIO(RUN), MEASURES)
    assert got.per_query.equals(expected)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ({"q1": [1, 2]}, "query 'q1' maps to list"),
        ([("q1", "d1", 1)], "row 0 is"),
        (42, "got int"),
        ({"q1": {"d1": "x"}}, "grade"),
    ],
)
def test_bad_python_inputs_name_the_argument(source, message, files):
    with pytest.raises(ValueError, match=message):
        evaluate(source, files[1], MEASURES)


def test_stdin_and_fifo_on_the_command_line(files, tmp_path):
    """``-`` reads standard input; a FIFO (as ``<(zcat run.gz)`` makes) is read as a
    stream, not "file not found". Both print what the plain file prints."""
    plain = subprocess.run(
        [sys.executable, "-m", "dcglab", str(files[0]), str(files[1])],
        capture_output=True,
        text=True,
    )
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.startswith("runid                 \tall\tlast_tag\n")
    piped = subprocess.run(
        [sys.executable, "-m", "dcglab", str(files[0]), "-"],
        input=RUN,
        capture_output=True,
        text=True,
    )
    assert piped.stdout == plain.stdout, piped.stderr
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_text(RUN))
    writer.start()
    through_fifo = subprocess.run(
        [sys.executable, "-m", "dcglab", str(files[0]), str(fifo)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    writer.join()
    assert through_fifo.stdout == plain.stdout, through_fifo.stderr


def test_an_error_in_standard_input_names_the_line(files, monkeypatch, capsys):
    bad = RUN.replace("2.25", "high")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(bad.encode())))
    assert main([str(files[0]), "-", "-m", "map"]) == 2
    assert "<stdin>:2: score 'high' is not a number" in capsys.readouterr().err


def test_plain_paths_stay_paths(files):
    """The fast path (memory-mapped plain files) is kept."""
    assert resolve(str(files[1]), "run") == Path(files[1])
    assert isinstance(resolve(Raw(b"x", "y"), "run"), Raw)


def test_run_tag_is_the_last_data_lines(tmp_path):
    path = tmp_path / "run"
    path.write_text(RUN + "# a comment\n\n")
    assert run_tag(path) == "last_tag"
    big = "".join(f"q Q0 d{i} {i} 1.0 tag{i}\n" for i in range(20000))
    path.write_text(big)
    assert run_tag(path) == "tag19999"


def test_infinite_scores_rank_as_in_trec_eval(tmp_path, capsys, trec_eval_binary):
    """Rerankers write -inf: trec_eval reads it (atof) and ranks it last, inf first,
    ties broken by docno; NaN has no rank and is refused with its line."""
    (tmp_path / "q").write_text("q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq1 0 d4 1\n")
    run = "q1 Q0 d1 1 -inf t\nq1 Q0 d2 2 inf t\nq1 Q0 d3 3 0.5 t\nq1 Q0 d4 4 -inf t\n"
    (tmp_path / "r").write_text(run)
    args = ["-q", "-m", "P.1,2,3", "-m", "map", "-m", "ndcg_cut.2,3", "-m", "bpref"]
    files = [str(tmp_path / "q"), str(tmp_path / "r")]
    want = subprocess.run([trec_eval_binary, *args, *files], capture_output=True, text=True)
    assert main([*args, *files]) == 0
    assert capsys.readouterr().out == want.stdout
    (tmp_path / "r").write_text(run.replace("0.5", "nan"))
    assert main([*args, *files]) == 2
    assert "r:3: score 'nan' is NaN" in capsys.readouterr().err


COMPRESS = {"gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress}


def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


@pytest.mark.parametrize("name", sorted(COMPRESS))
def test_compressed_standard_input_reads_as_the_file(files, monkeypatch, capsys, name):
    """gzip, bzip2 and xz on standard input are found by their first bytes, as in a
    file: the same output as the plain file, runid (the last line's tag) included."""
    assert main([str(files[0]), str(files[1])]) == 0
    plain = capsys.readouterr().out
    assert "runid                 \tall\tlast_tag\n" in plain
    _stdin(monkeypatch, COMPRESS[name](RUN.encode()))
    assert main([str(files[0]), "-"]) == 0
    assert capsys.readouterr().out == plain
    for size in (1, 10, 100):  # short and long streams: every size is decompressed
        lines = [line.split() for line in RUN.splitlines()]
        text = "".join(
            f"{q} Q0 {d}_{i} 1 {v} tag{i}\n" for i in range(size) for q, _, d, _, v, _ in lines
        )
        _stdin(monkeypatch, COMPRESS[name](text.encode()))
        assert main([str(files[0]), "-", "-m", "runid", "-m", "num_ret"]) == 0
        out = capsys.readouterr().out
        runid, num_ret = (
            f"runid{' ' * 17}\tall\ttag{size - 1}",
            f"num_ret{' ' * 15}\tall\t{5 * size}",
        )
        assert out == f"{runid}\n{num_ret}\n"


def test_a_compressed_file_object_is_decompressed(files, expected):
    data = gzip.compress(RUN.encode())
    assert evaluate(files[0], io.BytesIO(data), MEASURES).per_query.equals(expected)


BINARY = {
    "zip": (b"PK\x03\x04" + bytes(range(256)) * 20, "looks like a zip archive"),
    "zstd": (b"\x28\xb5\x2f\xfd" + bytes(range(256)) * 20, "looks like zstd data"),
    "ELF": (b"\x7fELF" + bytes(range(256)) * 20, "looks like an executable"),
    "UTF-16": (("\ufeff" + RUN).encode("utf-16-le"), "looks like UTF-16 text"),
    "random bytes with NUL": (b"ab\x00" + bytes(range(11, 256)) * 20, "a NUL byte"),
    "latin-1 line": (RUN.replace("d4", "d\xe9" * 3000).encode("latin-1"), "is not UTF-8"),
    "truncated gzip": (gzip.compress(RUN.encode())[:15], "looks like gzip but cannot be"),
}


@pytest.mark.parametrize("kind", sorted(BINARY))
def test_binary_input_is_one_short_line(files, tmp_path, monkeypatch, capsys, kind):
    """A binary file or stream gets one short line saying what it looks like, never
    the file's bytes escaped (a binary "line" can be megabytes long)."""
    data, needle = BINARY[kind]
    (tmp_path / "bin").write_bytes(data)
    _stdin(monkeypatch, data)
    for args in ([files[0], tmp_path / "bin"], [files[0], "-"], [tmp_path / "bin", files[1]]):
        if args[0] != files[0] and kind == "latin-1 line":
            continue  # a run line is no qrels line: another message, as long
        assert main([str(a) for a in args]) == 2
        err = capsys.readouterr().err
        assert needle in err and len(err.splitlines()) == 1 and len(err) < 300, err


def test_a_nul_byte_in_text_is_an_error_naming_its_line(files, tmp_path):
    """trec_eval stops on a NUL byte inside an id; dcglab names the line, on the fast
    path (single spaces) as on the general one (tabs and spaces mixed)."""
    for sep in (" ", "\t "):
        text = QRELS.replace("q2 0 d4 0", "q2 0 d\x004 0").replace(" ", sep)
        (tmp_path / "qrels").write_text(text)
        with pytest.raises(ValueError, match=r"qrels:5: a NUL byte at column \d+: binary data"):
            evaluate(tmp_path / "qrels", files[1], MEASURES)


def test_a_directory_is_named_as_given(files, tmp_path, capsys):
    folder = tmp_path / "adir"
    folder.mkdir()
    for args, name in (([files[0], folder], "run"), ([folder, files[1]], "qrels")):
        assert main([str(a) for a in args]) == 2
        message = f"dcglab: error: {name} {folder} is a directory, not a file\n"
        assert capsys.readouterr().err == message
    with pytest.raises(ValueError, match="run .*adir is a directory, not a file"):
        evaluate(files[0], folder, MEASURES)


def test_a_missing_query_message_names_command_line_options(files, tmp_path, capsys):
    """Without -c a qrels query absent from the run is refused; the message names -c and
    --ignore-missing (never the Python keywords), and --ignore-missing leaves it out."""
    (tmp_path / "more.qrels").write_text(QRELS + "q3 0 d9 1\n")
    args = [str(tmp_path / "more.qrels"), str(files[1]), "-q", "-m", "map"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "-c scores it 0, --ignore-missing leaves it out" in err and "missing=" not in err
    assert main([*args, "--ignore-missing"]) == 0
    kept = capsys.readouterr().out
    assert main([str(files[0]), str(files[1]), "-q", "-m", "map"]) == 0
    assert kept == capsys.readouterr().out  # as if the qrels had no q3
    with pytest.raises(SystemExit) as done:  # a usage error, as argparse reports it
        main([*args, "--ignore-missing", "-c"])
    assert done.value.code == 2 and "not allowed with argument" in capsys.readouterr().err
