from __future__ import annotations

import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import xpert_frames as xf
from tests.helpers import examples, score_all_paths
from xpert_frames.core import frames
from xpert_frames.core.exceptions import ColumnNotFoundError, ColumnTypeError, DuplicateColumnError


def nested_frame() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "id": ["q1", "q2", "q3"],
            "prediction": ["北京", "abc", None],
            "reference": [
                {
                    "answer": {"type": "text", "value": "北京"},
                    "choices": [{"id": "A", "content": "上海"}],
                    "meta": {"tcm_eval_type": "syndrome"},
                },
                {"answer": {"type": "text", "value": ""}, "choices": None, "meta": None},
                {"answer": {"type": "text", "value": "x"}, "choices": None, "meta": None},
            ],
        }
    )


def test_kinds_round_trip() -> None:
    df = pl.DataFrame({"model": ["m1", "m2"], "prediction": ["a", "b"], "answer": ["a", "c"]})
    assert isinstance(xf.score(df, "fuzzy"), pl.DataFrame)
    assert isinstance(xf.score(df.lazy(), "fuzzy"), pl.LazyFrame)
    table = pa.table(
        {
            "model": pa.array(["m1", "m2"], pa.string()),
            "prediction": ["a", "b"],
            "answer": ["a", "c"],
        }
    )
    out = xf.score(table, "fuzzy")
    assert isinstance(out, pa.Table)
    # Input columns come back exactly as given (types included), new columns appended.
    assert out.schema.field("model").type == pa.string()
    assert out.select(["model", "prediction", "answer"]).equals(table)
    assert out.column_names == [*table.column_names, "fuzzy_score", "fuzzy_match"]


def test_nested_reference_shape_is_flattened_vectorized() -> None:
    out = score_all_paths(nested_frame(), ["fuzzy"])
    # the nested answer has a type: fuzzy scores text rows and says which rows it fits
    assert out.columns == [
        "id",
        "prediction",
        "reference",
        "fuzzy_score",
        "fuzzy_match",
        "fuzzy_applicable",
    ]
    assert out["fuzzy_applicable"].to_list() == [True, True, True]
    # empty reference value and null prediction are invalid: null, counted as skipped
    assert out["fuzzy_score"].to_list() == [1.0, None, None]
    rep = xf.report(out)
    assert rep.filter(pl.col("metric") == "fuzzy").select("count", "skipped").row(0) == (1, 2)


def test_flatten_references() -> None:
    flat = frames.flatten_references(nested_frame())
    assert flat.columns[-4:] == ["answer", "answer_type", "choices", "tcm_eval_type"]
    assert flat["answer"].to_list() == ["北京", "", "x"]
    assert flat["choices"][0].to_list() == [{"id": "A", "content": "上海"}]
    assert flat["tcm_eval_type"].to_list() == ["syndrome", None, None]


def test_from_records_keeps_malformed_rows() -> None:
    df = frames.from_records(
        ["a", "b", "c", None, "e"],
        [
            {"answer": {"type": "text", "value": "a"}},
            "not a dict",
            {"answer": "not a dict"},
            {"answer": {"value": "d"}},
            {"answer": {"type": "number", "value": 42}},
        ],
    )
    assert df.height == 5
    assert df["answer"].to_list() == ["a", None, None, "d", "42"]
    out = xf.score(df, "fuzzy")
    # the last row is a number question: fuzzy does not fit it unless told to score all rows
    assert out["fuzzy_score"].to_list() == [1.0, None, None, None, None]
    assert out["fuzzy_applicable"].to_list() == [True, True, True, True, False]
    everything = xf.score(df, "fuzzy", all_rows=True)
    assert everything["fuzzy_score"].to_list() == [1.0, None, None, None, 0.0]
    assert "fuzzy_applicable" not in everything.columns


def test_from_records_length_mismatch() -> None:
    with pytest.raises(ValueError, match="same length"):
        frames.from_records(["a"], [])


def test_column_mapping() -> None:
    df = pl.DataFrame({"response": ["abc"], "gold": ["abd"]})
    out = score_all_paths(df, ["fuzzy"], prediction="response", answer="gold")
    assert out["fuzzy_score"].to_list() == [1 - 1 / 3]


