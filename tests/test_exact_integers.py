"""Integers compare exactly at any size in ``math`` and ``accuracy`` number rows: at 2**53
(where Float64 stops holding every integer), at 2**64, at 309/310 digits (where Float64
overflows) and at 5,000 digits, written in full, with thousands separators, or as powers of
ten (``10^{n}``, ``10^n``, ``1e5``, ``1\\times10^{5}``: their value, never their exponent).
The integer key against the oracle, labelled cases, then properties against plain Python ints."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import examples, score_all_paths
from tests.oracles import math as oracle
from xpert_frames.evaluators.accuracy import AccuracyEvaluator
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator
from xpert_frames.reading.numeric.exact import integer_key, keys_within, power_key

FIVE_K = "1" + "0" * 5000  # 10**5000 written out (over Python's 4,300-digit int() limit)


NINES_309 = "9" * 309  # beyond Float64 (about 1.8e308)


ONES_310 = "1" * 310


def thousands(digits: str) -> str:
    head = len(digits) % 3 or 3
    return ",".join([digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)])


#: (label, prediction, reference, correct): both evaluators must score ``correct``.
NUMBER_CASES = [
    ("2^53 equal", str(2**53), str(2**53), True),
    ("2^53 vs 2^53+1", str(2**53), str(2**53 + 1), False),
    ("2^53+1 vs 2^53+1", f"The answer is {2**53 + 1}.", str(2**53 + 1), True),
    ("2^53-1 vs 2^53", str(2**53 - 1), str(2**53), False),
    ("2^64 equal", str(2**64), str(2**64), True),
    ("2^64 vs 2^64-1", "18446744073709551616", "18446744073709551615", False),
    ("2^64 with thousands", f"\\boxed{{{2**64:,}}}", str(2**64), True),
    ("-2^64 vs 2^64", str(-(2**64)), str(2**64), False),
    ("309 digits equal", NINES_309, NINES_309, True),
    ("309 digits, last differs", NINES_309, NINES_309[:-1] + "8", False),
    ("310 digits equal", f"所以答案是 {ONES_310}。", ONES_310, True),
    ("310 digits, different", ONES_310, "2" * 310, False),
    ("310 digits vs 309", ONES_310, ONES_310[:-1], False),
    ("300 digits, last differs", "1" * 300, "1" * 299 + "2", False),
    ("5000 digits equal", FIVE_K, FIVE_K, True),
    ("5000 digits, last differs", FIVE_K, FIVE_K[:-1] + "1", False),
    ("5000 digits with thousands", thousands(FIVE_K), FIVE_K, True),
    ("5000 digits vs infinity", FIVE_K, "inf", False),
    ("infinity vs 5000 digits", "∞", FIVE_K, False),
    ("5000 digits vs a float", FIVE_K, "1.5", False),
    ("1e400 vs 1e400 written out", "1e400", "1" + "0" * 400, True),
    ("1e400 vs 2e400", "1e400", "2e400", False),
    ("infinities still equal", "inf", "∞", True),
    ("small integers unchanged", "42", "42", True),
    ("decimals keep the tolerance", "0.333333", "0.33333333", True),
]


#: Answers that are powers of ten (or state one) against the same integer written out.
POWER_CASES = [
    ("\\boxed{10^{5000}} vs 5000 zeros", "\\boxed{10^{5000}}", FIVE_K, True),
    ("\\boxed{10^{5000}} vs 10^5000+1", "\\boxed{10^{5000}}", FIVE_K[:-1] + "1", False),
    ("written out vs 10^{5000}", FIVE_K, "10^{5000}", True),
    ("$10^{5000}$ vs $10^{5000}$", "答案是 $10^{5000}$", "10^{5000}", True),
    ("3\\times10^{400} vs written out", "\\boxed{3 \\times 10^{400}}", "3" + "0" * 400, True),
    ("10^{20} vs 10^20+1", "\\boxed{10^{20}}", "1" + "0" * 19 + "1", False),
    ("10^{5} vs 100000", "\\boxed{10^{5}}", "100000", True),
    # A power of ten is its value, not its exponent (the shared number reader read 3 and 5000).
    ("\\boxed{10^{3}} vs its exponent", "The answer is $\\boxed{10^{3}}$.", "3", False),
    ("\\boxed{10^{3}} vs 1000", "The answer is $\\boxed{10^{3}}$.", "1000", True),
    ("10^5 vs its exponent", "The answer is 10^5.", "5", False),
    ("10^5 vs 100000", "The answer is 10^5.", "100000", True),
    ("1e5 vs 100000", "The answer is 1e5.", "100000", True),
    ("1\\times10^{5} vs 100000", "The answer is $1\\times10^{5}$.", "100000", True),
    ("10^{5000} in a sentence vs written out", "So the answer is $10^{5000}$.", FIVE_K, True),
    ("10^5000 vs its exponent", "So the answer is 10^5000.", "5000", False),
    ("10^{309} vs written out", "The answer is $10^{309}$.", "1" + "0" * 309, True),
    ("10^{310} vs written out", "答案是 $10^{310}$。", "1" + "0" * 310, True),
    ("10^{310} vs 10^309 written out", "The answer is $10^{310}$.", "1" + "0" * 309, False),
    ("10^{20} in a sentence vs 10^20+1", "所以答案是 $10^{20}$。", "1" + "0" * 19 + "1", False),
    ("10^{-3} vs 0.001", "The answer is $10^{-3}$.", "0.001", True),
    ("2^{53} computed", f"$2^{{53}} = {2**53}$, so the answer is $\\boxed{{{2**53}}}$.",
     str(2**53), True),
    ("2^{53} computed vs 2^53+1", f"$2^{{53}} = {2**53}$, so the answer is {2**53}.",
     str(2**53 + 1), False),
    ("2^{64} computed", f"所以 $2^{{64}} = {2**64}$。", str(2**64), True),
    ("2^{64} computed vs 2^64+1", f"So $2^{{64}} = {2**64}$.", str(2**64 + 1), False),
]  # fmt: skip


def _frame(cases: list[tuple[str, str, str, bool]]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "prediction": [c[1] for c in cases],
            "answer": [c[2] for c in cases],
            "answer_type": ["number"] * len(cases),
        }
    )


def _check(scores: pl.Series, cases: list[tuple[str, str, str, bool]]) -> None:
    wrong = [c[0] for c, s in zip(cases, scores, strict=True) if s != float(c[3])]
    assert not wrong, wrong


def score(preds: list[str], answers: list[str], **options: Any) -> pl.DataFrame:
    df = pl.DataFrame({"prediction": preds, "answer": answers})
    return score_all_paths(df, [MathEvaluator(**options)])


def test_integer_key_matches_the_oracle() -> None:
    texts = [
        "18446744073709551616", "-0", "+12", "0012", "1,000", "12.00", "12.5", "1e20", "5万",
        "0万", "3 kg", "4 4/9", "7/2", "50%", "2亿 元", "-18,446,744,073,709,551,616", "12 ×",
        "\\frac{1}{2}", "1.5万", "十二", "7 ‰", "2.5e3", "1e5000", "1.25e1", "-0.0e7",
    ]  # fmt: skip
    for scientific in (False, True):
        got = pl.DataFrame({"t": texts}).select(integer_key(pl.col("t"), scientific=scientific))
        want = [oracle.int_key(t, scientific) for t in texts]
        assert [None if k is None else Decimal(k) for k in got.to_series()] == want
    got = pl.DataFrame({"t": texts[:6]}).select(integer_key(pl.col("t"))).to_series()
    assert got.to_list() == ["18446744073709551616e0", "0", "12e0", "12e0", "1e3", "12e0"]


def test_integers_compare_exactly_at_any_size() -> None:
    big = 2**64
    preds = [str(big), f"{big:,}", f"{big:,}".replace(",", "{,}"), str(2**53 + 1), str(-big)]
    preds += [f"\\boxed{{{big}}} ways", "所以共有 18446744073709551616 种。"]
    for delta, want in ((0, 1.0), (1, 0.0), (-1, 0.0)):
        refs = [str(big + delta)] * 3 + [str(2**53 + 1 + delta), str(-big + delta)]
        refs += [str(big + delta)] * 2
        assert score(preds, refs)["math_score"].to_list() == [want] * len(preds), delta
    # Numbers not written as integers keep the tolerance (scientific notation approximates).
    out = score(["1.8446744073709552e19", "1.8e19", "0.3333333"], [str(big), str(big), "1/3"])
    assert out["math_score"].to_list() == [1.0, 0.0, 1.0]


@settings(max_examples=examples(30), deadline=None)
@given(st.integers(2**53, 10**30), st.integers(-2, 2), st.sampled_from(range(4)))
def test_big_integers_in_every_form(n: int, delta: int, form: int) -> None:
    written = [str(n), f"{n:,}", f"{n:,}".replace(",", "{,}"), f"{n:,}".replace(",", " ")][form]
    out = score([f"The answer is {written}.", f"\\boxed{{{n + delta}}}"], [str(n + delta), written])
    assert out["math_score"].to_list() == [float(delta == 0)] * 2, written


@pytest.mark.parametrize("symbolic", ["auto", "latex"])
def test_math_labelled_integers(symbolic: str) -> None:
    cases = NUMBER_CASES + POWER_CASES
    out = score_all_paths(_frame(cases), [MathEvaluator(symbolic=symbolic)])
    _check(out["math_score"], cases)
    rules = dict(zip([c[0] for c in cases], out["math_rule"], strict=True))
    assert rules["\\boxed{10^{5000}} vs 5000 zeros"] == "boxed:integer"  # no symbolic step
    assert rules["5000 digits equal"] == "last"


def test_accuracy_labelled_integers() -> None:
    out = score_all_paths(_frame(NUMBER_CASES), [AccuracyEvaluator()])
    _check(out["accuracy_score"], NUMBER_CASES)
    extracted = dict(zip([c[0] for c in NUMBER_CASES], out["accuracy_extracted"], strict=True))
    assert extracted["5000 digits equal"] == FIVE_K  # beyond Float64: the number as written


def test_accuracy_reads_powers_of_ten_as_values() -> None:
    out = score_all_paths(_frame(POWER_CASES), [AccuracyEvaluator()])
    _check(out["accuracy_score"], POWER_CASES)


def test_accuracy_tolerance_on_big_integers_is_exact() -> None:
    big = 2**64
    preds = [str(big), str(big), FIVE_K, FIVE_K, str(big), "1" + "0" * 400]
    refs = [str(big + 1), str(big + 1), FIVE_K[:-1] + "3", FIVE_K[:-1] + "3", str(big + 2), "0"]
    for tolerance, want in ((0.5, [0, 0, 0, 0, 0, 0]), (1.0, [1, 1, 0, 0, 0, 0]),
                            (3.0, [1, 1, 1, 1, 1, 0]), (1e300, [1, 1, 1, 1, 1, 0])):  # fmt: skip
        out = score_all_paths(_frame([("", p, r, True) for p, r in zip(preds, refs, strict=True)]),
                              [AccuracyEvaluator(numeric_tolerance=tolerance)])  # fmt: skip
        assert out["accuracy_score"].to_list() == [float(w) for w in want], tolerance


def _written(n: int, form: int) -> str:
    digits = str(abs(n))
    body = [digits, thousands(digits), "000" + digits][form]
    return ("-" if n < 0 else "") + body


big_ints = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(2**53 - 3, 2**53 + 3),
    st.builds(lambda d, k: int("9" * d) + k, st.integers(300, 320), st.integers(-3, 3)),
    st.builds(lambda d, k: 10**d + k, st.integers(15, 700), st.integers(-2, 2)),
)


@settings(max_examples=examples(60), deadline=None)
@given(big_ints, st.integers(-2, 2), st.integers(0, 2), st.integers(0, 2), st.booleans())
def test_integers_score_as_python_ints(n: int, delta: int, pform: int, rform: int, boxed: bool):
    m = n + delta
    pred = _written(n, pform)
    pred = f"\\boxed{{{pred}}}" if boxed else f"The answer is {pred}."
    df = pl.DataFrame({"prediction": [pred], "answer": [_written(m, rform)]})
    df = df.with_columns(answer_type=pl.lit("number"))
    out = xf_score(df)
    want = float(n == m)  # the oracle: plain Python ints
    assert out["math_score"].item() == want
    assert out["accuracy_score"].item() == want


def xf_score(df: pl.DataFrame) -> pl.DataFrame:
    import xpert_frames as xf

    return xf.score(df, [MathEvaluator(symbolic="latex"), AccuracyEvaluator()])


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(-(10**400), 10**400), st.integers(0, 40), st.integers(0, 2))
def test_integer_key_is_the_python_int(n: int, shift: int, form: int) -> None:
    n = n * 10**shift
    text = _written(n, form)
    key = pl.select(integer_key(pl.lit(text))).item()
    assert Decimal(key) == Decimal(n)
    assert key == pl.select(integer_key(pl.lit(str(n)))).item()  # one key per integer
    power = pl.select(power_key(pl.lit(f"{n}\\times 10^{{{shift}}}"))).item()
    assert Decimal(power) == Decimal(n * 10**shift)


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(-(10**30), 10**30), st.integers(-5, 5), st.integers(0, 30),
       st.sampled_from([0.0, 0.5, 1.0, 2.5, 5.0, 1e20]))  # fmt: skip
def test_keys_within_is_exact(n: int, delta: int, zeros: int, tolerance: float) -> None:
    a, b = n * 10**zeros, n * 10**zeros + delta
    keys = pl.select(integer_key(pl.lit(str(a))), integer_key(pl.lit(str(b))).alias("b")).row(0)
    assert keys_within(keys[0], keys[1], tolerance) == (abs(a - b) <= Decimal(tolerance))
