"""TCM synonym tables: data files, loading and validation.

A table maps each *synonym* (a surface form found in text) to one *canonical* term and tags each
canonical term with a *category*. Two tables ship in ``xpert_frames/data/``:

- ``tcm_terms_seed.csv``: the XpertEval seed's ``tcm_synonyms`` exactly (9 canonical terms);
- ``tcm_terms_default.csv``: a curated table of standard syndrome names (categories ``basic``,
  ``organ``, ``pathogen``) and a few treatment principles (category ``treatment``).

The category ``treatment`` is special: those terms take part in normalization but are never
extracted as syndromes. Every other category is a syndrome category.

Rules checked when a table is loaded: the columns ``canonical`` and ``synonym`` are required,
``category`` (if absent or null: the category the canonical term has elsewhere in the merged
table, else ``"syndrome"``) and ``note`` (ignored, documentation only) are optional;
values are non-empty strings; a synonym mapped to two different canonical terms is an error
naming both; a canonical term has one category. Each canonical term is also a synonym of itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import polars as pl

from xpert_frames.core.exceptions import OptionTypeError, TermTableError

BUILTIN = ("default", "seed")
TREATMENT = "treatment"
DEFAULT_CATEGORY = "syndrome"
#: Characters the evaluator uses as term markers; not allowed inside terms.
RESERVED = ("\x02", "\x03")
_COLUMNS = ("canonical", "synonym", "category", "note")


@dataclass(frozen=True)
class TermTable:
    """A validated synonym table: sorted ``(canonical, synonym, category or None)`` rows."""

    source: str
    rows: tuple[tuple[str, str, str | None], ...]

    def __repr__(self) -> str:
        return (
            f"TermTable({self.source!r}, canonical={len(self.categories)}, "
            f"synonyms={len(self.rows)})"
        )

    @cached_property
    def mapping(self) -> dict[str, str]:
        """synonym -> canonical."""
        return {syn: canon for canon, syn, _ in self.rows}

    @cached_property
    def categories(self) -> dict[str, str]:
        """canonical -> category (``"syndrome"`` where none was given)."""
        return {canon: cat or DEFAULT_CATEGORY for canon, _, cat in self.rows}

    def is_syndrome(self, canonical: str) -> bool:
        return self.categories[canonical] != TREATMENT

    def merge(self, other: TermTable) -> TermTable:
        """This table extended by ``other``; contradictions are errors naming both sides."""
        return _build(f"{self.source}+{other.source}", [*self.rows, *other.rows])


def builtin_path(name: str) -> Path:
    """Path of a shipped table (``"default"`` or ``"seed"``)."""
    return Path(str(resources.files("xpert_frames") / "data" / f"tcm_terms_{name}.csv"))


def load_terms(spec: Any, *, option: str = "terms") -> TermTable:
    """A :class:`TermTable` from ``"default"``, ``"seed"``, a CSV/Parquet path, a Polars
    DataFrame, a ``{canonical: [synonyms]}`` dict, or a :class:`TermTable`."""
    if isinstance(spec, TermTable):
        return spec
    if isinstance(spec, str) and spec in BUILTIN:
        return _from_frame(_read_csv(builtin_path(spec)), spec, option)
    if isinstance(spec, str | Path):
        path = Path(spec)
        suffix = path.suffix.lower()
        if suffix not in (".csv", ".parquet"):
            raise TermTableError(
                f"option {option!r}: expected 'default', 'seed' or a .csv/.parquet path, "
                f"got {str(spec)!r}"
            )
        if not path.is_file():
            raise FileNotFoundError(f"option {option!r}: no such table file: {str(path)!r}")
        frame = _read_csv(path) if suffix == ".csv" else pl.read_parquet(path)
        return _from_frame(frame, str(path), option)
    if isinstance(spec, pl.DataFrame):
        return _from_frame(spec, "custom", option)
    if isinstance(spec, Mapping):
        return _from_mapping(spec, option)
    raise OptionTypeError(
        f"option {option!r} must be 'default', 'seed', a CSV/Parquet path, a Polars DataFrame "
        f"with columns canonical, synonym[, category] or a dict {{canonical: [synonyms]}}, "
        f"got {type(spec).__name__}"
    )


def _read_csv(path: Path) -> pl.DataFrame:
    return pl.read_csv(path, infer_schema=False)


def _from_mapping(spec: Mapping[Any, Any], option: str) -> TermTable:
    rows: list[tuple[Any, Any, Any]] = []
    for canonical, synonyms in spec.items():
        if isinstance(synonyms, str) or not isinstance(synonyms, Sequence | set | frozenset):
            raise OptionTypeError(
                f"option {option!r}: dict values must be lists of synonyms, e.g. "
                f"{{'气虚': ['气不足', '气虚证']}}; got {synonyms!r} for {canonical!r}"
            )
        rows.append((canonical, canonical, None))
        rows.extend((canonical, syn, None) for syn in synonyms)
    return _build("custom", rows, option)


def _from_frame(frame: pl.DataFrame, source: str, option: str) -> TermTable:
    missing = [c for c in ("canonical", "synonym") if c not in frame.columns]
    unknown = [c for c in frame.columns if c not in _COLUMNS]
    if missing or unknown:
        raise TermTableError(
            f"option {option!r}: a table needs columns canonical, synonym and optionally "
            f"category, note; got {frame.columns} (missing {missing}, unknown {unknown})"
        )
    for column in ("canonical", "synonym", "category"):
        if column in frame.columns and frame[column].dtype not in (pl.String, pl.Null):
            raise TermTableError(
                f"option {option!r}: column {column!r} must be text, got {frame[column].dtype}"
            )
    category = frame["category"] if "category" in frame.columns else [None] * frame.height
    rows = list(zip(frame["canonical"], frame["synonym"], category, strict=True))
    return _build(source, rows, option)


def _clean(value: Any, what: str, row: int, option: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise TermTableError(
            f"option {option!r}: row {row}: {what} must be a non-empty string, got {value!r}"
        )
    if any(ch in value for ch in RESERVED):
        raise TermTableError(
            f"option {option!r}: row {row}: {what} {value!r} contains a reserved control "
            "character (\\x02 or \\x03)"
        )
    return value.strip()


def _build(source: str, raw: Sequence[tuple[Any, Any, Any]], option: str = "terms") -> TermTable:
    """Validate rows. A null category (a dict, or a frame without the column) takes the
    category the same canonical term has elsewhere, else ``"syndrome"``."""
    to_canonical: dict[str, str] = {}
    category_of: dict[str, str] = {}
    for i, (canon, syn, cat) in enumerate(raw):
        canon = _clean(canon, "canonical", i, option)
        syn = _clean(syn, "synonym", i, option)
        if cat is not None:
            cat = _clean(cat, "category", i, option)
            if category_of.setdefault(canon, cat) != cat:
                raise TermTableError(
                    f"option {option!r}: canonical term {canon!r} has two categories: "
                    f"{category_of[canon]!r} and {cat!r}"
                )
        for surface in (canon, syn):  # a canonical term is a synonym of itself
            if to_canonical.setdefault(surface, canon) != canon:
                raise TermTableError(
                    f"option {option!r}: synonym {surface!r} is mapped to two different "
                    f"canonical terms: {to_canonical[surface]!r} and {canon!r}"
                )
    # Unspecified categories stay None here (resolved by ``categories``) so that a later merge
    # can still give them the category of the table they extend.
    rows = tuple(sorted((c, s, category_of.get(c, "")) for s, c in to_canonical.items()))
    return TermTable(source, tuple((c, s, cat or None) for c, s, cat in rows))
