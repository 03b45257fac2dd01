"""A Spark standalone cluster on this machine: a master and workers, each its own process.

pyspark's wheel ships ``bin/spark-class`` but not the ``sbin`` start scripts, so
:func:`standalone_cluster` starts ``org.apache.spark.deploy.master.Master`` and
``org.apache.spark.deploy.worker.Worker`` with ``spark-class``, each in a new
process group on 127.0.0.1 (``SPARK_LOCAL_IP``), waits until the master's JSON
page lists every worker alive, and on leaving (a failure too) stops every process
it started, with the executors the workers launched, by process group.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

LOCAL = {"SPARK_LOCAL_IP": "127.0.0.1", "SPARK_MASTER_HOST": "127.0.0.1"}
"""Environment for every cluster process and the driver: bind the loopback address."""


@dataclass(frozen=True)
class Cluster:
    """A running cluster: its master URL, master web page and processes."""

    url: str
    web: str
    processes: tuple[subprocess.Popen, ...]

    def status(self) -> dict:
        """The master's JSON status (workers, running and completed applications)."""
        with urllib.request.urlopen(f"{self.web}/json/", timeout=10) as page:
            return json.load(page)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def spark_class() -> Path:
    """``bin/spark-class`` of the installed pyspark (its package folder is SPARK_HOME)."""
    import pyspark

    return Path(pyspark.__file__).parent / "bin" / "spark-class"


def _start(args: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen:
    with open(log, "wb") as out:
        return subprocess.Popen(
            [str(spark_class()), *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # its own process group, with the executors it starts
        )


def _stop(processes: list[subprocess.Popen]) -> None:
    """Stop each process group, politely, then for good."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for p in processes:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(p.pid, sig)
        deadline = time.monotonic() + 20
        for p in processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
        if all(p.poll() is not None for p in processes):
            break


@contextlib.contextmanager
def standalone_cluster(folder: Path, workers: int = 2, timeout: float = 300) -> Iterator[Cluster]:
    """A master and ``workers`` workers (1 core, 1 GB each) on 127.0.0.1, logs and
    work folders in ``folder``; every process is stopped on leaving."""
    import pyspark

    env = {**os.environ, **LOCAL, "SPARK_HOME": str(Path(pyspark.__file__).parent)}
    port, web = free_port(), free_port()
    url = f"spark://127.0.0.1:{port}"
    processes: list[subprocess.Popen] = []
    try:
        master = ["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1"]
        master += ["--port", str(port), "--webui-port", str(web)]
        processes.append(_start(master, folder / "master.log", env))
        for i in range(workers):
            work = folder / f"worker{i}"
            work.mkdir()
            worker = ["org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1"]
            worker += ["--cores", "1", "--memory", "1g", "--work-dir", str(work)]
            worker += ["--webui-port", str(free_port())]
            processes.append(_start(worker, folder / f"worker{i}.log", env))
        cluster = Cluster(url, f"http://127.0.0.1:{web}", tuple(processes))
        _wait_for_workers(cluster, workers, timeout, folder)
        yield cluster
    finally:
        _stop(processes)


def _wait_for_workers(cluster: Cluster, n: int, timeout: float, folder: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        dead = [p for p in cluster.processes if p.poll() is not None]
        if dead:
            raise RuntimeError(f"a cluster process exited ({dead[0].args}); see {folder}")
        with contextlib.suppress(OSError, ValueError):
            alive = [w for w in cluster.status()["workers"] if w["state"] == "ALIVE"]
            if len(alive) >= n:
                return
        time.sleep(1)
    raise RuntimeError(f"{n} workers did not register with {cluster.url} in {timeout} s")
