"""Cases for tests/test_oracle_math_word_and_pair_forms.py: the texts and pairs of the math
test data and the real-answer sets, and generated texts."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

import polars as pl
import pytest
from hypothesis import strategies as st

import xpert_frames as xf
from tests.oracles import math_worded as oracle_words
from xpert_frames.evaluators.math_answer import pair_forms, worded
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator

DATA = Path(__file__).parent / "data"
#: The real answers of the shared data (``../shared/data/real-answers`` beside the checkout).
REAL = next(
    (
        p / "shared" / "data" / "real-answers"
        for p in Path(__file__).resolve().parents
        if (p / "shared" / "data" / "real-answers").is_dir()
    ),
    None,
)


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def records(paths: list[Path]) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for path in paths
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def pairs_of(records: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return sorted(
        {
            (r["prediction"], str(r["answer"]))
            for r in records
            if isinstance(r.get("prediction"), str)
            and isinstance(r.get("answer"), str | int | float)
        }
    )


MATH_FILES = sorted({*DATA.glob("*math*.jsonl"), *DATA.glob("*symbolic*.jsonl")})
REAL_FILES = [REAL / "symbolic.jsonl", REAL / "number.jsonl"] if REAL is not None else []
SOURCES = {"test data": records(MATH_FILES), "real answers": records(REAL_FILES)}
needs_real = pytest.mark.skipif(REAL is None, reason="no ../shared/data/real-answers here")
SOURCE_IDS = [pytest.param("test data"), pytest.param("real answers", marks=needs_real)]


def span_pairs(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The (prediction span, reference span) pairs the evaluator hands to ``fit_pair_of``
    when it scores ``pairs`` (its own span reader; ``symbolic="latex"``: no worker pool)."""
    seen: list[tuple[str, str]] = []
    fit = pair_forms.fit_pair_of

    def recorded(p: str, r: str) -> tuple[str, str, bool]:
        seen.append((p, r))
        return fit(p, r)

    frame = pl.DataFrame(
        {"prediction": [p for p, _ in pairs], "answer": [a for _, a in pairs]},
        schema={"prediction": pl.String, "answer": pl.String},
    )
    with mock.patch.object(pair_forms, "fit_pair_of", recorded):
        xf.score(frame, [MathEvaluator(symbolic="latex")])
    return sorted(set(seen))


def outcome(fn: Callable[..., Any], *args: str) -> Any:
    try:
        return fn(*args)
    except Exception as exc:  # both must fail the same way
        return type(exc)


def differences(
    ours: Callable[..., Any], theirs: Callable[..., Any], cases: Sequence[tuple[str, ...]]
) -> list[tuple[tuple[str, ...], Any, Any]]:
    out = []
    for args in cases:
        a, b = outcome(ours, *args), outcome(theirs, *args)
        if a != b:
            out.append((args, a, b))
    return out


ONE_TEXT = [
    (oracle_words.plain_words, worded.plain_words),
    (oracle_words.worded_kind_of, worded.worded_kind_of),
    (oracle_words.worded_answer_of, worded.worded_answer_of),
]
ONE_TEXT_IDS = ["plain words", "kind of a reference", "answer text of a prediction"]


def verdict_cases(texts: list[str], rng: random.Random, n: int) -> list[tuple[str, str]]:
    """(kind, answer text) pairs: each kind the package reads in ``texts`` (and the two
    polarities) against answer texts read from ``texts``, and answers stating a phrase."""
    kinds = sorted({k for t in texts if (k := worded.worded_kind_of(t)) is not None})
    kinds += ["yes", "no"]
    answers = sorted({worded.worded_answer_of(t) for t in texts} | set(texts))
    cases = [(rng.choice(kinds), rng.choice(answers)) for _ in range(n)]
    for kind in kinds:
        phrase = kind.removeprefix("word:")
        cases += [(kind, phrase), (kind, f"so {phrase}, i think"), (kind, f"not {phrase}")]
    return cases


