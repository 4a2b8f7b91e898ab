"""The math oracle's clock-time, ratio and number-list rules (tests/oracles/math_times.py, read
by scanning characters) agree with the package's (xpert_frames.evaluators.math_answer.times,
regular expressions) on every text of the test data and on generated texts, so the oracle can
use its own and still check the same rules."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.oracles import math_times as oracle
from xpert_frames.evaluators.math_answer import times
from xpert_frames.evaluators.math_answer.worded import last_box

DATA = Path(__file__).parent / "data"


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _records() -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for path in sorted(DATA.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


RECORDS = _records()
TEXTS = sorted({s for r in RECORDS for s in _strings(r)})
PAIRS = sorted(
    {
        (str(r["prediction"]), str(r["answer"]))
        for r in RECORDS
        if isinstance(r.get("prediction"), str) and isinstance(r.get("answer"), str | int | float)
    }
)

_PIECES = [
    *"0123456789",
    "1",
    "12",
    "05",
    "٣",
    "１２",
    ":",
    ":",
    " : ",
    ".",
    ".5",
    "-",
    "--",
    " ",
    "  ",
    "\n",
    "\t",
    "\u3000",
    "$",
    "\\boxed{",
    "\\fbox{",
    "\\boxed ",
    "{",
    "}",
    "am",
    "a.m.",
    " P.M.",
    "pm",
    "m",
    "A",
    ",",
    ", ",
    "\\,",
    "\\;",
    "\\!",
    "\\ ",
    "\\{",
    "\\}",
    "\\left(",
    "\\right)",
    "\\text{",
    "\\mathrm{",
    "\\textbf",
    "x",
    "the answer is ",
    "比",
    "点",
]


def _generated(rng: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        shape = rng.random()
        if shape < 0.3:  # a clock time or ratio, dressed
            a = str(rng.choice([0, 1, 7, 9, 10, 12, 23, 100, 2.5, 0.0]))
            b = rng.choice(["00", "05", "30", "3", "4", "0", "1.5", "007", "59:59", "12:00"])
            text = f"{a}{rng.choice([':', ' : ', ':'])}{b}{rng.choice(['', ' am', 'P.M.', ' x'])}"
        elif shape < 0.55:  # a list of numbers, dressed
            k = rng.choice([2, 3, 4, 5, 6])
            items = [rng.choice(["1", "-2", "000", "123", "3.5", "1,000", "٣"]) for _ in range(k)]
            text = rng.choice([",", ", ", "\\,,", " , "]).join(items)
        else:
            text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 14)))
        wrap = rng.random()
        if wrap < 0.25:
            text = f"\\boxed{{{text}}}"
        elif wrap < 0.4:
            text = f"${text}$"
        elif wrap < 0.5:
            text = f"So it is {text}. Then \\boxed{{{text}"
        out.append(text)
    return out


#: Numbers written with a comma every three digits (one number up to five groups, a list after).
GROUPED = [",".join(["1", *["000"] * k]) for k in range(1, 7)]
GENERATED = (
    _generated(random.Random(20261206), 6000) + GROUPED + [f"\\boxed{{{g}}}" for g in GROUPED]
)


def _near_the_tail(rng: random.Random, references: list[str], n: int) -> list[tuple[str, str]]:
    """Predictions stating a reference, or something near it, about 200 characters from their
    end (where a prediction without a box stops being read), in filler of several kinds."""
    out = []
    for _ in range(n):
        ref = rng.choice(references)
        turned = ",".join(reversed(ref.strip("$").split(",")))  # a list in another order
        said = rng.choice([ref, ref.strip("$"), turned, "12:00", "1:05 pm", "3:4", "0.75", "1,2,3"])
        if rng.random() < 0.3:
            said = f"\\boxed{{{said}}}"
        filler = rng.choice(["a ", "x", "1.", "-", ": ", "9"])
        before = filler * rng.randint(0, 30)
        after = (filler * 300)[: rng.randint(170, 230)]
        out.append((before + said + rng.choice(["", " ", "."]) + after, ref))
    return out


def _outcome(fn: Callable[..., Any], *args: str) -> Any:
    try:
        return fn(*args)
    except Exception as exc:  # both must fail the same way
        return type(exc)


def _differences(
    ours: Callable[..., Any], theirs: Callable[..., Any], cases: list[tuple[str, ...]]
) -> list[tuple[tuple[str, ...], Any, Any]]:
    out = []
    for args in cases:
        a, b = _outcome(ours, *args), _outcome(theirs, *args)
        if a != b:
            out.append((args, a, b))
    return out


def _screen(pattern: str) -> Callable[[str], bool]:
    return lambda text: re.match(pattern, text) is not None


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (oracle.last_box, last_box),
        (oracle.colon_screen, _screen(times.SCREEN)),
        (oracle.list_screen, _screen(times.LIST_SCREEN)),
    ],
    ids=["last box", "clock or ratio screen", "number list screen"],
)
def test_the_oracles_reading_of_one_text_is_the_packages(
    ours: Callable[[str], Any], theirs: Callable[[str], Any]
) -> None:
    cases = [(t,) for t in TEXTS + GENERATED]
    assert len(cases) > 10_000
    assert _differences(ours, theirs, cases)[:5] == []


VERDICTS = pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (oracle.colon_equal_of, times.colon_equal_of),
        (oracle.same_numbers_of, times.same_numbers_of),
    ],
    ids=["clock or ratio", "number list"],
)


def _references(theirs: Callable[[str, str], Any]) -> list[str]:
    """The texts (data and generated) the rule reads as a reference."""
    return sorted(
        {
            t
            for t in TEXTS + GENERATED
            if theirs("", t) is not None or theirs(f"\\boxed{{{t}}}", t) is not None
        }
    )


@VERDICTS
def test_the_oracles_verdicts_are_the_packages(
    ours: Callable[[str, str], Any], theirs: Callable[[str, str], Any]
) -> None:
    """On the test data's own (prediction, answer) pairs, on generated pairs, and on
    predictions stating a reference (or something near it) about where they stop being read."""
    rng = random.Random(7)
    cases = list(PAIRS)
    cases += [(rng.choice(GENERATED), rng.choice(GENERATED)) for _ in range(20_000)]
    cases += _near_the_tail(rng, _references(theirs), 20_000)
    verdicts = {_outcome(theirs, *c) for c in cases}
    assert {True, False, None} <= verdicts  # the cases reach every verdict
    assert _differences(ours, theirs, cases)[:5] == []


@pytest.mark.slow
@VERDICTS
def test_the_oracles_verdicts_on_every_text_are_the_packages(
    ours: Callable[[str, str], Any], theirs: Callable[[str, str], Any]
) -> None:
    """Every text of the data and generated as the prediction against references the rule
    reads."""
    references = _references(theirs)
    rng = random.Random(11)
    cases = [(p, r) for r in rng.sample(references, 12) for p in TEXTS + GENERATED]
    assert _differences(ours, theirs, cases)[:5] == []
