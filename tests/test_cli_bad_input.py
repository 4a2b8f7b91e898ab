"""Bad input through the real console script: a clear error, exit code 2, nothing written —
or, for valid but unusual input, every row kept."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from tests.test_cli import run
from xpert_frames.api import SAMPLE

pytestmark = pytest.mark.slow  # every test starts the console script


def write(tmp: Path, name: str, df: pl.DataFrame) -> Path:
    path = tmp / name
    df.write_parquet(path)
    return path


def assert_fails(tmp: Path, args: list[str], *messages: str) -> None:
    out = tmp / "out" / "scored.parquet"
    proc = run("score", *args, "-o", str(out))
    assert proc.returncode == 2, proc.stderr
    for message in messages:
        assert message in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()
    assert not (tmp / "out").exists() or list((tmp / "out").iterdir()) == []


def test_missing_column_names_it_lists_present_and_suggests(tmp_path: Path) -> None:
    src = write(tmp_path, "in.parquet", pl.DataFrame({"predicton": ["a"], "answer": ["a"]}))
    assert_fails(
        tmp_path,
        [str(src), "-e", "fuzzy"],
        "'prediction'",
        "['predicton', 'answer']",
        "Did you mean 'predicton'",
    )


def test_wrong_dtype_is_rejected_with_a_cast_hint(tmp_path: Path) -> None:
    src = write(tmp_path, "in.parquet", pl.DataFrame({"prediction": [1, 2], "answer": ["1", "2"]}))
    assert_fails(tmp_path, [str(src), "-e", "fuzzy"], "must be a string column, got Int64", "cast")


def test_unknown_option_and_wrong_type(tmp_path: Path) -> None:
    src = write(tmp_path, "in.parquet", pl.DataFrame({"prediction": ["a"], "answer": ["a"]}))
    assert_fails(tmp_path, [str(src), "-e", "fuzzy:normalise=case"], "Did you mean 'normalize'")
    assert_fails(tmp_path, [str(src), "-e", "fuzzy:threshold=high"], "must be a number")
    assert_fails(tmp_path, [str(src), "-e", "fuzzy:normalize=cases"], "Did you mean 'case'")


def test_malformed_nested_reference(tmp_path: Path) -> None:
    not_struct = write(
        tmp_path, "a.parquet", pl.DataFrame({"prediction": ["a"], "reference": ["just text"]})
    )
    assert_fails(tmp_path, [str(not_struct), "-e", "fuzzy"], "'reference'", "struct")


def test_nested_reference_with_missing_values_keeps_rows(tmp_path: Path) -> None:
    df = pl.DataFrame(
        {
            "prediction": ["北京", "x", "y"],
            "reference": [{"answer": {"value": "北京"}}, {"answer": None}, None],
        }
    )
    src = write(tmp_path, "in.parquet", df)
    out = tmp_path / "scored.parquet"
    proc = run(
        "score", str(src), "-o", str(out), "-e", "fuzzy", "--report", str(tmp_path / "r.json")
    )
    assert proc.returncode == 0, proc.stderr
    assert pl.read_parquet(out)["fuzzy_score"].to_list() == [1.0, None, None]
    rows = json.loads((tmp_path / "r.json").read_text())["report"]
    assert rows[0]["count"] == 1 and rows[0]["skipped"] == 2


def test_all_null_prediction_column(tmp_path: Path) -> None:
    df = pl.DataFrame(
        {"prediction": [None, None], "answer": ["a", "b"]},
        schema={"prediction": pl.String, "answer": pl.String},
    )
    src = write(tmp_path, "in.parquet", df)
    out = tmp_path / "scored.parquet"
    proc = run("score", str(src), "-o", str(out), "-e", "fuzzy")
    assert proc.returncode == 0, proc.stderr
    assert "2 skipped" in proc.stdout


@pytest.mark.parametrize("damage", ["truncate", "garbage"])
def test_unreadable_parquet(tmp_path: Path, damage: str) -> None:
    src = write(
        tmp_path, "in.parquet", pl.DataFrame({"prediction": ["a"] * 100, "answer": ["b"] * 100})
    )
    data = src.read_bytes()
    src.write_bytes(data[: len(data) // 2] if damage == "truncate" else b"not parquet at all")
    assert_fails(tmp_path, [str(src), "-e", "fuzzy"], "cannot read Parquet file", "in.parquet")


def test_empty_input_gives_empty_output_and_zero_count(tmp_path: Path) -> None:
    df = pl.DataFrame(schema={"prediction": pl.String, "answer": pl.String})
    src = write(tmp_path, "in.parquet", df)
    out = tmp_path / "scored.parquet"
    rep = tmp_path / "report.json"
    proc = run("score", str(src), "-o", str(out), "-e", "fuzzy", "--report", str(rep))
    assert proc.returncode == 0, proc.stderr
    assert pl.read_parquet(out).height == 0
    assert [r["count"] for r in json.loads(rep.read_text())["report"]] == [0, 0]


def test_huge_strings_and_astral_characters_are_kept(tmp_path: Path) -> None:
    """A pair past the fuzzy cap (product of lengths over 10**10 cells) keeps its row and text,
    scores null and is named in a warning; the 100,000-code-point pair under it is scored."""
    big = "人工智能😀" * 200_000  # 1,000,000 code points: 10**12 cells with its reference
    mid = big[:100_000]  # 10**10 cells: at the cap, scored
    df = pl.DataFrame(
        {
            "prediction": [big, mid, "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀🀄", "abc"],
            "answer": [big[:-1] + "x", mid[:-1] + "x", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀", "abd"],
        }
    )
    src = write(tmp_path, "in.parquet", df)
    out = tmp_path / "scored.parquet"
    proc = run("score", str(src), "-o", str(out), "-e", "fuzzy", "--row-id", "")
    assert proc.returncode == 0, proc.stderr
    scored = pl.read_parquet(out)
    assert_frame_equal(scored.select(df.columns), df)
    assert scored["fuzzy_score"].to_list() == [None, 1 - 1 / 100_000, 1 - 1 / 10, 1 - 1 / 3]
    assert "1 pair(s) not scored" in proc.stderr


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_invalid_utf8_is_reported_with_file_and_line(tmp_path: Path, suffix: str) -> None:
    src = tmp_path / f"in{suffix}"
    if suffix == ".csv":
        src.write_bytes(b"prediction,answer\nok,ok\nbad \xff\xfe here,x\n")
        line = 3
    else:
        src.write_bytes(
            b'{"prediction": "ok", "answer": "ok"}\n{"prediction": "\xc3\x28", "answer": "x"}\n'
        )
        line = 2
    assert_fails(tmp_path, [str(src), "-e", "fuzzy"], f"in{suffix}:{line}:", "invalid UTF-8")


def test_xperteval_jsonl_records(tmp_path: Path) -> None:
    src = tmp_path / "records.jsonl"
    records = [
        {"id": 1, "response": "北京", "answer": {"type": "text", "value": "北京"}, "meta": {}},
        {"id": 2, "response": None, "answer": {"type": "text", "value": "上海"}},
        {
            "id": 3,
            "response": "42",
            "answer": {"type": "number", "value": 42},
            "choices": [{"id": "A", "content": "42"}],
        },
    ]
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n")
    out = tmp_path / "scored.parquet"
    proc = run("score", str(src), "-o", str(out), "-e", "fuzzy", "--prediction", "response")
    assert proc.returncode == 0, proc.stderr
    scored = pl.read_parquet(out)
    # the records carry answer types: fuzzy scores the text rows only
    assert scored["fuzzy_score"].to_list() == [1.0, None, None]
    assert scored["fuzzy_applicable"].to_list() == [True, True, False]
    assert scored["id"].to_list() == [1, 2, 3]
    every = tmp_path / "every.parquet"
    args = ["-e", "fuzzy", "--prediction", "response", "--all-rows", "-q"]
    assert run("score", str(src), "-o", str(every), *args).returncode == 0
    assert pl.read_parquet(every)["fuzzy_score"].to_list() == [1.0, None, 1.0]


def test_missing_input_and_mixed_kinds(tmp_path: Path) -> None:
    assert_fails(tmp_path, [str(tmp_path / "nope.parquet"), "-e", "fuzzy"], "does not exist")
    a = write(tmp_path, "a.parquet", pl.DataFrame({"prediction": ["a"], "answer": ["a"]}))
    b = tmp_path / "b.csv"
    b.write_text("prediction,answer\na,a\n")
    assert_fails(tmp_path, [str(a), str(b), "-e", "fuzzy"], "mix file kinds")


def test_directory_and_glob_inputs_keep_file_order(tmp_path: Path) -> None:
    parts = tmp_path / "parts"
    parts.mkdir()
    for i in range(3):
        write(parts, f"part-{i}.parquet", pl.DataFrame({"prediction": [f"p{i}"], "answer": ["p0"]}))
    for source in (str(parts), str(parts / "*.parquet")):
        out = tmp_path / "scored.parquet"
        proc = run("score", source, "-o", str(out), "-e", "fuzzy")
        assert proc.returncode == 0, proc.stderr
        scored = pl.read_parquet(out)
        assert scored["prediction"].to_list() == ["p0", "p1", "p2"]
        assert scored["row_id"].to_list() == [0, 1, 2]


# --------------------------------------------------------------------------- nothing overwritten
def snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() if p.exists() else b"" for p in sorted(directory.iterdir())}


@pytest.mark.parametrize(
    "case", ["output_is_input", "report_is_input", "report_is_output", "symlink", "csv_output"]
)
def test_refused_paths_touch_nothing(tmp_path: Path, case: str) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text('{"prediction": "a", "answer": "a"}\n')
    csv = tmp_path / "in.csv"
    csv.write_text("prediction,answer\na,a\n")
    (tmp_path / "link.jsonl").symlink_to(src)
    (tmp_path / "r.json").symlink_to(tmp_path / "o.parquet")  # dangling: o.parquet is not there
    before = snapshot(tmp_path)
    args = {
        "output_is_input": [str(src), "-o", str(src)],
        "report_is_input": [str(csv), "-o", str(tmp_path / "o.parquet"), "--report", str(csv)],
        # the two names differ only through a link; the extensions are checked too
        "report_is_output": [
            str(src),
            "-o",
            str(tmp_path / "o.parquet"),
            "--report",
            str(tmp_path / "r.json"),
        ],
        "symlink": [str(tmp_path / "link.jsonl"), "-o", str(src)],
        "csv_output": [str(src), "-o", str(tmp_path / "x.csv")],
    }[case]
    proc = run("score", *args, "-e", "fuzzy")
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "error" in proc.stderr.lower()
    assert snapshot(tmp_path) == before  # nothing written, nothing replaced, no temp file


def write_lines(path: Path, rows: list[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize(
    ("lines", "where", "what"),
    [
        ([{"prediction": "a", "answer": "a"}, {"prediction": "b", "answer": True}], 2, "boolean"),
        ([{"prediction": "a", "answer": 1}, {"prediction": "b", "answer": {"k": 1}}], 2, "object"),
        ([{"prediction": "a", "answer": 1.5}, {"prediction": "b", "answer": False}], 2, "boolean"),
    ],
)
def test_jsonl_kinds_that_cannot_share_a_column_are_refused(
    tmp_path: Path, lines: list[object], where: int, what: str
) -> None:
    src = write_lines(tmp_path / "in.jsonl", lines)
    proc = run("score", str(src), "-o", str(tmp_path / "o.parquet"), "-e", "fuzzy", "-q")
    assert proc.returncode == 2, proc.stderr
    assert f"{src}:{where}:" in proc.stderr and what in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "o.parquet").exists()


def test_line_errors_name_file_and_line(tmp_path: Path) -> None:
    bad_json = tmp_path / "bad.jsonl"
    bad_json.write_text('{"prediction": "a", "answer": "b"}\n\n{"prediction": "c", answer}\n')
    proc = run("score", str(bad_json), "-o", str(tmp_path / "o.parquet"), "-e", "fuzzy")
    assert proc.returncode == 2 and f"{bad_json}:3:" in proc.stderr, proc.stderr
    ragged = tmp_path / "bad.csv"
    ragged.write_text("prediction,answer\na,b\nc,d\ne,f,g\n")
    proc = run("score", str(ragged), "-o", str(tmp_path / "o.parquet"), "-e", "fuzzy")
    assert proc.returncode == 2 and f"{ragged}:4:" in proc.stderr, proc.stderr


def test_cli_duplicate_names_and_reports_without_scores(tmp_path: Path) -> None:
    src = tmp_path / "in.parquet"
    pl.DataFrame({"prediction": ["a"], "answer": ["a"]}).write_parquet(src)
    out = tmp_path / "out.parquet"
    proc = run("score", str(src), "-o", str(out), "-e", "fuzzy", "-e", "fuzzy:threshold=0.5")
    assert (
        proc.returncode == 2 and "different name" in proc.stderr and "Traceback" not in proc.stderr
    )
    proc = run("report", str(src))
    assert (
        proc.returncode == 2
        and "no score columns" in proc.stderr
        and "Traceback" not in proc.stderr
    )


def test_repeated_option_key_is_an_error(tmp_path: Path) -> None:
    out = tmp_path / "scored.parquet"
    proc = run("score", str(SAMPLE), "-o", str(out), "-e", "fuzzy:threshold=0.5,threshold=0.9")
    assert proc.returncode == 2
    assert "option 'threshold' given twice" in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("values", "ok"),
    [(["a", "b"], False), ([0.5, 1.5], False), ([7, 9], True)],
)
def test_row_id_must_be_integers_when_present(tmp_path: Path, values: list, ok: bool) -> None:
    src = tmp_path / "in.parquet"
    frame = pl.DataFrame({"prediction": ["a", "b"], "answer": ["a", "c"], "key": values})
    frame.write_parquet(src)
    out = tmp_path / "out.parquet"
    proc = run("score", str(src), "-o", str(out), "-e", "fuzzy", "--row-id", "key", "-q")
    if ok:
        assert proc.returncode == 0, proc.stderr
        assert pl.read_parquet(out)["key"].to_list() == values  # kept as is
    else:
        assert proc.returncode == 2
        assert "column 'key' is in the input as" in proc.stderr and "not integers" in proc.stderr
        assert not out.exists()
