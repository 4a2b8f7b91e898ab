"""Invalid UTF-8 in an Arrow string column is a clear error naming the column and the first bad
row, on every evaluator, through the API and the CLI — never a crash (Polars trusts Arrow
strings: unchecked, one bad byte segfaulted it under accuracy) and never a silent score."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import xpert_frames as xf
from tests.test_cli import run
from xpert_frames.core import utf8
from xpert_frames.core.exceptions import InvalidUTF8Error
from xpert_frames.registry import list_evaluators

EVALUATORS = list_evaluators()


def strings(values: list[bytes | None], dtype: pa.DataType | None = None) -> pa.Array:
    """A string array built from raw bytes, without the UTF-8 check pa.array would make."""
    dtype = pa.string() if dtype is None else dtype
    large = pa.types.is_large_string(dtype)
    offsets, data, valid = [0], b"", []
    for value in values:
        data += value or b""
        offsets.append(len(data))
        valid.append(value is not None)
    offset_buffer = pa.array(offsets, pa.int64() if large else pa.int32()).buffers()[1]
    validity = pa.array(valid).buffers()[1] if None in values else None
    return pa.Array.from_buffers(
        dtype, len(values), [validity, offset_buffer, pa.py_buffer(data)], null_count=-1
    )


def table(bad_row: int = 1, column: str = "prediction", rows: int = 4) -> pa.Table:
    good = [f"答案 {i}".encode() for i in range(rows)]
    broken = list(good)
    broken[bad_row] = b"Paris \xff\xfe"
    cols = {"prediction": strings(good), "answer": strings(good)}
    cols[column] = strings(broken)
    cols["answer_type"] = pa.array(["text", "number", "choice", "judge"] * (rows // 4))
    cols["tcm_eval_type"] = pa.array(["syndrome"] * rows)
    return pa.table(cols)


@pytest.mark.parametrize("name", EVALUATORS)
def test_every_evaluator_refuses_invalid_utf8(name: str) -> None:
    for column, row in (("prediction", 1), ("answer", 3)):
        with pytest.raises(InvalidUTF8Error, match=f"'{column}'.* at row {row} ") as info:
            xf.score(table(row, column), name)
        assert isinstance(info.value, ValueError)
        assert (info.value.column, info.value.row) == (column, row)


def test_every_arrow_kind_is_checked() -> None:
    bad = table(2)
    kinds = [
        bad,
        bad.to_batches()[0],
        pa.RecordBatchReader.from_batches(bad.schema, bad.to_batches()),
    ]
    for kind in kinds:
        with pytest.raises(InvalidUTF8Error, match="at row 2 "):
            xf.score(kind, "fuzzy")


def test_rows_are_counted_over_chunks_and_slices() -> None:
    good = table(0).column("answer").chunk(0)
    bad = strings([b"a", b"b", b"\xc3", b"d"])  # a lead byte without its continuation
    column = pa.chunked_array([good, good.slice(1), bad.slice(1)])
    with pytest.raises(InvalidUTF8Error, match="at row 8 "):
        utf8.check_table(pa.table({"answer": column}))


def test_large_nested_and_split_characters_are_checked() -> None:
    split = "é".encode()  # two rows, each half of one character: the bytes together are UTF-8
    cases = {
        "large": pa.chunked_array([strings([b"ok", b"\xff"], pa.large_string())]),
        "split": pa.chunked_array([strings([split[:1], split[1:]])]),
        "view": pa.chunked_array([strings([b"ok", b"ok", b"\xe4\xb8"]).cast(pa.string_view())]),
    }
    content = strings([b"A", b"\xff"])
    ids = pa.array(["A", "B"])
    choices = pa.StructArray.from_arrays([ids, content], names=["id", "content"])
    cases["choices"] = pa.chunked_array([pa.ListArray.from_arrays(pa.array([0, 1, 2]), choices)])
    cases["dictionary"] = pa.chunked_array(
        [pa.DictionaryArray.from_arrays(pa.array([0, 0, 1]), strings([b"x", b"\xff"]))]
    )
    rows = {"large": 1, "split": 0, "view": 2, "choices": 1, "dictionary": 2}
    for name, column in cases.items():
        with pytest.raises(InvalidUTF8Error, match=f"'{name}'.* at row {rows[name]} "):
            utf8.check_array(name, column)


def test_valid_text_passes_unchanged() -> None:
    good = table(0, rows=8).set_column(
        0, "prediction", pa.array(["é", "答案", "x"] * 2 + ["∞", None])
    )
    # A null row may hold any bytes: Arrow leaves them undefined.
    raw = strings([b"a", b"\xff\xfe", b"c"])
    nulled = pa.Array.from_buffers(
        pa.string(), 3, [pa.array([True, False, True]).buffers()[1], *raw.buffers()[1:]]
    )
    assert utf8.check_table(pa.table({"n": nulled})).num_rows == 3
    out = xf.score(good, "fuzzy")
    assert out.column("prediction").to_pylist() == good.column("prediction").to_pylist()


@pytest.mark.slow
def test_cli_names_column_row_and_file(tmp_path: Path) -> None:
    source = tmp_path / "bad.parquet"
    pq.write_table(pa.concat_tables([table(0), table(3)]), source, row_group_size=4)
    for name in EVALUATORS:
        out = tmp_path / "out" / f"{name}.parquet"
        proc = run("score", str(source), "-e", name, "-o", str(out))
        assert proc.returncode == 2, proc.stderr
        assert "column 'prediction' of" in proc.stderr and "at row 0 " in proc.stderr
        assert str(source) in proc.stderr and "Traceback" not in proc.stderr
        assert not out.exists()
    good = pa.concat_tables([table(0).set_column(0, "prediction", table(0).column("answer"))])
    broken = table(2, "answer")
    pq.write_table(pa.concat_tables([good, broken]), source, row_group_size=4)
    proc = run("score", str(source), "-e", "accuracy", "-o", str(tmp_path / "o.parquet"))
    assert proc.returncode == 2 and "column 'answer'" in proc.stderr
    assert "at row 6 " in proc.stderr, proc.stderr  # counted over row groups


@pytest.mark.slow
def test_arrow_ipc_stream_in_a_fresh_interpreter(tmp_path: Path) -> None:
    """An IPC stream read back (what a notebook gets from another process) fails cleanly in
    a process of its own: no segfault, the error on stderr."""
    path = tmp_path / "bad.arrows"
    bad = table(1)
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_stream(sink, bad.schema) as writer:
        writer.write_table(bad)
    code = (
        "import sys, pyarrow as pa, xpert_frames as xf\n"
        f"reader = pa.ipc.open_stream(pa.OSFile({str(path)!r}))\n"
        "try:\n    xf.score(reader, 'accuracy')\n"
        "except ValueError as exc:\n    print(type(exc).__name__, exc, file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "InvalidUTF8Error column 'prediction'" in proc.stderr and "row 1 " in proc.stderr


def test_pandas_string_without_utf8_form_names_column_and_row() -> None:
    """A lone surrogate (what ``errors="surrogateescape"`` leaves) in a pandas object column is
    refused with the column and row, like invalid bytes in Arrow; valid text passes."""
    pd = pytest.importorskip("pandas")
    good = ["B", "答案是A", None, "🙂"]
    frame = pd.DataFrame(
        {
            "prediction": pd.Series(good, dtype=object),
            "answer": pd.Series(["B", "A", "C", "D"], dtype=object),
            "answer_type": "choice",
        }
    )
    assert len(xf.score(frame, ["accuracy"])) == 4
    bad = frame.assign(prediction=pd.Series(["B", "答案是A", "x\udcffy", None], dtype=object))
    with pytest.raises(InvalidUTF8Error) as info:
        xf.score(bad, ["accuracy"])
    assert info.value.column == "prediction" and info.value.row == 2
    assert "'prediction'" in str(info.value) and "row 2" in str(info.value)


def test_a_large_table_checked_in_threads_names_its_first_bad_column() -> None:
    # From 65,536 rows the columns are checked at once, in threads; the error is still the
    # first bad column's (in column order), at its first bad row.
    rows = 80_000
    bad = table(rows - 5, "answer", rows=rows)
    bad = bad.set_column(0, "prediction", strings([b"ok \xe4\xb8"] * 3 + [b"x"] * (rows - 3)))
    with pytest.raises(InvalidUTF8Error, match=r"'prediction'.* at row 0 "):
        utf8.check_table(bad)
    with pytest.raises(InvalidUTF8Error, match=rf"'answer'.* at row {rows - 5} "):
        utf8.check_table(table(rows - 5, "answer", rows=rows))
    assert utf8.check_table(table(0, "answer", rows=rows).slice(1)).num_rows == rows - 1


@pytest.mark.parametrize("rows", [8, 80_000])  # checked in one thread, and in threads
def test_checked_plain_string_columns_reach_polars_as_views_with_equal_values(rows: int) -> None:
    import polars as pl

    texts = [f"答案 {i}" if i % 3 else None for i in range(rows)]
    given = pa.table(
        {
            "plain": pa.array(texts, pa.string()).slice(1),
            "large": pa.chunked_array(
                [
                    pa.array(texts[: rows // 2], pa.large_string()),
                    pa.array(texts[rows // 2 + 1 :], pa.large_string()),
                ]
            ),
            "view": pa.array(texts[1:], pa.string_view()),
            "listed": pa.array([[t] for t in texts[1:]], pa.list_(pa.string())),
            "n": pa.array(range(rows - 1)),
        }
    )
    checked = utf8.check_for_polars(given)
    kinds = [f.type for f in checked.schema]
    assert kinds == [pa.string_view()] * 3 + [pa.list_(pa.string()), pa.int64()]
    assert checked.to_pylist() == given.to_pylist()
    assert pl.from_arrow(checked).equals(pl.from_arrow(given))
    bad = given.set_column(1, "large", strings([b"ok"] * (rows - 2) + [b"\xff"], pa.large_string()))
    with pytest.raises(InvalidUTF8Error, match=rf"'large'.* at row {rows - 2} "):
        utf8.check_for_polars(bad)
