"""DuckDB as an engine (:class:`dcglab.evaluation.engines.adapter.Adapter`), in this process."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path
from typing import Any

import polars as pl

from dcglab.evaluation.engines.adapter import EngineError
from dcglab.evaluation.engines.sql import DUCKDB


def import_duckdb():
    """The ``duckdb`` module, or an :class:`EngineError` saying how to install it."""
    try:
        import duckdb
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise EngineError("engine='duckdb' needs duckdb: pip install duckdb") from exc
    return duckdb


def _quote(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


class DuckDBAdapter:
    """Views and queries on one DuckDB connection (the relations' own, if given).

    A DataFrame read in this process reaches DuckDB as a Parquet file in a
    temporary folder (DuckDB reads polars frames only through pyarrow).
    """

    dialect = DUCKDB

    def __init__(self, connection: Any = None, config: dict | None = None) -> None:
        self.duckdb = import_duckdb()
        self.con = connection
        self.config = config or {}
        self.anchor: tuple[Any, str] | None = None  # a relation that runs SQL on its connection
        self.views: list[str] = []
        self.folder: Path | None = None

    def _connection(self):
        if self.con is None:
            self.con = self.duckdb.connect(config=self.config)
        return self.con

    def sql(self, text: str) -> list[tuple]:
        try:
            if self.anchor is not None:
                rel, name = self.anchor
                result = rel.query(name, text)
            else:
                result = self._connection().sql(text)
            return result.fetchall() if result is not None else []
        except self.duckdb.Error as exc:
            raise EngineError(f"duckdb: {str(exc).splitlines()[0]}") from exc

    def native_view(self, source: Any, name: str) -> bool:
        if not isinstance(source, self.duckdb.DuckDBPyRelation):
            return False
        if self.con is None and self.anchor is None:
            self.anchor = (source, name)
        source.create_view(name)
        self.views.append(name)
        return True

    def parquet_view(self, path: Path, name: str) -> None:
        glob = path / "**" / "*.parquet" if path.is_dir() else path
        self.sql(f"CREATE TEMP VIEW {name} AS SELECT * FROM read_parquet({_quote(glob)})")
        self.views.append(name)

    def frame_view(self, frame: pl.DataFrame, name: str) -> None:
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="dcglab_duckdb_"))
        path = self.folder / f"{name}_{uuid.uuid4().hex[:8]}.parquet"
        frame.write_parquet(path)
        self.parquet_view(path, name)

    def columns(self, name: str) -> dict[str, str]:
        return {r[0]: str(r[1]) for r in self.sql(f"DESCRIBE SELECT * FROM {name}")}

    def close(self) -> None:
        for name in self.views:
            try:
                self.sql(f"DROP VIEW IF EXISTS {name}")
            except EngineError:
                pass
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
