"""The errors xpert_frames raises on purpose: one hierarchy under :class:`XpertFramesError`.

Each error also subclasses the builtin a Python programmer would expect (``KeyError`` for a
missing column, ``TypeError`` for a wrong type, ``ValueError`` for a wrong value), so
``except ValueError`` keeps working, and ``except XpertFramesError`` catches every error the
package raises about its input. Messages say what was expected, what came, and a hint (often
"did you mean ...").

The classes are defined in :mod:`xpert_frames.core.exceptions` (the lowest layer, so that every
module can raise them) and are public here.

Examples
--------
>>> import polars as pl
>>> import xpert_frames as xf
>>> from xpert_frames.exceptions import ColumnNotFoundError, XpertFramesError
>>> try:
...     xf.score(pl.DataFrame({"response": ["B"], "answer": ["B"]}), "accuracy")
... except ColumnNotFoundError as error:
...     print(isinstance(error, KeyError), isinstance(error, XpertFramesError), error.column)
True True prediction
"""

from __future__ import annotations

from xpert_frames.core.exceptions import (
    ColumnNotFoundError,
    ColumnTypeError,
    ConfigurationError,
    DuplicateColumnError,
    DuplicateEvaluatorError,
    EmptyInputError,
    EvaluatorTypeError,
    FrameTypeError,
    InputError,
    InvalidOptionError,
    InvalidUTF8Error,
    NoScoresError,
    OptionTypeError,
    TermTableError,
    UnknownEvaluatorError,
    XpertFramesError,
)

__all__ = [
    "ColumnNotFoundError",
    "ColumnTypeError",
    "ConfigurationError",
    "DuplicateColumnError",
    "DuplicateEvaluatorError",
    "EmptyInputError",
    "EvaluatorTypeError",
    "FrameTypeError",
    "InputError",
    "InvalidOptionError",
    "InvalidUTF8Error",
    "NoScoresError",
    "OptionTypeError",
    "TermTableError",
    "UnknownEvaluatorError",
    "XpertFramesError",
]
