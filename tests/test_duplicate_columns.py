"""A column named twice in a CSV header or a JSONL object is an error naming it and its line;
Polars alone would rename the second CSV column or keep one JSON value silently."""

from __future__ import annotations

from pathlib import Path

import pytest

from xpert_frames.cli import files
from xpert_frames.cli.main import main
from xpert_frames.core.exceptions import InputError


@pytest.mark.parametrize("separator", [",", "\t"])
def test_a_csv_header_naming_a_column_twice_is_refused(tmp_path: Path, separator: str) -> None:
    path = tmp_path / ("in.csv" if separator == "," else "in.tsv")
    path.write_text(
        separator.join(["prediction", "answer", "answer"]) + "\na,a,b\n".replace(",", separator)
    )
    with pytest.raises(InputError, match=r"in\.[ct]sv:1: column 'answer' appears twice"):
        files.scan([path])
    assert main(["score", str(path), "-o", str(tmp_path / "o.parquet"), "-e", "fuzzy", "-q"]) == 2
    assert not (tmp_path / "o.parquet").exists()


@pytest.mark.parametrize(
    "line",
    [
        '{"prediction": "a", "answer": "a", "answer": "b"}',
        '{"prediction": "a", "answer" : "a", "answer":"b"}',
        '{"prediction": "a", "answer": "a", "meta": {"k": 1, "k": 2}}',
    ],
)
def test_a_jsonl_object_naming_a_key_twice_is_refused(tmp_path: Path, line: str) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text('{"prediction": "x", "answer": "x"}\n\n' + line + "\n")
    with pytest.raises(InputError, match=r"in\.jsonl:3: key '(answer|k)' appears twice"):
        files.scan([path])
    assert main(["score", str(path), "-o", str(tmp_path / "o.parquet"), "-e", "fuzzy", "-q"]) == 2


def test_keys_repeated_only_across_nesting_levels_or_inside_text_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(
        '{"prediction": "a", "answer": "a", "meta": {"answer": "z"}, '
        '"note": "say \\"answer\\": 1"}\n'
    )
    frame = files.scan([path]).collect()
    assert frame["answer"].to_list() == ["a"] and frame["meta"].struct.field("answer")[0] == "z"
