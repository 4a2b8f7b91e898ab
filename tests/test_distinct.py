"""core.distinct: work once per distinct key, results identical to row-by-row evaluation."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xpert_frames.core import distinct
from xpert_frames.core.distinct import per_distinct

KEY = st.one_of(st.none(), st.sampled_from(["", "a", "b", "ab", "气虚", "x" * 40]))


def joined(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    """An elementwise function of two keys that is not null where a key is null."""
    return pl.concat_str(a.fill_null("<null>"), pl.lit("|"), b.fill_null("<null>"))


def frame(rows: list[tuple[str | None, str | None]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema={"a": pl.String, "b": pl.String}, orient="row")


def both_ways(df: pl.DataFrame) -> tuple[list[str | None], list[str | None]]:
    keys = [pl.col("a"), pl.col("b")]
    got = df.select(per_distinct(joined, keys, pl.String))
    return got.to_series().to_list(), df.select(joined(*keys)).to_series().to_list()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(KEY, KEY), max_size=30))
def test_same_as_row_by_row(rows: list[tuple[str | None, str | None]]) -> None:
    got, want = both_ways(frame(rows))
    assert got == want


@contextmanager
def colliding() -> Iterator[None]:
    """A hash with few values: most distinct keys collide with another."""
    real = distinct.key_hash
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(distinct, "key_hash", lambda keys: real(keys) % 3)
        yield


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(KEY, KEY), min_size=1, max_size=30))
def test_hash_collisions_are_resolved(rows: list[tuple[str | None, str | None]]) -> None:
    with colliding():
        got, want = both_ways(frame(rows))
    assert got == want


def test_function_sees_each_distinct_key_once() -> None:
    seen: list[int] = []

    def counted(a: pl.Expr, b: pl.Expr) -> pl.Expr:
        def batch(s: pl.Series) -> pl.Series:
            seen.append(len(s))
            return s.struct.field("a").str.len_bytes()

        return pl.struct(a.alias("a"), b.alias("b")).map_batches(batch, return_dtype=pl.UInt32)

    df = frame([("x", "1"), ("y", "1"), ("x", "1"), (None, "1"), ("x", None), ("x", "1")] * 50)
    out = df.select(per_distinct(counted, [pl.col("a"), pl.col("b")], pl.UInt32)).to_series()
    assert seen == [4]  # ("x","1"), ("y","1"), (None,"1"), ("x",None)
    assert out.to_list() == [1, 1, 1, None, 1, 1] * 50


def test_lazy_engines_and_empty() -> None:
    df = frame([("a", "b"), ("a", "b"), (None, "c")])
    keys = [pl.col("a"), pl.col("b")]
    expr = per_distinct(joined, keys, pl.String).alias("r")
    eager = df.select(expr)
    for engine in ("in-memory", "streaming"):
        assert df.lazy().select(expr).collect(engine=engine).equals(eager)
    empty = df.head(0).select(expr)
    assert empty.schema == {"r": pl.String} and empty.height == 0


def test_key_count_checked() -> None:
    with pytest.raises(ValueError, match="key columns"):
        distinct.key_hash([])
