"""Errors that say what was expected, what came, and a hint. Each subclasses a builtin."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """Return ``" Did you mean 'x'?"`` for the closest candidate, or ``""``."""
    matches = difflib.get_close_matches(str(name), list(candidates), n=1, cutoff=0.5)
    return f" Did you mean {matches[0]!r}?" if matches else ""


class XpertFramesError(Exception):
    """Base class of every error raised on purpose by xpert_frames."""

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return str(self.args[0]) if self.args else ""


class ColumnNotFoundError(XpertFramesError, KeyError):
    """A required column is missing from the input table."""

    def __init__(
        self, column: str, role: str, present: Iterable[str], *, hint: str | None = None
    ) -> None:
        present = list(present)
        msg = (
            f"column {column!r} ({role}) not found; columns present: {present}."
            f"{did_you_mean(column, present)}"
            f" {hint if hint is not None else f'Map it with {role}=<column name>.'}"
        )
        super().__init__(msg)
        self.column = column


class ColumnTypeError(XpertFramesError, TypeError):
    """A column has a data type the evaluator cannot score."""

    def __init__(
        self, column: str, role: str, expected: str, received: object, hint: str = ""
    ) -> None:
        msg = f"column {column!r} ({role}) must be {expected}, got {received}."
        if hint:
            msg += f" {hint}"
        super().__init__(msg)
        self.column = column


class DuplicateColumnError(XpertFramesError, ValueError):
    """Scoring would overwrite a column that is already in the input."""


class NoScoresError(XpertFramesError, ValueError):
    """A report was asked of a table without score columns."""


class UnknownEvaluatorError(XpertFramesError, ValueError):
    """No evaluator is registered under this name."""


class DuplicateEvaluatorError(XpertFramesError, ValueError):
    """An evaluator is already registered under this name."""


class InvalidOptionError(XpertFramesError, ValueError):
    """An evaluator option has a value outside its allowed range or set."""


class OptionTypeError(XpertFramesError, TypeError):
    """An evaluator option has the wrong type, or is not an option at all."""


class InputError(XpertFramesError, ValueError):
    """An input path that cannot be read: missing, unsupported, or corrupt."""


class TermTableError(InvalidOptionError):
    """A synonym table is malformed or contradicts itself."""


class ConfigurationError(XpertFramesError, ValueError):
    """The scoring configuration is unknown, unreadable or contradictory where it matters."""


class InvalidUTF8Error(XpertFramesError, ValueError):
    """An Arrow string column holds bytes that are not UTF-8 (checked where Arrow data enters,
    before Polars reads it)."""

    def __init__(self, column: str, row: int, dtype: str, *, source: str = "") -> None:
        where = f" of {source}" if source else ""
        msg = (
            f"column {column!r}{where} ({dtype}) must hold UTF-8 text, got invalid UTF-8 (or "
            f"inconsistent string buffers) at row {row} (0-based, the first such row). Hint: "
            "decode the source with its real encoding and write it as UTF-8, or pass the "
            "column as binary and decode it with errors='replace'."
        )
        super().__init__(msg)
        self.column = column
        self.row = row


# Errors added when the hierarchy became public (xpert_frames.exceptions re-exports each).
class EmptyInputError(XpertFramesError, ValueError):
    """Nothing to work on: no evaluators given, no models to compare, or no rows and no known
    schema."""


class EvaluatorTypeError(XpertFramesError, TypeError):
    """Something given as an evaluator is not one (not a ``BaseEvaluator`` subclass or
    instance, or a name that is not a string), or an evaluator breaks the evaluator contract."""


class FrameTypeError(XpertFramesError, TypeError):
    """The input is not a table xpert_frames reads (Polars, pandas, or an Arrow stream)."""
