"""Property tests of text, label and judge scoring: a correct answer wrapped in any answer
statement scores 1, a different label wrapped the same way scores 0, and the columnar path
equals the per-row oracle on random texts built from the pieces the rules key on."""

from __future__ import annotations

from typing import Any

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import xpert_frames as xf
from tests.helpers import examples, score_all_paths
from tests.oracles import accuracy as row_oracle
from xpert_frames.core import frames
from xpert_frames.evaluators.accuracy import AccuracyEvaluator

SCHEMA: dict[str, Any] = {
    "prediction": pl.String,
    "answer": pl.String,
    "answer_type": pl.String,
    "choices": frames.CHOICE_DTYPE,
}
LABEL_SETS = [
    ["Paris", "London", "Berlin", "Madrid"],
    ["北京", "上海", "广州", "深圳"],
    ["positive", "negative", "neutral"],
    ["entailment", "contradiction", "neutral"],
    ["Pacific Ocean", "Atlantic Ocean", "Indian Ocean"],
    ["Guilty", "Guilty of Romance", "Cold Fish"],
    ["Jane Austen", "Charles Dickens", "Mark Twain"],
    ["光合作用", "呼吸作用", "蒸腾作用"],
]
STATEMENTS = [
    "{}",
    "{}。",
    "答案是{}",
    "答案是：{}。",
    "答案为{}",
    "故答案为：{}。",
    "【答案】{}",
    "最终答案：{}",
    "所以答案是{}。",
    "综上所述，答案是{}。",
    "The answer is {}.",
    "the answer is: {}",
    "Answer: {}",
    "**Answer:** {}",
    "Final answer: {}",
    "I think the answer is {}.",
    "My answer is {}.",
    "The correct answer is {}, because the passage says so.",
    "$\\boxed{{{}}}$",
    "The final answer is $\\boxed{{\\text{{{}}}}}$.",
    "**{}**",
]
PREFIXES = [
    "",
    "Let's think step by step. ",
    "Let's think step by step.\n\n",
    "首先分析题意。",
    "首先，我们需要仔细阅读题目。\n",
    "Based on the passage, ",
    "好的，",
]
DECOR = [("", ""), ('"', '"'), ("“", "”"), ("**", "**"), ("「", "」")]
PROPS = settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


BARE = ("{}", "{}。", "**{}**")


def wrap(template: str, answer: str, decor: tuple[str, str], prefix: str) -> str:
    """``answer`` in a statement after a chain-of-thought ``prefix`` (a bare answer goes on a
    line of its own, as models write it)."""
    if template in BARE and prefix and not prefix.endswith("\n"):
        prefix += "\n"
    return prefix + template.format(decor[0] + answer + decor[1])


def frame(records: list[dict[str, Any]]) -> pl.DataFrame:
    return pl.DataFrame(records, schema=SCHEMA)


def labels(items: list[str]) -> list[dict[str, str | None]]:
    return [{"id": chr(65 + i), "content": c} for i, c in enumerate(items)]


ROW = st.tuples(
    st.sampled_from(LABEL_SETS),
    st.integers(0, 3),
    st.integers(1, 3),
    st.sampled_from(STATEMENTS),
    st.sampled_from(DECOR),
    st.sampled_from(PREFIXES),
    st.booleans(),
)


@PROPS
@given(st.lists(ROW, min_size=1, max_size=20))
def test_wrapped_answer_scores_one_and_other_label_zero(rows: list[tuple[Any, ...]]) -> None:
    records = []
    wants = []
    for items, i, shift, template, decor, prefix, with_labels in rows:
        right = items[i % len(items)]
        other = items[(i + shift) % len(items)]
        wrong = wrap(template, other, decor, prefix)
        for pred, want in ((wrap(template, right, decor, prefix), 1.0), (wrong, 0.0)):
            if want == 0.0 and (right in other or other in right):
                continue  # "Guilty" inside "Guilty of Romance": not a different answer
            records.append(
                {
                    "prediction": pred,
                    "answer": right,
                    "answer_type": "text",
                    "choices": labels(items) if with_labels else None,
                }
            )
            wants.append(want)
    # One path here: the four paths are compared on random texts in test_columnar_equals_oracle.
    out = xf.score(frame(records), [AccuracyEvaluator()])
    for record, got, want in zip(records, out["accuracy_score"], wants, strict=True):
        assert got == want, record


JUDGE_WORDS = [
    ("正确", "true"),
    ("错误", "false"),
    ("对", "true"),
    ("错", "false"),
    ("√", "true"),
    ("×", "false"),
    ("True", "true"),
    ("false", "false"),
    ("Yes", "true"),
    ("No", "false"),
    ("correct", "true"),
    ("incorrect", "false"),
    ("不正确", "false"),
    ("not true", "false"),
]
JUDGE_REFS = {"true": ["正确", "对", "√", "T", "true", "Yes"], "false": ["错误", "×", "F", "No"]}


