"""Any Arrow-compatible table in, the same kind out: pandas, pyarrow, DuckDB, Polars."""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from polars.testing import assert_frame_equal

import xpert_frames as xf

pd = pytest.importorskip("pandas", reason="pandas is in the dev extra")
duckdb = pytest.importorskip("duckdb", reason="duckdb is in the dev extra")

EVALUATORS = ["accuracy", "math", "bleu", "tcm_diagnosis", "fuzzy"]


@pytest.fixture(scope="module")
def sample() -> pl.DataFrame:
    return xf.load_sample()


@pytest.fixture(scope="module")
def expected(sample: pl.DataFrame) -> pl.DataFrame:
    return xf.score(sample, EVALUATORS)


def added(scored: pl.DataFrame, source: pl.DataFrame) -> pl.DataFrame:
    return scored.select(scored.columns[source.width :])


def test_pandas_in_pandas_out_with_input_untouched(
    sample: pl.DataFrame, expected: pl.DataFrame
) -> None:
    frame = sample.drop("choices").to_pandas()
    frame.index = pd.RangeIndex(100, 100 + len(frame))  # a non-default index is kept
    before = frame.copy(deep=True)
    out = xf.score(frame, ["math", "fuzzy"])
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns[: frame.shape[1]]) == list(frame.columns)
    pd.testing.assert_frame_equal(out[list(frame.columns)], before)  # values, dtypes, index
    pd.testing.assert_frame_equal(frame, before)  # the caller's frame is not modified
    assert list(out.index) == list(frame.index)
    want = xf.score(sample.drop("choices"), ["math", "fuzzy"])
    got = pl.from_pandas(out[list(out.columns[frame.shape[1] :])])
    assert_frame_equal(got, added(want, sample.drop("choices")), check_dtypes=False)


def test_pandas_with_list_columns(sample: pl.DataFrame, expected: pl.DataFrame) -> None:
    out = xf.score(sample.to_pandas(), EVALUATORS)
    assert isinstance(out, pd.DataFrame)
    for name in [c for c in expected.columns if c.endswith(("_score", "_applicable"))]:
        want = expected[name].to_numpy()  # nulls as NaN, as pandas holds them
        np.testing.assert_array_equal(out[name].to_numpy(dtype=want.dtype), want)


def test_record_batch_in_record_batch_out(sample: pl.DataFrame, expected: pl.DataFrame) -> None:
    batch = sample.to_arrow().combine_chunks().to_batches()[0]
    out = xf.score(batch, EVALUATORS)
    assert isinstance(out, pa.RecordBatch)
    assert out.num_rows == batch.num_rows
    assert out.select(batch.schema.names).equals(batch)
    assert_frame_equal(pl.from_arrow(out), expected, check_dtypes=False)  # type: ignore[arg-type]


def test_reader_gives_a_table(sample: pl.DataFrame, expected: pl.DataFrame) -> None:
    reader = sample.to_arrow().to_reader(max_chunksize=50)
    out = xf.score(reader, EVALUATORS)
    assert isinstance(out, pa.Table)
    assert_frame_equal(pl.from_arrow(out), expected, check_dtypes=False)  # type: ignore[arg-type]


def test_duckdb_relation_gives_a_table(sample: pl.DataFrame, expected: pl.DataFrame) -> None:
    con = duckdb.connect()
    con.register("answers", sample.to_arrow())
    relation = con.sql("select * from answers")
    out = xf.score(relation, EVALUATORS)
    assert isinstance(out, pa.Table)
    # DuckDB returns its own Arrow types (large strings): compare values
    assert_frame_equal(pl.from_arrow(out), expected, check_dtypes=False)  # type: ignore[arg-type]
    # what DuckDB's .arrow() returns is accepted as well
    again = xf.score(con.sql("select * from answers").arrow(), EVALUATORS)
    assert pl.from_arrow(again)["fuzzy_score"].to_list() == expected["fuzzy_score"].to_list()  # type: ignore[index]


def test_reports_accept_every_kind(expected: pl.DataFrame) -> None:
    # A plain frame does not record how BLEU was configured: reports are told (issue 15).
    want = xf.report(expected, by="model", evaluators=EVALUATORS)
    con = duckdb.connect()
    con.register("scored", expected.to_arrow())
    kinds = [
        expected.to_arrow(),
        expected.to_arrow().to_reader(),
        expected.to_pandas(),
        con.sql("select * from scored"),
    ]
    for frame in kinds:
        got = xf.report(frame, by="model", evaluators=EVALUATORS)
        assert isinstance(got, pl.DataFrame)
        # Bootstrap intervals hash each row's content, which a round trip through another
        # library's types changes (by Monte-Carlo noise only): compare the exact statistics.
        exact = ["model", "metric", "score", "min", "max", "count", "skipped", "not_applicable"]
        assert_frame_equal(got.select(exact), want.select(exact), abs_tol=1e-12)
        plain = pl.col("metric") != "corpus_bleu"  # its stderr is the bootstrap's spread
        assert_frame_equal(
            got.filter(plain).select("stderr"), want.filter(plain).select("stderr"), abs_tol=1e-12
        )


def test_unknown_object_names_what_is_accepted() -> None:
    with pytest.raises(TypeError, match="__arrow_c_stream__"):
        xf.score([{"prediction": "a", "answer": "a"}], "fuzzy")  # type: ignore[type-var]


def test_polars_path_unchanged(sample: pl.DataFrame, expected: pl.DataFrame) -> None:
    lazy = xf.score(sample.lazy(), EVALUATORS)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(lazy.collect(), expected)
    assert_frame_equal(lazy.collect(engine="streaming"), expected)
    arrow = xf.score(sample.to_arrow(), EVALUATORS)
    assert arrow.select(sample.columns).equals(sample.to_arrow())


def test_new_arrow_columns_have_the_types_and_values_polars_to_arrow_gives() -> None:
    """The scored columns go to Arrow through views cast by pyarrow (strings) and Polars'
    own export (the rest): the same table as ``DataFrame.to_arrow()``, nulls, nested strings
    and several chunks included."""
    from xpert_frames.scoring import _as_arrow

    part = pl.DataFrame(
        {
            "text": ["x", None, "zz" * 20],
            "score": [1.0, None, 0.0],
            "items": [["a"], None, ["b", None]],
            "kind": pl.Series(["u", "v", None], dtype=pl.Categorical),
            "pair": [{"f": "s"}, None, {"f": None}],
        }
    )
    frame = pl.concat([part, part], rechunk=False)
    got, expected = _as_arrow(frame), frame.to_arrow()
    assert got.schema == expected.schema
    assert got.equals(expected)
