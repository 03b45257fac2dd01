"""A DuckDB connection as the SQL appendix uses it: a query's rows printed with fixed
decimals (so stored outputs are reproducible), or the one value a query returns."""

from __future__ import annotations

from typing import Any

__all__ = ["SqlConsole"]


class SqlConsole:
    """Queries on one DuckDB connection, shown or read back.

    Examples
    --------
    >>> import duckdb
    >>> sql = SqlConsole(duckdb.connect())
    >>> sql.show("SELECT 'q1' AS qid, 2 / 3 AS ndcg")
    qid  ndcg
     q1 0.667
    >>> sql.ndcg_of("SELECT 'q1' AS qid, 0.5 AS ndcg", "q1")
    Decimal('0.5')
    """

    def __init__(self, con: Any) -> None:
        self.con = con

    def show(self, sql: str, digits: int = 3) -> None:
        """Print the rows of a query, every float to ``digits`` decimals."""
        frame = self.con.sql(sql).df()
        print(frame.to_string(index=False, float_format=lambda x: f"{x:.{digits}f}"))

    def scalar(self, sql: str) -> Any:
        """The single value a query returns."""
        return self.con.sql(sql).fetchall()[0][0]

    def ndcg_of(self, query: str, qid: str) -> Any:
        """The ``ndcg`` column of one query's row in the result of a full query."""
        return self.scalar(f"SELECT ndcg FROM ({query}) AS t WHERE qid = '{qid}'")
