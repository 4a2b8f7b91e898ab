"""Accuracy evaluator on text, label and true/false (judge) answers: the issue-13 cases, the
labelled set (dev and held-out), the per-row oracle, options and the judge metric."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import xpert_frames as xf
from tests.helpers import score_all_paths
from tests.oracles import accuracy_judge as judge_oracle
from tests.oracles import accuracy_text as oracle
from xpert_frames.core import frames
from xpert_frames.evaluators.accuracy import AccuracyEvaluator, judge_match, text_match
from xpert_frames.reporting.report import report

LABELLED = Path(__file__).parent / "data" / "accuracy_text_labelled.jsonl"
SCHEMA: dict[str, Any] = {
    "prediction": pl.String,
    "answer": pl.String,
    "answer_type": pl.String,
    "choices": frames.CHOICE_DTYPE,
}
SENTIMENT = [{"id": "positive", "content": None}, {"id": "negative", "content": None}]


def as_choices(raw: list[Any] | None) -> list[dict[str, str | None]] | None:
    """A label list as written in the labelled set (strings or ``{id, content}``)."""
    if raw is None:
        return None
    return [x if isinstance(x, dict) else {"id": x, "content": None} for x in raw]


def frame(rows: list[dict[str, Any]]) -> pl.DataFrame:
    return pl.DataFrame([{"choices": None, "answer_type": "text"} | r for r in rows], schema=SCHEMA)


def scored(rows: list[dict[str, Any]], **opts: Any) -> pl.DataFrame:
    return xf.score(frame(rows), [AccuracyEvaluator(**opts)])


# --------------------------------------------------------------------------- issue 13
ISSUE_TABLE = [
    ("答案是巴黎", "巴黎", "text", None, 1.0),
    ("The answer is Pacific Ocean.", "Pacific Ocean", "text", None, 1.0),
    ("**Answer:** Paris", "Paris", "text", None, 1.0),
    ("这个说法不正确。", "错误", "judge", None, 1.0),
    ("The sentiment of this review is negative.", "negative", "text", SENTIMENT, 1.0),
    ("答案是：测试文本", "测试文本", "text", None, 1.0),
    ("这首诗的作者不是杜甫，而是李白", "杜甫", "text", None, 0.0),
    ("这首诗的作者不是杜甫，而是李白", "李白", "text", None, 1.0),
    ("Answer: Sydney (…but Canberra is the capital)", "Canberra", "text", None, 0.0),
    ("Answer: Sydney (…but Canberra is the capital)", "Sydney", "text", None, 1.0),
    ("The review is not positive, it is negative", "negative", "text", SENTIMENT, 1.0),
    ("The review is not positive, it is negative", "positive", "text", SENTIMENT, 0.0),
]


@pytest.mark.parametrize(("prediction", "answer", "kind", "choices", "want"), ISSUE_TABLE)
def test_issue_table(
    prediction: str, answer: str, kind: str, choices: list[Any] | None, want: float
) -> None:
    row = {"prediction": prediction, "answer": answer, "answer_type": kind, "choices": choices}
    out = scored([row])
    assert out["accuracy_score"].to_list() == [want]
    if kind == "judge":
        assert judge_oracle.judge_row(prediction, answer)[0] == want
    else:
        assert oracle.text_row(prediction, answer, choices)[0] == want


def test_provenance_columns() -> None:
    movies = [{"id": "A", "content": "Guilty"}, {"id": "B", "content": "Guilty of Romance"}]
    out = scored(
        [
            {"prediction": "答案是巴黎", "answer": "巴黎"},
            {"prediction": "巴黎", "answer": "巴黎"},
            {"prediction": "The answer is $\\boxed{\\text{Newton}}$.", "answer": "Newton"},
            {
                "prediction": "The answer is Guilty of Romance.",
                "answer": "Guilty",
                "choices": movies,
            },
            {"prediction": "positive or negative", "answer": "positive", "choices": SENTIMENT},
            {
                "prediction": "这个说法可能正确，也可能错误。",
                "answer": "对",
                "answer_type": "judge",
            },
            {"prediction": "Not true.", "answer": "T", "answer_type": "judge"},
            {"prediction": "对", "answer": "北京", "answer_type": "judge"},
        ]
    )
    assert out["accuracy_score"].to_list() == [1, 1, 1, 0, 0, 0, 0, 0]
    assert out["accuracy_extracted"].to_list() == [
        "巴黎",
        "巴黎",
        "newton",
        "guilty of romance",
        None,
        None,
        "false",
        "true",
    ]
    assert out["accuracy_rule"].to_list() == [
        "statement",
        "exact",
        "boxed",
        "label:statement",
        "hedge",
        "hedge",
        "sentence",
        "reference",
    ]


def test_extract_text_false_keeps_the_whole_string_comparison() -> None:
    rows: list[dict[str, Any]] = [
        {"prediction": "答案是巴黎", "answer": "巴黎"},
        {"prediction": "巴黎。", "answer": "巴黎"},
        {"prediction": "The sentiment is negative.", "answer": "negative", "choices": SENTIMENT},
    ]
    assert scored(rows)["accuracy_score"].to_list() == [1, 1, 1]
    plain = scored(rows, extract_text=False)
    assert plain["accuracy_score"].to_list() == [0, 1, 0]
    assert plain["accuracy_rule"].to_list() == ["none", "exact", "none"]


def test_seed_options_apply_to_the_span() -> None:
    rows = [
        {"prediction": "答案是北京市", "answer": "北京"},
        {"prediction": "The answer is Paris.", "answer": "paris"},
        {"prediction": "不是北京，而是上海", "answer": "北京"},
    ]
    assert scored(rows)["accuracy_score"].to_list() == [0, 1, 0]
    partial = scored(rows, allow_partial=True)
    assert partial["accuracy_score"].to_list() == [1, 1, 0]
    assert partial["accuracy_rule"].to_list() == ["statement:partial", "statement", "statement"]
    assert scored(rows, case_sensitive=True)["accuracy_score"].to_list() == [0, 0, 0]


def test_nfc_and_width_folding_on_both_sides() -> None:
    rows = [
        {"prediction": "The answer is cafe\u0301.", "answer": "café"},
        {"prediction": "答案是：ＤＮＡ", "answer": "DNA"},
        {"prediction": "Ｔｒｕｅ", "answer": "ｔ", "answer_type": "judge"},
    ]
    assert scored(rows)["accuracy_score"].to_list() == [1, 1, 1]


def test_judge_metric_in_report() -> None:
    rows = [
        {"prediction": "正确", "answer": "对", "answer_type": "judge"},
        {"prediction": "The statement is false.", "answer": "True", "answer_type": "judge"},
        {"prediction": "答案是巴黎", "answer": "巴黎"},
    ]
    ev = AccuracyEvaluator()
    out = score_all_paths(frame(rows), [ev])
    rep = report(out, evaluators=[ev])
    metrics = dict(zip(rep["metric"], rep["score"], strict=True))
    assert metrics["judge_accuracy"] == pytest.approx(0.5)
    assert metrics["text_accuracy"] == pytest.approx(1.0)


def test_expression_functions() -> None:
    df = pl.DataFrame({"p": ["答案：错误", "Answer: **Paris**"], "r": ["×", "paris"]})
    judged = df.select(judge_match("p", "r").struct.field("score")).to_series()
    texts = df.select(text_match("p", "r").struct.field("score")).to_series()
    assert judged.to_list() == [1.0, 0.0]
    assert texts.to_list() == [0.0, 1.0]


# --------------------------------------------------------------------------- labelled set
def labelled_rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in LABELLED.read_text(encoding="utf-8").splitlines()]


def test_labelled_text_judge_label_accuracy() -> None:
    rows = labelled_rows()
    assert len(rows) >= 150
    records = [
        {
            "prediction": r["prediction"],
            "answer": r["answer"],
            "answer_type": r["answer_type"],
            "choices": as_choices(r["choices"]),
        }
        for r in rows
    ]
    out = score_all_paths(frame(records), [AccuracyEvaluator()])
    got = out.with_columns(
        expected=pl.Series([float(r["expected"]) for r in rows]),
        split=pl.Series([r["split"] for r in rows]),
    )
    ok = got["accuracy_score"] == got["expected"]
    accuracy = float(pl.select(ok.cast(pl.Float64).mean()).item() or 0.0)
    by_split = got.with_columns(ok=ok).group_by("split").agg(pl.col("ok").mean()).sort("split")
    print(f"\nlabelled text/judge/label accuracy: {accuracy:.4f}; {by_split.rows()}")
    misses = got.filter(~ok).select("prediction", "answer", "accuracy_extracted").rows()
    assert accuracy >= 0.99, misses
    # The per-row oracle agrees on every labelled answer (score, extracted and rule).
    triples = out.select("accuracy_score", "accuracy_extracted", "accuracy_rule").rows()
    for record, triple in zip(records, triples, strict=True):
        if record["answer_type"] == "judge":
            want = judge_oracle.judge_row(record["prediction"], record["answer"])
        else:
            want = oracle.text_row(record["prediction"], record["answer"], record["choices"])
        assert triple == want, record


# --------------------------------------------------------------------------- choice misses
CHOICE_MISSES = [
    # first-person choice nouns
    ("My choice is (B).", "B"),
    ("Our final selection would be D", "D"),
    # an aside or a manner phrase between the statement and the letter
    ("The answer is by process of elimination, (A).", "A"),
    ("The answer is, based on the second paragraph, C.", "C"),
    ("The answer, after careful consideration, is (C).", "C"),
    # a conclusion heading, and eliminated options listed after a colon
    ("Conclusion: (B). Eliminated: (A), (C), (D).", "B"),
    ("Conclusion: D\nRuled out: A, B and C", "D"),
    # an echoed format placeholder after the answer
    ("ANSWER: B\n\nRemember to answer in the form ANSWER: [LETTER]", "B"),
    ("答案：C\n请按照“答案：<answer>”的格式作答", "C"),
    # a hedge between two options
    ("Answer: A or B", None),
    ("The correct answer is (C) or (D).", None),
    ("答案可能是B或者C", None),
    # a negated list of every option
    ("选项A、B、C、D都不是正确答案。", None),
    ("A、B、C均不正确，应选D", "D"),
    # a maths variable after 为 / is
    ("所以x的值即为a-ae", None),
    ("故所求为b^2+1", None),
    # an answer line that repeats the options
    ("Answer: A) 5 B) 6 C) 7 D) 8", None),
    ("答案：A. 北京 B. 上海 C. 广州 D. 深圳", None),
    ("A) 5 B) 6 C) 7 D) 8\nAnswer: C", "C"),
]


@pytest.mark.parametrize(("prediction", "expected"), CHOICE_MISSES)
def test_choice_miss_classes(prediction: str, expected: str | None) -> None:
    from tests.oracles import accuracy as choice_oracle
    from xpert_frames.reading.choice import extract_choice

    got = pl.DataFrame({"p": [prediction]}).select(extract_choice("p").struct.field("letters"))
    assert got.item() == expected
    assert choice_oracle.extract_choice(prediction)[0] == expected
