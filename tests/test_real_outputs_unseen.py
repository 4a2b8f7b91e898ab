"""Real model outputs from public benchmark repositories, each with a verdict decided by reading
it before any scorer ran (``tests/data/accuracy_real_more.jsonl``: open-domain answers of
GPT-3.5, ChatGPT, GPT-4 and a web-search chat model on Natural Questions and TriviaQA, zero-shot
chain-of-thought true/false answers, Chinese legal consultation topics of 15 models;
``tests/data/tcm_real_more.jsonl``: Qwen answers to TCM licensing-exam questions). Each row keeps
its ``source`` (repository, path, row, commit); ``ambiguous`` marks rows a careful reader could
decide either way, ``peers`` the source project's own verdict.

The accuracy score must agree with the verdict (several accepted answers: any one counts); a TCM
row is credited at the evaluator's own ``match_threshold``. Rows misread today are listed in
``tests/data/accuracy_real_more_misses.txt`` and run as ``xfail(strict=True)``: a rule that reads
one right fails its test until its line is deleted, so the list only shrinks with real fixes.
No listed row is a false credit (a wrong answer scored 1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import xpert_frames as xf
from tests.helpers import labelled_params
from xpert_frames.core.frames import CHOICE_DTYPE

DATA = Path(__file__).parent / "data"
#: The TCM evaluator's default ``match_threshold``: a score at least this is a credit.
TCM_CREDIT = 0.7


def _rows(name: str) -> list[dict[str, Any]]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _misses() -> set[str]:
    lines = (DATA / "accuracy_real_more_misses.txt").read_text(encoding="utf-8").splitlines()
    return {line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()}


ACCURACY = _rows("accuracy_real_more.jsonl")
TCM = _rows("tcm_real_more.jsonl")
MISSES = _misses()


def _label_choices(labels: list[str] | None) -> list[dict[str, str]] | None:
    if labels is None:
        return None
    return [{"id": chr(65 + i), "content": label} for i, label in enumerate(labels)]


@pytest.fixture(scope="module")
def credited() -> dict[str, int]:
    """Every row scored once: id -> 1 (credited) or 0."""
    frame = pl.DataFrame(
        {
            "prediction": [r["prediction"] for r in ACCURACY],
            "answer": pl.Series(
                [a if isinstance(a, list) else [a] for a in (r["answer"] for r in ACCURACY)],
                dtype=pl.List(pl.String),
            ),
            "answer_type": [r["answer_type"] for r in ACCURACY],
            "choices": pl.Series(
                [_label_choices(r.get("labels")) for r in ACCURACY], dtype=CHOICE_DTYPE
            ),
        }
    )
    scores = xf.score(frame, ["accuracy"])["accuracy_score"].to_list()
    out = {r["id"]: int(s == 1.0) for r, s in zip(ACCURACY, scores, strict=True)}
    tcm = pl.DataFrame(
        {
            "prediction": [r["prediction"] for r in TCM],
            "answer": [r["answer"] for r in TCM],
            "tcm_eval_type": [r["tcm_eval_type"] for r in TCM],
            "choices": pl.Series([r["options"] for r in TCM], dtype=CHOICE_DTYPE),
        }
    )
    tcm_scores = xf.score(tcm, ["tcm_diagnosis"])["tcm_diagnosis_score"].to_list()
    for r, s in zip(TCM, tcm_scores, strict=True):
        out[r["id"]] = int(s is not None and s >= TCM_CREDIT)
    return out


def test_the_rows_are_well_formed() -> None:
    rows = ACCURACY + TCM
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids)) and len(ids) >= 200
    assert all(r["expected"] in (0, 1) and r["source"] for r in rows)
    assert {r["kind"] for r in rows} == {"text", "judge", "label", "tcm"}
    assert sum(r["expected"] == 0 for r in rows) >= 60  # wrong answers: no credit
    assert set(ids) >= MISSES, sorted(MISSES - set(ids))  # no stale line in the misses list


def test_no_listed_miss_is_a_false_credit() -> None:
    wrong = {r["id"] for r in ACCURACY + TCM if r["expected"] == 0}
    assert not MISSES & wrong, sorted(MISSES & wrong)


@pytest.mark.parametrize("row", labelled_params(ACCURACY + TCM, MISSES))
def test_score_agrees_with_the_read_verdict(row: dict[str, Any], credited: dict[str, int]) -> None:
    assert credited[row["id"]] == row["expected"], (row["prediction"][-300:], row["answer"])


#: The classes read right on these rows, one written case each way (Chinese where the class
#: has a Chinese form): (prediction, answer, answer_type, expected).
CLASSES = [
    # The subject a describing predicate states (not a restated question's longer name).
    (
        "ATP (Adenosine triphosphate) is the main energy carrier of the cell.",
        "adenosine triphosphate",
        "text",
        1,
    ),
    (
        "The painter and sculptor Henri Matisse was expelled from the group in 1908.",
        "Henri Matisse",
        "text",
        1,
    ),
    ("New York is the largest city in the state.", "York", "text", 0),
    ("The French painter Pablo was a Spanish citizen.", "French", "text", 0),
    # A full date in the other English order.
    ("Poland was invaded by Germany on September 1, 1939.", "1 September 1939", "text", 1),
    ("Poland was invaded by Germany on September 17, 1939.", "1 September 1939", "text", 0),
    # A place head after the name; a linked number or date that lost its spaces.
    ("The Derby is run at Epsom Downs Racecourse every June.", "Epsom Downs", "text", 1),
    ("The team moved to the league in1998after a vote12.", "1998", "text", 1),
    ("The game was released in Japan onMarch 5, 199812.", "1998", "text", 1),
    ("The lead role in the film was played byGene Hackman1.", "Gene Hackman", "text", 1),
    # A relative clause between the subject and its copula is not the answer clause.
    (
        "The quiz show hosted by Bob Holness, where contestants answered letter questions, was "
        'called "Blockbusters."',
        "Blockbusters",
        "text",
        1,
    ),
    (
        "The show hosted by Bob Holness, where contestants beat Catchphrase, was called "
        '"Blockbusters."',
        "Catchphrase",
        "text",
        0,
    ),
    # An initial's period ends no sentence.
    ('Sarah J. Maas wrote the novel "Throne of Glass" in 2012.', "Throne of Glass", "text", 1),
    # A title-case title holding a contraction is no negation.
    ("Don't Stop Me Now was written by Freddie Mercury.", "Freddie Mercury", "text", 1),
    # A claim called a misconception is rejected.
    (
        "It is a common misconception that Edison invented the light bulb; Joseph Swan did.",
        "Edison",
        "text",
        0,
    ),
    ("一个常见的误解是长城在月球上可见。", "长城", "text", 0),
    # A conditional restatement of the question states no answer.
    (
        "The question seems incomplete. However, if you are referring to the Eiffel Tower, it is "
        "repainted every seven years.",
        "Eiffel Tower",
        "text",
        0,
    ),
    ("如果你指的是长城，它在月球上是看不见的。", "长城", "text", 0),
    ("If you mean the 1996 film, it was directed by Danny Boyle.", "Danny Boyle", "text", 1),
    # A sentence still ends after a note letter, a Roman numeral or Jr.
    ("The top string is tuned to the note E. This is the thickest string.", "E", "text", 1),
    ("In 1616 the ruler of England was King James I. He ruled until 1625.", "James I", "text", 1),
    # A full date whose year carries citation digits still contradicts the accepted date.
    ("The novel was published on February 14, 200612.", ["2006", "March 30, 2006"], "text", 0),
    # An undecided true/false conclusion.
    (
        "Let's think step by step. ... Therefore, the answer (Yes or No) is not known.",
        "no",
        "judge",
        0,
    ),
    ("这个问题很难说，答案取决于具体情况。", "否", "judge", 0),
    ("Therefore, the answer (Yes or No) is No.", "no", "judge", 1),
]


@pytest.mark.parametrize("case", CLASSES, ids=[c[0][:40] for c in CLASSES])
def test_each_class_read_right_is_read_right(case: tuple[str, Any, str, int]) -> None:
    prediction, answer, kind, expected = case
    answers = pl.Series(
        [answer if isinstance(answer, list) else [answer]], dtype=pl.List(pl.String)
    )
    frame = pl.DataFrame({"prediction": [prediction], "answer": answers, "answer_type": [kind]})
    out = xf.score(frame, ["accuracy"])
    assert int(out["accuracy_score"][0] == 1.0) == expected, out.row(0)
