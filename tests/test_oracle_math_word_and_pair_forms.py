"""The math oracle's worded-answer rules (tests/oracles/math_worded.py) and pair forms
(tests/oracles/math_pair_forms.py), read by scanning characters, agree with the package's
(``xpert_frames.evaluators.math_answer.worded`` and ``pair_forms``, regular expressions) on
every text and pair of the math test data and the real-answer sets, on the span pairs the
evaluator fits, and on generated texts; a rule flipped in the package is caught.

The oracle first found three readings where the package broke its documented rule (``\\pm``
after a term dropped in the ``+`` tuple: a false credit; a ``\\text{}`` name ending in the
letters is/are/be taken for a lead-in; answer markers inside words); the package is fixed and
those cases stay below as regression cases, whole rows included.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xpert_frames as xf
from tests.helpers import examples
from tests.math_word_pair_cases import (
    BULK,
    ONE_TEXT,
    ONE_TEXT_IDS,
    PAIR_TEXTS,
    SOURCE_IDS,
    SOURCES,
    WORD_TEXTS,
    differences,
    outcome,
    pairs_of,
    span_pairs,
    strings,
    verdict_cases,
)
from tests.oracles import math as math_oracle
from tests.oracles import math_pair_forms as oracle_pairs
from tests.oracles import math_worded as oracle_words
from xpert_frames.evaluators.math_answer import pair_forms, worded
from xpert_frames.evaluators.math_answer.evaluator import MathEvaluator


# ------------------------------------------------------------------------------ the data
@pytest.mark.parametrize("source", SOURCE_IDS)
@pytest.mark.parametrize(("ours", "theirs"), ONE_TEXT, ids=ONE_TEXT_IDS)
def test_the_oracles_reading_of_each_data_text_is_the_packages(
    source: str, ours: Callable[[str], Any], theirs: Callable[[str], Any]
) -> None:
    texts = sorted({s for r in SOURCES[source] for s in strings(r)})
    assert len(texts) > 100
    assert differences(ours, theirs, [(t,) for t in texts])[:5] == []


@pytest.mark.parametrize("source", SOURCE_IDS)
def test_the_oracles_worded_verdicts_on_data_texts_are_the_packages(source: str) -> None:
    texts = sorted({s for r in SOURCES[source] for s in strings(r)})
    cases = verdict_cases(texts, random.Random(3), 20_000)
    verdicts = {worded.worded_equal_of(*c) for c in cases}
    assert verdicts == {True, False}
    ours, theirs = oracle_words.worded_equal_of, worded.worded_equal_of
    assert differences(ours, theirs, cases)[:5] == []


@pytest.mark.parametrize("source", SOURCE_IDS)
def test_the_oracles_fitted_pairs_on_the_data_are_the_packages(source: str) -> None:
    """The span pairs the evaluator fits when it scores the data's pairs; each whole
    (prediction, answer) pair both ways round too, where two whole predictions differ by a
    defect alone (``\\pm`` after a term in a quoted formula)."""
    pairs = pairs_of(SOURCES[source])
    spans = span_pairs(pairs)
    assert len(spans) > 50
    assert {pair_forms.fit_pair_of(*c)[2] for c in spans} == {True, False}
    ours, theirs = oracle_pairs.fit_pair_of, pair_forms.fit_pair_of
    assert differences(ours, theirs, spans)[:5] == []
    assert differences(ours, theirs, pairs + [(a, p) for p, a in pairs])[:5] == []


DEFECT_CASES = [
    pytest.param(
        # 2 sqrt(3) is not 2 + sqrt(3): the package finds them written identically.
        oracle_pairs.fit_pair_of,
        pair_forms.fit_pair_of,
        ("(2\\sqrt{3}, 1), (2-\\sqrt{3}, 1)", "(2 \\pm \\sqrt{3}, 1)"),
        id="pm after a term read as a product",
    ),
    pytest.param(
        oracle_pairs.fit_pair_of,
        pair_forms.fit_pair_of,
        ("(2+\\sqrt{3}, 1), (2-\\sqrt{3}, 1)", "(2 \\pm \\sqrt{3}, 1)"),
        id="pm after a term: the right tuples not found written alike",
    ),
    pytest.param(
        # A square is not a cube: both taken for a lead-in "… is/are/be" and left out.
        oracle_pairs.fit_pair_of,
        pair_forms.fit_pair_of,
        ("\\text{Square } ABCD", "\\text{Cube } ABCD"),
        id="a name ending in is-are-be read as a lead-in",
    ),
    pytest.param(
        oracle_pairs.fit_pair_of,
        pair_forms.fit_pair_of,
        ("\\text{Paris}", "\\text{Paris}"),
        id="an identical name read as a lead-in and left empty",
    ),
    pytest.param(
        oracle_words.worded_answer_of,
        worded.worded_answer_of,
        ("The answer is yes, enthusiastically.",),
        id="thus inside a word read as the marker",
    ),
    pytest.param(
        oracle_words.worded_answer_of,
        worded.worded_answer_of,
        ("Hence no, whence the contradiction.",),
        id="hence inside a word read as the marker",
    ),
]


@pytest.mark.parametrize(("ours", "theirs", "case"), DEFECT_CASES)
def test_the_oracle_reads_the_defect_cases_as_documented(
    ours: Callable[..., Any], theirs: Callable[..., Any], case: tuple[str, ...]
) -> None:
    """The oracle's reading of each case, and the package's (it once differed)."""
    documented = {
        ("(2\\sqrt{3}, 1), (2-\\sqrt{3}, 1)", "(2 \\pm \\sqrt{3}, 1)"): False,
        ("(2+\\sqrt{3}, 1), (2-\\sqrt{3}, 1)", "(2 \\pm \\sqrt{3}, 1)"): True,
        ("\\text{Square } ABCD", "\\text{Cube } ABCD"): False,
        ("\\text{Paris}", "\\text{Paris}"): True,
        ("The answer is yes, enthusiastically.",): "yes, enthusiastically",
        ("Hence no, whence the contradiction.",): "no, whence the contradiction",
    }[case]
    got = ours(*case)
    assert (got[2] if isinstance(got, tuple) else got) == documented
    assert theirs(*case) == got


#: Whole rows the evaluator once scored wrong through those readings: (prediction, answer, right
#: score).
DEFECT_ROWS = [
    pytest.param(
        "The solutions are $\\boxed{(2\\sqrt{3}, 1), (2-\\sqrt{3}, 1)}$",
        "$(2 \\pm \\sqrt{3}, 1)$",
        0.0,
        id="false credit: 2 sqrt(3) for 2 pm sqrt(3)",
    ),
    pytest.param(
        "The solutions are $\\boxed{(2+\\sqrt{3}, 1), (2-\\sqrt{3}, 1)}$",
        "$(2 \\pm \\sqrt{3}, 1)$",
        1.0,
        id="false miss: the two tuples of 2 pm sqrt(3)",
    ),
    pytest.param(
        "We checked every case. The answer is yes, enthusiastically.",
        "Yes",
        1.0,
        id="false miss: yes before enthusiastically",
    ),
    pytest.param("Hence no, whence the contradiction.", "No", 1.0, id="false miss: whence"),
]


@pytest.mark.parametrize(("prediction", "answer", "right"), DEFECT_ROWS)
def test_the_oracle_scores_the_defect_rows_right(
    prediction: str, answer: str, right: float
) -> None:
    assert math_oracle.score(prediction, answer, symbolic="latex")["score"] == right  # type: ignore[index]


@pytest.mark.parametrize("symbolic", ["latex", "auto"])
@pytest.mark.parametrize(("prediction", "answer", "right"), DEFECT_ROWS)
def test_the_evaluator_scores_the_defect_rows_right(
    prediction: str, answer: str, right: float, symbolic: str
) -> None:
    frame = pl.DataFrame({"prediction": [prediction], "answer": [answer]})
    out = xf.score(frame, [MathEvaluator(symbolic=symbolic)])
    assert out["math_score"].to_list() == [right]


@settings(max_examples=examples(1000), deadline=None)
@given(text=WORD_TEXTS)
def test_the_oracles_worded_readings_of_generated_texts_are_the_packages(text: str) -> None:
    for ours, theirs in ONE_TEXT:
        assert outcome(ours, text) == outcome(theirs, text)


@settings(max_examples=examples(1000), deadline=None)
@given(reference=WORD_TEXTS, prediction=WORD_TEXTS, kind=st.sampled_from(["yes", "no", "word:bob"]))
def test_the_oracles_worded_verdicts_on_generated_texts_are_the_packages(
    reference: str, prediction: str, kind: str
) -> None:
    read = worded.worded_kind_of(reference)
    for k in {kind, read or kind}:
        for answer in (prediction, worded.worded_answer_of(prediction)):
            ours = outcome(oracle_words.worded_equal_of, k, answer)
            assert ours == outcome(worded.worded_equal_of, k, answer)


@settings(max_examples=examples(2000), deadline=None)
@given(prediction=PAIR_TEXTS, reference=PAIR_TEXTS)
def test_the_oracles_fitted_generated_pairs_are_the_packages(
    prediction: str, reference: str
) -> None:
    for p, r in [(prediction, reference), (reference, prediction), (reference, reference)]:
        assert outcome(oracle_pairs.fit_pair_of, p, r) == outcome(pair_forms.fit_pair_of, p, r)


def _swap(pattern: Any, old: str, new: str) -> Any:
    assert old in pattern.pattern
    return re.compile(pattern.pattern.replace(old, new, 1), pattern.flags)


MUTANTS = [
    pytest.param(worded, "_NOT_WORDS", worded._NOT_WORDS - {"sin"}, id="sin a word"),
    pytest.param(worded, "_NUMBER_WORDS", worded._NUMBER_WORDS - {"seven"}, id="seven a word"),
    pytest.param(worded, "_SPACES", _swap(worded._SPACES, "|~", ""), id="tilde kept"),
    pytest.param(
        worded, "_WRAPPER", _swap(worded._WRAPPER, "|operatorname", ""), id="operatorname kept"
    ),
    pytest.param(
        pair_forms, "_LEADING", _swap(pair_forms._LEADING, "|be)", ")"), id="be not a lead-in"
    ),
    pytest.param(
        pair_forms,
        "_SENTENCE_TAIL",
        _swap(pair_forms._SENTENCE_TAIL, "|\\bequals", ""),
        id="equals not a verb",
    ),
    pytest.param(pair_forms, "_SQRT", _swap(pair_forms._SQRT, "sqrt\\s*", "sqrt"), id="sqrt ("),
    pytest.param(pair_forms, "_TUPLE", re.compile(r"\[([^\[\]]*)\]"), id="no tuples"),
    pytest.param(worded, "YES", _swap(worded.YES, "true|", ""), id="true no longer says yes"),
    pytest.param(worded, "NO", _swap(worded.NO, "|none", ""), id="none no longer says no"),
    pytest.param(worded, "_NEGATION", _swap(worded._NEGATION, "never|", ""), id="never kept"),
    pytest.param(worded, "EMPTY", _swap(worded.EMPTY, "|\\bempty set\\b", ""), id="empty set kept"),
    pytest.param(worded, "_EDGE", " \t\n.,;:!$", id="a star at the edge kept"),
    pytest.param(worded, "_WORDS", _swap(worded._WORDS, "{0,2}", "{0,1}"), id="two words at most"),
    pytest.param(worded, "_MARKER", _swap(worded._MARKER, "|hence", ""), id="hence not a marker"),
    pytest.param(
        worded, "_MARKER", _swap(worded._MARKER, "\\b(?:", "(?:"), id="markers inside words"
    ),
    pytest.param(
        pair_forms,
        "_LEADING",
        _swap(pair_forms._LEADING, "[ ,'](?:is|are|be)", "(?:is|are|be)"),
        id="a name ending in is-are-be a lead-in",
    ),
    pytest.param(pair_forms, "_plus", lambda head: "", id="pm after a term dropped"),
    pytest.param(
        pair_forms,
        "_MIXED",
        _swap(pair_forms._MIXED, "\\s*\\\\frac", "\\s+\\\\frac"),
        id="a mixed number needs a space",
    ),
    pytest.param(pair_forms, "_UPRIGHT", _swap(pair_forms._UPRIGHT, "[ei]", "[e]"), id="i kept"),
    pytest.param(
        pair_forms,
        "_TRAILING",
        _swap(pair_forms._TRAILING, "|whenever", ""),
        id="whenever kept",
    ),
    pytest.param(pair_forms, "_LOG", _swap(pair_forms._LOG, "a-zA-Z_", "a-zA-Z"), id="log_2 as ln"),
    pytest.param(pair_forms, "_PI", _swap(pair_forms._PI, "(?![A-Za-z])", ""), id="pie as pi"),
    pytest.param(
        pair_forms, "_period", lambda digits, *, said: 1 if digits else None, id="period of one"
    ),
    pytest.param(
        pair_forms,
        "_rename",
        lambda pred, ref: pred,
        id="function variables not renamed",
    ),
    pytest.param(
        pair_forms, "_CHOICE", _swap(pair_forms._CHOICE, "[A-E]", "[A-D]"), id="label E kept"
    ),
]


@pytest.mark.parametrize(("module", "name", "mutant"), MUTANTS)
def test_a_rule_flipped_in_the_package_is_caught(
    module: Any, name: str, mutant: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The generated cases (the same for every mutant) meet a difference."""
    monkeypatch.setattr(module, name, mutant)
    checks: list[tuple[Callable[..., Any], Callable[..., Any], Sequence[tuple[str, ...]]]]
    if module is pair_forms:
        checks = [(oracle_pairs.fit_pair_of, pair_forms.fit_pair_of, BULK["pairs"])]
    else:
        checks = [(ours, theirs, BULK["texts"]) for ours, theirs in ONE_TEXT]
        checks.append((oracle_words.worded_equal_of, worded.worded_equal_of, BULK["verdicts"]))
    caught = any(
        outcome(ours, *case) != outcome(theirs, *case)
        for ours, theirs, cases in checks
        for case in cases
    )
    assert caught


def test_unmutated_the_generated_cases_agree() -> None:
    """The mutants' cases, the package as it is: no difference (so each mutant's are its
    own)."""
    for ours, theirs in ONE_TEXT:
        assert differences(ours, theirs, BULK["texts"])[:3] == []
    ours_v, theirs_v = oracle_words.worded_equal_of, worded.worded_equal_of
    assert differences(ours_v, theirs_v, BULK["verdicts"])[:3] == []
    pairs = differences(oracle_pairs.fit_pair_of, pair_forms.fit_pair_of, BULK["pairs"])
    assert pairs[:3] == []
