"""Unit tests of dcglab.collections.cranfield.data: checksums, parsing, locating and fetching the
files."""

from __future__ import annotations

import hashlib
import tarfile
from pathlib import Path

import pytest
from cranfield_kit import collection, folder

from dcglab.collections import cranfield as cf


@pytest.fixture(scope="module")
def cran_dir(skip_or_fail) -> Path:
    return folder(skip_or_fail)


@pytest.fixture(scope="module")
def col(skip_or_fail) -> cf.Collection:
    return collection(skip_or_fail)


def test_shared_copy_has_the_published_md5s(cran_dir):
    for name, want in cf.FILES.items():
        assert hashlib.md5((cran_dir / name).read_bytes()).hexdigest() == want
    assert cf.verify(cran_dir) == cran_dir


def test_counts(col):
    assert len(col.docs) == 1400
    assert [d.id for d in col.docs] == list(range(1, 1401))
    assert len(col.queries) == 225
    assert sorted(col.qrels) == list(range(1, 226))
    assert sum(len(j) for j in col.qrels.values()) == 1837  # 1836 newlines, last line bare
    assert all(any(c > 0 for c in j.values()) for j in col.qrels.values())  # IDCG > 0 always


def test_minus_one_codes(col):
    codes = [c for j in col.qrels.values() for c in j.values()]
    assert sorted(set(codes)) == [-1, 1, 2, 3, 4]
    assert codes.count(-1) == 225
    # exactly one -1 per query
    assert all(list(j.values()).count(-1) == 1 for j in col.qrels.values())
    assert col.qrels[1][486] == -1 and col.qrels[225][1188] == -1


def test_queries_are_numbered_by_position(col):
    assert col.query_labels[:5] == (1, 2, 4, 8, 9)
    assert col.query_labels[-1] == 365
    # query 3 of the qrels is the third query of the file, labelled .I 004
    assert col.query_labels[2] == 4
    assert col.queries[2].startswith("what problems of heat conduction in composite slabs")
    assert col.qrels[3]  # judged under its position, not its label
    assert max(col.query_labels) > len(col.queries)


def test_document_fields(col):
    d = col.docs[0]
    assert d.title == "experimental investigation of the aerodynamics of a\nwing in a slipstream ."
    assert d.author == "brenckman,m."
    assert d.bib == "j. ae. scs. 25, 1958, 324."
    assert d.abstract.startswith(d.title)  # abstracts repeat the title
    assert d.abstract.endswith("the specific configuration of the experiment .")


def test_malformed_documents(col):
    # 240: stray .A and .B lines inside the abstract stay abstract text
    d = col.docs[239]
    assert d.author == "dean r. chapman" and d.bib == "naca technote 3792"
    assert "application to turbulent separations" in d.abstract
    assert "unity in low-speed flow without injection" in d.abstract
    # 576 and 578 repeat .W: the second part is appended to the abstract
    assert "stall of adjacent stages" in col.docs[575].abstract
    assert "compressor operation with one or more blade rows" in col.docs[577].abstract
    assert ".W" not in col.docs[577].abstract


def test_parse_qrels_rejects_bad_lines():
    assert cf.parse_qrels("1 2 3\r\n\n2 5 -1\n") == {1: {2: 3}, 2: {5: -1}}
    with pytest.raises(ValueError, match="unknown relevance code 5"):
        cf.parse_qrels("1 2 5\n")
    with pytest.raises(ValueError, match="judged twice"):
        cf.parse_qrels("1 2 3\n1 2 4\n")
    with pytest.raises(ValueError, match="expected 3 columns"):
        cf.parse_qrels("1 2\n")


def test_verify_names_a_bad_file(tmp_path, cran_dir):
    for name in cf.FILES:
        (tmp_path / name).write_bytes((cran_dir / name).read_bytes())
    (tmp_path / "cranqrel").write_text("1 2 3\n")
    with pytest.raises(cf.CranfieldUnavailable, match="cranqrel has md5"):
        cf.verify(tmp_path)


def test_data_dir_resolution(monkeypatch, tmp_path):
    monkeypatch.setenv(cf.ENV_VAR, str(tmp_path))
    assert cf.data_dir() == tmp_path
    (tmp_path / "other").mkdir()
    assert cf.data_dir(tmp_path / "other") == tmp_path / "other"  # the argument wins
    monkeypatch.setenv(cf.ENV_VAR, str(tmp_path / "missing"))
    with pytest.raises(cf.CranfieldUnavailable, match=cf.ENV_VAR):
        cf.data_dir()
    monkeypatch.delenv(cf.ENV_VAR)
    with pytest.raises(cf.CranfieldUnavailable, match=cf.ENV_VAR):
        cf.data_dir(download=False)


@pytest.fixture
def archive(tmp_path, cran_dir, serve_folder):
    """A cran.tar.gz re-packed from the shared files, served on 127.0.0.1."""
    served = tmp_path / "served"
    served.mkdir()
    path = served / "cran.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for name in [*cf.FILES, "cranqrel.readme"]:
            if (cran_dir / name).exists():
                tar.add(cran_dir / name, arcname=name)
    md5 = "md5:" + hashlib.md5(path.read_bytes()).hexdigest()
    with serve_folder(served) as (base, server):
        yield base + "cran.tar.gz", md5, server


def test_fetch_downloads_extracts_verifies_and_caches(archive, tmp_path):
    url, md5, server = archive
    cache = tmp_path / "cache"
    folder = cf.fetch(url, known_hash=md5, cache_dir=cache)
    assert folder.parent == cache
    assert {p.name for p in folder.iterdir()} >= set(cf.FILES)
    assert len(cf.load(folder).docs) == 1400
    server.shutdown()  # the second call must not need the network
    assert cf.fetch(url, known_hash=md5, cache_dir=cache) == folder


def test_fetch_rejects_a_wrong_archive_hash(archive, tmp_path):
    url, _, _ = archive
    with pytest.raises(cf.CranfieldUnavailable, match=cf.ENV_VAR):
        cf.fetch(url, known_hash="md5:" + "0" * 32, cache_dir=tmp_path / "cache")


def test_fetch_failure_gives_one_clear_message(tmp_path):
    url = "http://127.0.0.1:9/cran.tar.gz"
    with pytest.raises(cf.CranfieldUnavailable) as info:
        cf.fetch(url, cache_dir=tmp_path)
    message = str(info.value)
    assert message.startswith(f"Could not download the Cranfield collection from {url}")
    assert f"{cf.ENV_VAR}=/path/to/folder" in message
    assert "\n" not in message
    assert info.value.__cause__ is None and info.value.__suppress_context__
