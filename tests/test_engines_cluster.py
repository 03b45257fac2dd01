"""``--engine spark`` on a real Spark standalone cluster: a master and two workers,
each its own process on 127.0.0.1 (tests/spark_cluster.py), executors in the workers.

The command line runs in a separate driver process with ``--spark-master``, on
trec_eval's own test files, and must print what the trec_eval 10.0 binary prints
for every measure of ``all_trec`` and more, under ``-q -c -M``; the driver reports
the executors it ran on. The executors evaluate their buckets of queries in
Python workers, which import dcglab: ``PYSPARK_PYTHON`` names this Python, where
dcglab is installed, as a cluster's workers must have it. Every process the test
starts is stopped, also on failure.
Without Java the test skips, except under CI=true, where it must run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from oracle import Case, trec_eval
from spark_cluster import LOCAL, standalone_cluster

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

DRIVER = """
import json, sys
from dcglab.cli.evaluate import main

status = main(sys.argv[2:])
from pyspark.sql import SparkSession

sc = SparkSession.getActiveSession().sparkContext
ids = sc._jsc.sc().getExecutorIds()
executors = [ids.apply(i) for i in range(ids.size())]
with open(sys.argv[1], "w") as out:
    json.dump({"master": sc.master, "executors": executors}, out)
sys.exit(status)
"""
MEASURES = ("all_trec", "ndcg_cut.5,10", "map_cut.10", "success", "recall.10")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, skip_or_fail):
    if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
        skip_or_fail("no Java runtime: install Debian's openjdk-17-jre-headless to run Spark")
    pytest.importorskip("pyspark")
    with standalone_cluster(tmp_path_factory.mktemp("spark_cluster")) as running:
        yield running


def test_the_command_line_on_a_standalone_cluster_is_trec_eval(
    cluster, trec_eval_test_files, trec_eval_binary, tmp_path
):
    files = trec_eval_test_files
    case = Case(
        qrels=(files / "qrels.test").read_text(),
        run=(files / "results.trunc").read_text(),
        options=("-q", "-c", "-M40"),
        measures=MEASURES,
    )
    report = tmp_path / "driver.json"
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    with tempfile.TemporaryDirectory() as tmp:
        argv = ["--engine", "spark", "--spark-master", cluster.url, *case.argv(Path(tmp))]
        done = subprocess.run(
            [sys.executable, str(script), str(report), *argv],
            capture_output=True,
            text=True,
            timeout=1200,
            env={**os.environ, **LOCAL, "PYSPARK_PYTHON": sys.executable},
        )
        theirs = trec_eval(trec_eval_binary, case, Path(tmp))
    assert done.returncode == 0, done.stderr[-3000:]
    assert theirs.status == 0
    assert done.stdout == theirs.stdout
    ran = json.loads(report.read_text())
    assert ran["master"] == cluster.url
    assert len(ran["executors"]) == 2  # one in each worker process
    status = cluster.status()  # the master ran the application (it may still be ending)
    assert "dcglab" in [a["name"] for a in status["activeapps"] + status["completedapps"]]