@PROPS
@given(
    st.lists(
        st.tuples(
            st.sampled_from(JUDGE_WORDS),
            st.sampled_from(STATEMENTS),
            st.sampled_from(PREFIXES),
            st.integers(0, 5),
            st.booleans(),
        ),
        min_size=1,
        max_size=20,
    )
)
def test_wrapped_judgement_scores_by_its_value(rows: list[tuple[Any, ...]]) -> None:
    records, wants = [], []
    for (word, value), template, prefix, k, same in rows:
        want_value = value if same else ("false" if value == "true" else "true")
        refs = JUDGE_REFS[want_value]
        records.append(
            {
                "prediction": wrap(template, word, ("", ""), prefix),
                "answer": refs[k % len(refs)],
                "answer_type": "judge",
                "choices": None,
            }
        )
        wants.append(1.0 if same else 0.0)
    out = xf.score(frame(records), [AccuracyEvaluator()])  # one path, as above
    for record, got, want in zip(records, out["accuracy_score"], wants, strict=True):
        assert got == want, record


# --------------------------------------------------------------------------- oracle
FRAGMENTS = [
    *"ABab ,.;:!?()[]{}*\n",
    *"，。；：！？（）【】「」“”",
    "**",
    "__",
    "`",
    "$",
    "\\boxed{",
    "\\text{",
    "}",
    "答案是",
    "答案：",
    "答：",
    "而是",
    "不是",
    "并非",
    "所以",
    "因此",
    "综上",
    "是",
    "为",
    "the answer is ",
    "Answer: ",
    "Final answer: ",
    "I think it is ",
    " is ",
    "So ",
    "Therefore, ",
    "not ",
    "no ",
    "isn't ",
    "don't ",
    "rather than ",
    " because ",
    "The ",
    "an ",
    "Paris",
    "paris",
    "London",
    "北京",
    "上海",
    "positive",
    "negative",
    "non-negative",
    "Guilty",
    "Guilty of Romance",
    "正确",
    "错误",
    "对",
    "错",
    "不对",
    "没错",
    "√",
    "×",
    "true",
    "false",
    "True",
    "yes",
    "No",
    "not true",
    "可能",
    "whether",
    " is the answer",
    " would be the correct answer",
    "是正确答案",
    "应该是",
    "maybe ",
    "neither ",
    " nor ",
    "It's ",
    "吧",
    "（",
    "）",
    " — ",
    "partially ",
    " wrote ",
    "most likely ",
    "“",
    "”",
    " hosts ",
    "是真的",
    "假",
    "ＰＡＲＩＳ",
    "cafe\u0301",
    "café",
    "✗",
    "   ",
]
TEXT = st.lists(st.sampled_from(FRAGMENTS), max_size=16).map("".join)
LABEL_CHOICES = st.sampled_from(
    [
        None,
        [],
        labels(["Paris", "London"]),
        labels(["positive", "negative"]),
        labels(["Guilty", "Guilty of Romance"]),
        labels(["北京", "上海", "北京"]),
        [{"id": "positive", "content": None}, {"id": "negative", "content": None}],
        [{"id": "A", "content": "  "}, {"id": "B", "content": "Paris!"}],
    ]
)
REFS = st.sampled_from(
    [
        *("Paris", "paris", "北京", "positive", "negative", "Guilty", "Guilty of Romance"),
        *("café", "正确", "错", "T", "false", "√", "yes", "maybe"),
    ]
)
OPTIONS = st.sampled_from(
    [
        {},
        {"case_sensitive": True},
        {"allow_partial": True},
        {"exact_match": False, "allow_partial": True},
        {"extract_text": False},
    ]
)
PATHS = settings(
    max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PATHS
@given(
    st.lists(
        st.tuples(TEXT, REFS, st.sampled_from(["text", "judge", None]), LABEL_CHOICES),
        min_size=1,
        max_size=30,
    ),
    OPTIONS,
)
def test_columnar_equals_oracle(rows: list[tuple[Any, ...]], opts: dict[str, Any]) -> None:
    records = [
        {"prediction": p, "answer": r, "answer_type": k, "choices": c} for p, r, k, c in rows
    ]
    out = score_all_paths(frame(records), [AccuracyEvaluator(**opts)])
    got = out.select("accuracy_score", "accuracy_extracted", "accuracy_rule").rows()
    for record, triple in zip(records, got, strict=True):
        # The whole row as the oracle reads it: the prediction cleaned of markup first (a text
        # ending in white space inside a bracket, ``[not ``, is read as ``[not``).
        want = row_oracle.score_row(
            record["prediction"], record["answer"], record["answer_type"], record["choices"], **opts
        )
        assert triple == want, record
