"""The number after an answer statement (``numeric.rules._statement``): the clause after the last
statement, its part after the last ``=``, the sentence when the clause has no number, and texts
that the marker screen lets through without holding a statement."""

from __future__ import annotations

import polars as pl
import pytest

from xpert_frames.reading.numeric.parse import extract_number


def read(text: str) -> tuple[object, object]:
    (got,) = pl.DataFrame({"t": [text]}).select(extract_number("t"))["t"].to_list()
    return got["value"], got["rule"]


@pytest.mark.parametrize(
    ("text", "value", "rule"),
    [
        # the clause ends at its first clause or sentence end, whichever comes first
        ("The answer is: 1.5, 2.5 and 3.", 1.5, "statement"),
        ("Answer :  7, because 2+5", 7.0, "statement"),
        ("the answer is 6/2 = 3, not 4", 3.0, "statement"),
        # an '=' after a thousands comma or a decimal point is still the clause's last '='
        ("The answer is 1,000 + 500 = 1,500.", 1500.0, "statement"),
        ("故x=2.5=5/2，即", 2.5, "statement"),
        # the last statement of several
        ("答案是3。最终答案：5", 5.0, "statement"),
        ("\\boxed{4}. So the answer is 6", 6.0, "statement"),
        ("#### 1,250.5\n", 1250.5, "statement"),
        # a clause without a number: the sentence's number, then its number words
        ("答案是：如下，共12个。", 12.0, "statement"),
        ("The answer is twelve.", 12.0, "statement"),
        ("因此。", None, "none"),
    ],
)
def test_statement_reads_the_clause_after_the_last_statement(
    text: str, value: float | None, rule: str
) -> None:
    got_value, got_rule = read(text)
    assert got_rule == rule
    assert got_value == (None if value is None else pytest.approx(value))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Both answers: 3 and 4", 4.0),  # "answer" without a statement
        ("结果8，然后是9", 9.0),  # 结果 without 是/为
        ("The answer key lists 5 then 6", 6.0),
    ],
)
def test_marker_words_without_a_statement_leave_the_last_number(text: str, value: float) -> None:
    assert read(text) == (pytest.approx(value), "last")
