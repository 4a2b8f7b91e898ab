"""Clock times and ratios written with a colon: ``1:00`` is not ``12:00`` (the number reader
sees ``00`` in both), and ``12:1`` is the ratio 12.

:func:`colon_equal_of` reads a reference that is one ``H:MM[:SS]`` clock time (minutes of two
digits) or one ``a:b`` ratio, and the prediction's answer (its last ``\\boxed{}``, else its last
clock time or number in its last 200 characters): a clock equals the same clock (hours and
minutes as written, a trailing am/pm ignored); a ratio equals the same ratio or the number
``a/b``. Other references are not read (null)."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

import polars as pl

from xpert_frames.evaluators.math_answer.worded import last_box

_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(?:[ap]\.?\s*m\.?)?$", re.I)
_RATIO = re.compile(r"^(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)$")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
_CLOCK_IN = re.compile(r"(?<![\d:])(\d{1,2}:\d{2}(?::\d{2})?)(?![\d:])")
_NUMBER_IN = re.compile(r"(?<![\d.])(-?\d+(?:\.\d+)?)(?![\d.])")
#: A reference that may be a clock time or a ratio (the screen, every row).
SCREEN = r"^\s*\$?\s*(?:\\boxed\{)?\s*\d+(?:\.\d+)?\s*:\s*\d"


def _plain(text: str) -> str:
    text = text.replace("\\text", "").replace("\\mathrm", "").replace("$", "")
    return re.sub(r"[{}\s]+", " ", text).strip(" .")


def colon_equal_of(prediction: str, reference: str) -> bool | None:
    """Whether the prediction states the reference's clock time or ratio (module docs); None
    when the reference is neither."""
    box = last_box(reference)
    ref = _plain(box if box is not None else reference)
    clock, ratio = _CLOCK.match(ref), _RATIO.match(ref)
    if ratio and len(ratio.group(2)) == 2 and "." not in ratio.group(0):
        ratio = None  # H:MM is a clock time
    if not clock and not ratio:
        return None
    box = last_box(prediction)
    said = _plain(box) if box is not None else None
    if clock:
        if said is None:
            found = _CLOCK_IN.findall(prediction[-200:])
            said = found[-1] if found else ""
        got = _CLOCK.match(said)
        if not got:
            return False
        return [int(g or 0) for g in got.groups()] == [int(g or 0) for g in clock.groups()]
    if ratio is None or not float(ratio.group(2)):
        return None
    want = Fraction(ratio.group(1)) / Fraction(ratio.group(2))
    if said is None:
        found = _NUMBER_IN.findall(prediction[-200:])
        said = found[-1] if found else ""
    pair = _RATIO.match(said)
    if pair and float(pair.group(2)):
        return Fraction(pair.group(1)) / Fraction(pair.group(2)) == want
    if _NUMBER.match(said):
        return Fraction(said) == want
    return False


# --------------------------------------------------------------------------- number lists
_LIST = re.compile(r"^-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?){2,}$")
#: A reference that may be a list of three numbers or more (the screen, every row).
LIST_SCREEN = r"^\s*\$?\s*-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?){2,}\s*\$?\s*$"


def _numbers(text: str) -> list[Fraction] | None:
    text = re.sub(r"\\[,;! ]|\\[{}]|[{}$\s]", "", text.replace("\\left", "").replace("\\right", ""))
    if not _LIST.match(text):
        return None
    items = text.split(",")
    if len(items) <= 5 and all(len(i) == 3 and i.isdigit() for i in items[1:]):
        return None  # thousands separators (up to 10^15): one number
    return sorted(Fraction(i) for i in items)


def same_numbers_of(prediction: str, reference: str) -> bool | None:
    """Whether the prediction's last box lists the reference's numbers (three or more, in any
    order, each as often); None when either is no such list (the other rules decide)."""
    want = _numbers(reference)
    box = last_box(prediction)
    if want is None or box is None:
        return None
    got = _numbers(box)
    return None if got is None else got == want


#: What :func:`colon_and_list` gives.
_READ = pl.Struct({"colon": pl.Boolean, "list": pl.Boolean})
#: Every reference :data:`SCREEN` or :data:`LIST_SCREEN` admits has one of these (one literal
#: pass over every row; the regexes only on the rows that have one).
_MARKS = [":", ","]


def colon_and_list(prediction: pl.Expr, reference: pl.Expr) -> pl.Expr:
    """Struct ``{colon, list}``: :func:`colon_equal_of` on the rows whose reference passes
    :data:`SCREEN`, :func:`same_numbers_of` on those whose reference passes
    :data:`LIST_SCREEN` (Boolean each, null where not read), each distinct pair read once."""
    pair = pl.struct(prediction.alias("prediction"), reference.alias("reference"))
    return pair.map_batches(_read_batch, return_dtype=_READ, is_elementwise=True)


def _read_batch(batch: pl.Series) -> pl.Series:
    df = batch.struct.unnest()
    marked = df["reference"].str.contains_any(_MARKS) & df["prediction"].is_not_null()
    rows = df.with_row_index("__row").filter(marked.fill_null(False))
    colon = _pairs(rows, SCREEN, colon_equal_of, len(df))
    listed = _pairs(rows, LIST_SCREEN, same_numbers_of, len(df))
    return pl.DataFrame([colon.alias("colon"), listed.alias("list")]).to_struct(batch.name)


def _pairs(
    rows: pl.DataFrame, screen: str, read: Callable[[str, str], bool | None], height: int
) -> pl.Series:
    """``read`` once per distinct pair of ``rows`` whose reference passes ``screen``, at their
    ``__row`` in a Boolean series of ``height`` nulls."""
    out = pl.repeat(None, height, dtype=pl.Boolean, eager=True)
    rows = rows.filter(pl.col("reference").str.contains(screen))
    if rows.height == 0:
        return out
    distinct = rows.select("prediction", "reference").unique()
    got = [read(p, r) for p, r in distinct.iter_rows()]
    table = distinct.with_columns(pl.Series("matches", got, dtype=pl.Boolean))
    ok = rows.join(table, on=["prediction", "reference"], how="left", maintain_order="left")[
        "matches"
    ]
    return out.scatter(rows["__row"], ok)
