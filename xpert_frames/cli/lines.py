"""Line formats (JSONL, CSV) read as users wrote them, or refused naming ``file:line``.

Polars infers one type per JSONL column; where lines disagree it falls back to text and writes
lists, objects and booleans as JSON text (``["x", "y"]`` becomes that string, then scores 0),
or fails without naming a line (a number and a boolean). Here a JSONL file is first read by
Polars; only when a text column holds values that may have been JSON containers or booleans
(or Polars fails) are the lines read once more with ``json`` to learn each value's kind:

* strings and numbers (and nulls): read as text, as Polars does;
* lists mixed with strings or numbers: several references per line, a scalar being one;
* booleans or objects mixed with anything else: refused, naming the first line that differs.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from typing import Any

import polars as pl

from xpert_frames.core.exceptions import InputError

_SUSPECT = ("[", "{")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "list" if isinstance(value, list) else "object"


def _records(name: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of every non-blank line; a line that is not a JSON object is an
    error naming it."""
    with open(name, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(
                    f"{name}:{number}: invalid JSON at column {exc.colno}: {exc.msg}"
                ) from None
            if not isinstance(obj, dict):
                raise InputError(
                    f"{name}:{number}: expected one JSON object per line, got {_kind(obj)}"
                )
            yield number, obj


def _kinds(name: str, columns: list[str] | None) -> dict[str, list[tuple[int, str]]]:
    """Per column (all when ``columns`` is None): (line, kind) of its non-null values."""
    out: dict[str, list[tuple[int, str]]] = {}
    for number, obj in _records(name):
        for column, value in obj.items():
            if columns is None or column in columns:
                kind = _kind(value)
                if kind != "null":
                    out.setdefault(column, []).append((number, kind))
    return out


def _check_kinds(name: str, column: str, kinds: list[tuple[int, str]]) -> bool:
    """Whether ``column`` must be read as lists; raise where its lines cannot agree."""
    seen = {k for _, k in kinds}
    if len(seen) <= 1 or seen <= {"string", "number"}:
        return False
    if seen <= {"string", "number", "list"}:
        return True
    first_line, first = kinds[0]
    alone = {"boolean", "object"}  # kinds that cannot share a column with another kind
    line, other = next((n, k) for n, k in kinds if k != first and (k in alone or first in alone))

    def a(kind: str) -> str:
        return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"

    raise InputError(
        f"{name}:{line}: column {column!r} holds {a(other)} here but {a(first)} on line "
        f"{first_line}; a column holds text, numbers or lists of them, or else one kind of "
        "value throughout: fix the line or convert the column"
    )


#: A JSON object key with its colon (an escaped quote cannot end the string), once spaces
#: before colons are removed.
_KEY = r'"(?:[^"\\]|\\.)*":'


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen.add(key)
    return dict(pairs)


class _DuplicateKey(Exception):
    pass


def check_duplicate_keys(name: str) -> None:
    """Refuse an object that names a key twice (Polars would keep one value silently), naming
    the line and the key. Polars finds the lines where a key-like string repeats (a superset:
    a nested object may repeat a key of its parent); only those are parsed with ``json``."""
    lines = pl.scan_lines(name, name="text", row_index_name="number", row_index_offset=1)
    keys = pl.col("text").str.replace_all(r'"\s+:', '":').str.extract_all(_KEY)
    suspects = lines.filter(keys.list.n_unique() < keys.list.len()).collect(engine="streaming")
    for number, text in suspects.select("number", "text").iter_rows():
        try:
            json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
        except _DuplicateKey as dup:
            raise InputError(
                f"{name}:{number}: key {dup.args[0]!r} appears twice in one object; a column "
                "name must be unique: rename or drop one"
            ) from None
        except ValueError:  # invalid JSON: reported with its line by the reader
            continue


def check_csv_header(name: str, separator: str) -> None:
    """Refuse a header that names a column twice (Polars would rename the second silently)."""
    with open(name, newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle, delimiter=separator), None) or []
    seen: set[str] = set()
    for column in header:
        if column in seen:
            raise InputError(
                f"{name}:1: column {column!r} appears twice in the header; a column name must "
                "be unique: rename or drop one"
            )
        seen.add(column)


def scan_csv(name: str, separator: str) -> pl.LazyFrame:
    """One CSV/TSV file as text columns, its header checked for repeated names."""
    check_csv_header(name, separator)
    return pl.scan_csv(name, separator=separator, infer_schema=False)


def scan_jsonl(name: str) -> pl.LazyFrame:
    """One JSONL file, its values read per line as written (see module docs); an object that
    names a key twice is refused."""
    check_duplicate_keys(name)
    lf = pl.scan_ndjson(name, infer_schema_length=None)
    try:
        schema = lf.collect_schema()
        texts = [c for c, t in schema.items() if t == pl.String]
        # Read once: a container or boolean column fails here if some line holds another kind.
        others = [c for c, t in schema.items() if t.is_nested() or t == pl.Boolean]
        flags = lf.select(
            *(
                (
                    pl.col(c).str.starts_with(_SUSPECT[0])
                    | pl.col(c).str.starts_with(_SUSPECT[1])
                    | pl.col(c).is_in(["true", "false"])
                )
                .any()
                .alias(c)
                for c in texts
            ),
            *(pl.col(c).null_count().alias(c) for c in others),
        ).collect()
        suspect = [c for c in texts if flags[c].item()]
    except pl.exceptions.PolarsError as exc:
        # Polars could not read it: find the line (syntax, or kinds it cannot reconcile).
        for column, found in _kinds(name, None).items():
            _check_kinds(name, column, found)
        raise InputError(f"cannot read JSONL file {name!r}: {exc}") from None
    if not suspect:
        return lf
    kinds = _kinds(name, suspect)
    listed = [c for c in suspect if _check_kinds(name, c, kinds.get(c, []))]
    if not listed:
        return lf
    rows = [number for number, _ in _records(name)]
    exprs = []
    for column in listed:
        is_list = {n for n, k in kinds[column] if k == "list"}
        mask = pl.Series([n in is_list for n in rows], dtype=pl.Boolean)
        col = pl.col(column)
        exprs.append(
            pl.when(pl.lit(mask))
            .then(col.str.json_decode(pl.List(pl.String)))
            .otherwise(pl.concat_list(col))
            .alias(column)
        )
    return lf.with_columns(exprs)


def check_csv(name: str, separator: str) -> None:
    """Refuse a CSV row whose number of fields differs from the header's, naming its line."""
    with open(name, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle, delimiter=separator)
        header = next(reader, None)
        if header is None:
            return
        for row in reader:
            if row and len(row) != len(header):
                raise InputError(
                    f"{name}:{reader.line_num}: {len(row)} fields where the header has "
                    f"{len(header)}; quote fields that contain {separator!r}"
                )


def diagnose(paths: list[str], separator: str = ",") -> None:
    """After Polars failed on line-format inputs: raise the error naming ``file:line`` when a
    line is the cause (invalid JSON, kinds a column cannot hold, ragged CSV rows)."""
    for name in paths:
        if name.lower().endswith((".csv", ".tsv")):
            check_csv(name, "\t" if name.lower().endswith(".tsv") else separator)
        else:
            for column, kinds in _kinds(name, None).items():
                _check_kinds(name, column, kinds)