def test_missing_column_names_it_and_suggests() -> None:
    df = pl.DataFrame({"pred": ["a"], "answer": ["b"]})
    with pytest.raises(ColumnNotFoundError) as info:
        xf.score(df, "fuzzy")
    msg = str(info.value)
    assert "'prediction'" in msg and "['pred', 'answer']" in msg and "Did you mean 'pred'" in msg
    assert isinstance(info.value, KeyError)


def test_wrong_dtype_is_rejected_with_hint() -> None:
    df = pl.DataFrame({"prediction": [1, 2], "answer": ["1", "2"]})
    with pytest.raises(ColumnTypeError, match=r"cast\(pl.String\)"):
        xf.score(df, "fuzzy")


def test_numeric_answers_are_written_as_strings() -> None:
    df = pl.DataFrame({"prediction": ["42", "3.5"], "answer": [42, 3]})
    out = xf.score(df, "fuzzy")
    assert out["fuzzy_score"].to_list() == [1.0, 1 - 2 / 3]


def test_all_null_prediction_column_is_all_skipped() -> None:
    df = pl.DataFrame({"prediction": [None, None], "answer": ["a", "b"]})
    out = score_all_paths(df, ["fuzzy"])
    assert out["fuzzy_score"].null_count() == 2


def test_empty_input_gives_empty_output_and_zero_counts() -> None:
    df = pl.DataFrame(schema={"prediction": pl.String, "answer": pl.String})
    out = xf.score(df, "fuzzy")
    assert out.height == 0 and out.columns == ["prediction", "answer", "fuzzy_score", "fuzzy_match"]
    rep = xf.report(out)
    assert rep["count"].to_list() == [0, 0]
    assert xf.to_seed_dict(rep)["fuzzy"] == {"score": 0.0, "min": 0.0, "max": 0.0, "count": 0}


def test_existing_output_column_is_not_overwritten() -> None:
    df = pl.DataFrame({"prediction": ["a"], "answer": ["a"], "fuzzy_score": [0.1]})
    with pytest.raises(DuplicateColumnError, match="fuzzy_score"):
        xf.score(df, "fuzzy")


def test_two_fuzzy_evaluators_with_names() -> None:
    df = pl.DataFrame({"prediction": ["abcd"], "answer": ["abce"]})
    strict = xf.get_evaluator("fuzzy", threshold=0.9, name="fuzzy_strict")
    out = score_all_paths(df, ["fuzzy", strict])
    assert out["fuzzy_match"].to_list() == [True]
    assert out["fuzzy_strict_match"].to_list() == [False]


def test_order_and_columns_preserved_on_large_shuffled_input() -> None:
    n = 5000
    df = pl.DataFrame(
        {
            "row": range(n),
            "prediction": [f"答案{i % 97}" if i % 13 else None for i in range(n)],
            "answer": [f"答案{(i * 7) % 97}" for i in range(n)],
        }
    ).sample(fraction=1.0, shuffle=True, seed=3)
    out = score_all_paths(df, ["fuzzy"])
    assert_frame_equal(out.select(df.columns), df)


# Unicode's White_Space characters, and characters some tools call blank but Unicode does not
# (Python's str.isspace() takes U+001C..U+001F; U+200B and U+FEFF are format characters).
SPACES = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000"
NOT_SPACES = "\x1c\x1f\u200b\ufeff\u180ea的"


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.none() | st.text(alphabet=SPACES + NOT_SPACES, max_size=6) | st.text()))
def test_a_blank_reference_is_whitespace_as_strip_chars_sees_it(values: list[str | None]) -> None:
    # The validity test reads "any character other than whitespace" with a regex; it must
    # agree with "non-empty once stripped", the definition it replaced, on every string.
    col = pl.Series("answer", values, dtype=pl.String)
    stripped = (col.str.strip_chars().str.len_chars() > 0).to_list()
    assert col.str.contains(frames.NOT_BLANK).to_list() == stripped
    listed = pl.DataFrame(
        {frames.ANSWER: [values], frames.PRED: ["p"]},
        schema={frames.ANSWER: pl.List(pl.String), frames.PRED: pl.String},
    )
    got = listed.select(frames.valid_expr(pl.List(pl.String))).item()
    assert got == any(ok is True for ok in stripped)  # a list: any accepted reference
