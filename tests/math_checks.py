"""What the math tests share: the labelled sets in ``tests/data/``, the option sets, the check of
every output column against the per-row oracle (``tests/oracles/math.py``), and the symbolic
modes (Math-Verify only when the ``symbolic`` extra is installed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import xpert_frames as xf
from tests.helpers import score_all_paths
from tests.oracles import math as oracle
from xpert_frames.evaluators.math_answer import verify_pool
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator

LABELLED = Path(__file__).parent / "data" / "math_labelled.jsonl"


def labelled() -> pl.DataFrame:
    rows = [json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines()]
    return pl.DataFrame(rows)


ANSWERS = Path(__file__).parent / "data" / "math_labelled_answers.jsonl"


def answers_set() -> pl.DataFrame:
    rows = [json.loads(line) for line in ANSWERS.read_text(encoding="utf-8").splitlines()]
    return pl.DataFrame(rows)


FORMS = Path(__file__).parent / "data" / "math_labelled_forms.jsonl"


def forms_set() -> pl.DataFrame:
    rows = [json.loads(line) for line in FORMS.read_text(encoding="utf-8").splitlines()]
    return pl.DataFrame(rows)


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"extract": "first"},
    {"normalize": False},
    {"require_units": True},
    {"strict_format": True},
    {"tolerance": 0.01},
    {"tolerance": 0.0, "normalize": False, "require_units": True},
    {"symbolic": "latex"},
    {"decimal_comma": "always"},
]


def oracle_frame(df: pl.DataFrame, options: dict[str, Any]) -> list[tuple[Any, ...]]:
    kw = dict(options)
    if "extract" in kw:
        kw["extract_mode"] = kw.pop("extract")
    rows = []
    for p, a in df.select("prediction", "answer").iter_rows():
        r = oracle.score(p, a, **kw)
        keys = ("score", "value", "unit", "rule", "extracted", "expected")
        rows.append((None,) * 6 if r is None else tuple(r[k] for k in keys))
    return rows


def assert_matches_oracle(
    df: pl.DataFrame, options: dict[str, Any], *, all_paths: bool = True
) -> None:
    ev = MathEvaluator(**options)
    out = score_all_paths(df, [ev]) if all_paths else xf.score(df, [ev])
    columns = ("score", "value", "unit", "rule", "extracted", "expected")
    got = out.select(f"math_{c}" for c in columns).rows()
    want = oracle_frame(df, options)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        same_value = g[1] == w[1] or (
            g[1] is not None and w[1] is not None and abs(g[1] - w[1]) <= 1e-12 * abs(w[1])
        )
        assert (g[0], *g[2:]) == (w[0], *w[2:]) and same_value, (
            options,
            df.row(i),
            g,
            w,
        )


HAS_MV = verify_pool.available()


needs_mv = pytest.mark.skipif(not HAS_MV, reason="needs the symbolic extra (Math-Verify)")


MODES = ["latex", pytest.param("math_verify", marks=needs_mv)]


#: :data:`OPTION_SETS` for the largest labelled set: the defaults in the quick loop, the other
#: option sets marked ``slow`` (the quick loop checks each against the oracle on
#: ``math_labelled.jsonl``).
OPTION_SETS_SLOW = [OPTION_SETS[0]] + [
    pytest.param(o, marks=pytest.mark.slow) for o in OPTION_SETS[1:]
]
#: :data:`MODES` for the largest labelled set: Math-Verify's run marked ``slow`` (the quick
#: loop runs it on ``math_labelled_forms.jsonl``).
MODES_SLOW = ["latex", pytest.param("math_verify", marks=[needs_mv, pytest.mark.slow])]
