"""dcglab.evaluation.presets: Python with the command line's conventions, and each interface's
spelling of its options in messages."""

import io
import sys

import pytest

from dcglab.cli import evaluate as cli
from dcglab.cli import main
from dcglab.evaluation.batch import evaluate
from dcglab.evaluation.batch.output import render
from dcglab.evaluation.presets import TREC_EVAL, option_spelling

QRELS = "q1 0 d1 2\nq1 0 d2 -2\nq1 0 d3 1\nq2 0 d4 0\n"
RUN = "q1 Q0 d2 1 3 t\nq1 Q0 d1 2 2 t\nq1 Q0 d3 3 1 t\nq2 Q0 d4 1 1 t\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "q").write_text(QRELS)
    (tmp_path / "r").write_text(RUN)
    return str(tmp_path / "q"), str(tmp_path / "r")


def test_the_preset_gives_the_command_lines_numbers(files, capsys):
    """Web-track style grade -2 and a query without relevant documents: the library's
    defaults refuse them, the preset prints what the command line prints."""
    with pytest.raises(ValueError):
        evaluate(*files, ["official", "ndcg_cut.10"])
    result = evaluate(*files, ["official", "ndcg_cut.10"], **TREC_EVAL)
    assert main([*files, "-q", "-m", "official", "-m", "ndcg_cut.10"]) == 0
    assert render(result, result.means(), "trec", True, "t") == capsys.readouterr().out


def test_messages_use_the_interfaces_spelling(files, capsys):
    assert option_spelling("choose zero_idcg='zero' or 'one'") == "choose --zero-idcg zero or 'one'"
    assert option_spelling("use negative_grades='unjudged'") == "use --negative-grades unjudged"
    assert main([*files, "-m", "ndcg_cut.10", "--zero-idcg", "error"]) == 2
    err = capsys.readouterr().err
    assert "--zero-idcg" in err and "zero_idcg=" not in err


def test_no_progress_bar_unless_stderr_is_a_terminal(files, monkeypatch):
    assert isinstance(cli.progress(*files), cli._Silent)

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    assert isinstance(cli.progress(*files), cli._Silent)  # small files
    monkeypatch.setattr(cli, "LARGE", 10)
    bar = cli.progress(*files)
    assert not isinstance(bar, cli._Silent)
    bar.update()
    bar.close()
    assert "dcglab: evaluating" in sys.stderr.getvalue()
