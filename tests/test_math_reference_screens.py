"""The column screens in front of the math evaluator's per-string reference rules skip only
references the rule would not read: over a column, each rule gives what it gives string by
string (worded references, clock times and ratios, number lists), on generated references
written the way answers are (numbers with units, words, LaTeX wrappers and boxes)."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import examples
from xpert_frames.evaluators.math_answer import worded

PIECES = [
    *"0123456789",
    " ", ".", ",", ";", ":", "!", "$", "*", "~", "\t", "\n", "\r", "'", "-", "=", "^", "_",
    "{", "}", "(", ")", "\\(", "\\)", "\\,", "\\ ",
    "kg", "cm", "No", "yes", "YES", "impossible", "no such", "exists", "Converges", "Bob", "seven",
    "no solution", "\\text{", "\\mathrm{", "\\boxed{", "\\fbox{", "平方厘米", "x", "n",
]  # fmt: skip
REFERENCES = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(REFERENCES, min_size=1, max_size=30))
def test_worded_kind_column_is_the_rule_string_by_string(references: list[str]) -> None:
    column = pl.Series("answer", [*references, None], dtype=pl.String)
    got = pl.select(worded.worded_kind(pl.lit(column))).to_series().to_list()
    assert got == [*(worded.worded_kind_of(r) for r in references), None]


def test_worded_kind_column_reads_numbers_with_words_as_the_rule_does() -> None:
    references = [
        "12.5 kg",
        " $3 \\text{ apples}",
        "16 such numbers: impossible",
        "\\boxed{No} 3",
        "3 \\boxed{\\text{Yes}}",
        ".5 no such n exists",
        "No, 3 is not",
        "\\text{No}",
        "Bob",
    ]
    column = pl.Series("answer", references, dtype=pl.String)
    got = pl.select(worded.worded_kind(pl.lit(column))).to_series().to_list()
    assert got == [worded.worded_kind_of(r) for r in references]
    assert got[-2:] == ["no", "word:bob"] and got[0] is None