WORD_PIECES = [
    "\\boxed{", "\\fbox{", "}", "{", "\\text{", "\\textbf{", "\\mathrm ", "\\text {", "\\textrm{",
    "\\operatorname{", "\\(", "\\)", "\\[", "\\]", "\\\\", "$", "~", "\\,", "\\ ", "\\;", "\\!",
    " ", "  ", "\n", "\t", "\u3000", "\r", "\x1c", ".", ",", ":", "!", "*", "yes", "Yes", "YES",
    "no", "No", "true", "false", "impossible", "possible", "it is possible", "it's possible",
    "not possible", "it is not possible", "there is no", "there are no", "there exists no",
    "there exist", "none", "None", "no such", "such n exists", "such", "n", "exist", "exists",
    "does not exist", "do not", "solution", "solutions", "no solution", "no real solutions",
    "empty set", "converges", "bob", "Bob", "seven", "twenty-one", "-", "and", "the", "sin",
    "x", "1", "12", "=", "<", "^", "_", "\\", "'", "can't", "answer is", "The answer is",
    "answer:", "ANSWER IS", "answer", "is", "therefore", "Thus", "hence", "enthusiasm", "：",
    "ſ", "İ", "ı", "é", "K", "never", "not", "nor", "don't", "isn't", "a", "ab", "abc",
]  # fmt: skip
PAIR_PIECES = [
    "$", "$$", "\\dfrac", "\\tfrac", "\\frac{1}{2}", "\\frac", "{", "}", "\\mathrm{e}",
    "\\mathrm e", "\\rm i", "\\mathrm{ i }", "\\rm{e}", "\\mathrm", "\\left(", "\\right)",
    "\\left", "\\leftarrow", "\\,", "\\\\,", "\\\\", "\\;", "\\!", "\\ ", "\\:", "\\quad",
    "\\qquad", "\\quadx", " ", "  ", "\n", "\t", "0.1", "\\overline{6}", "\\overline {12}",
    "\\dot{6}", "\\dot1", "\\dot{2}", "(6)", "(", ")", "\\repeating", "...", "…", "\\dots",
    "\\ldots", "\\cdots", "0.1666", "0.", ".", "12", "3", "0", "9", "\\text{The answer is }",
    "\\text{Answer:}", "\\text{It must be}", "\\text{This}", "\\text{Square}",
    "\\text{ for all } x>0",
    "\\text{where }", "\\text{whenever}", "\\text{when}", "\\text{for_all}", "\\text{",
    "\\text", ",", ";", "\\begin{cases}", "So the angle is", "The answer is ", " is ", "are",
    "equals", "=", "Is", "ſ", "İs", "sqrt(3)", "sqrt (x+1)", "sqrt", "pi", "2pi", "\\pi", "pie",
    "88 \\frac{2}{3}", "(C)", "\\text{(B)}", "\\textbf{(A)}", "(E) ", "\\log", "\\ln",
    "\\log_2", "\\lnx", "\\pm", "\\pmod", "(0, \\pm 2)", "(\\pm 1, \\pm 2)", "(1 \\pm x, 2)",
    "(x=\\pm 1)", "f(x)", "f(y)", "g(x)", "f (t) =", "2y", "x", "y", "\\sin y", "-1 + sqrt(3)",
    "a", "b", "\\sqrt{2}", "x^2", "e", "i",
]  # fmt: skip
#: Answers written in several ways on the two sides of a pair (:func:`_dressed`).
CORES = [
    "\\frac{1}{2}", "2x", "x^2+1", "\\sqrt{3}", "(0, 2), (0, -2)", "(0, \\pm 2)", "\\ln 2",
    "\\log 2", "\\frac{1}{6}", "0.1\\overline{6}", "0.1666...", "0.1666\\repeating",
    "0.\\dot{1}\\dot{8}", "0.1(6)", "\\frac{2}{11}", "88 \\frac{2}{3}", "\\frac{266}{3}",
    "-1 + sqrt(3)", "-1+\\sqrt{3}", "pi/2", "\\frac{\\pi}{2}", "1 - \\frac{1}{\\mathrm{e}}",
    "1-\\frac{1}{e}", "\\{1, 2\\}", "(\\pm 1, \\pm 2)", "(1, 2), (1, -2), (-1, 2), (-1, -2)",
    "(2 \\pm \\sqrt{3}, 1)", "(2+\\sqrt{3}, 1), (2-\\sqrt{3}, 1)", "f(x) = 2x", "f(y)=2y",
    "f(t) = t^2 + \\sin t", "f(x)=x^2+\\sin x", "g(x)=x", "f(n)=n", "f(x) = y x",
    "f(y) = x + y", "\\text{Square}", "\\text{Paris} 5",
]  # fmt: skip


def pieces_of(pieces: list[str], most: int) -> st.SearchStrategy[str]:
    text = st.lists(st.sampled_from(pieces), max_size=most).map("".join)
    return st.one_of(text, text.map(lambda t: f"\\boxed{{{t}}}"), text.map(lambda t: f"${t}$"))


def dressed(core: str, how: int) -> str:
    """``core`` written one of several ways."""
    return [
        core,
        f"${core}$",
        f"\\text{{The answer is }} {core}",
        f"{core} \\text{{ for all }} x>0",
        f"{core}, \\text{{where }} x \\neq 0",
        f"So the answer is {core}.",
        f"(C) {core}",
        f"\\text{{(B)}}\\ {core}",
        f"{{{core}}}",
        core.replace("\\frac", "\\dfrac").replace(" ", "\\,"),
        core.replace(" ", ""),
        f"$$\\left({core}\\right)$$",
        f"\\textbf{{(E)}} {core}",
        f"{core} \\text{{ whenever }} x>0",
        f"So it equals {core}",
    ][how]


DRESSED = st.tuples(st.sampled_from(CORES), st.integers(0, 14)).map(lambda c: dressed(*c))
WORD_TEXTS = pieces_of(WORD_PIECES, 14)
PAIR_TEXTS = st.one_of(pieces_of(PAIR_PIECES, 10), DRESSED)


def bulk(rng: random.Random) -> dict[str, Sequence[tuple[str, ...]]]:
    """Generated cases for the mutants (a seeded draw: each mutant meets the same cases)."""

    def draw(pieces: list[str], n: int, most: int) -> list[str]:
        return ["".join(rng.choice(pieces) for _ in range(rng.randint(0, most))) for _ in range(n)]

    words = draw(WORD_PIECES, 3000, 14)
    words += [f"\\boxed{{{t}}}" for t in words[:500]]
    pairs_texts = draw(PAIR_PIECES, 2000, 10)
    written = [dressed(rng.choice(CORES), rng.randrange(15)) for _ in range(2000)]
    pairs = [(rng.choice(pairs_texts), rng.choice(pairs_texts)) for _ in range(2000)]
    pairs += [(rng.choice(written), rng.choice(written)) for _ in range(4000)]
    pairs += [(w, w) for w in written[:300]] + [(c, dressed(c, 2)) for c in CORES]
    return {
        "texts": [(t,) for t in words],
        "verdicts": verdict_cases(words, rng, 6000),
        "pairs": pairs,
    }


BULK = bulk(random.Random(20261206))
