"""clean_predictions (the cleaning run only on texts that match its trigger) gives exactly
clean_prediction's texts, and a text without the trigger is one cleaning leaves as it is."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from xpert_frames.reading.markup import (
    CLEAN_SCREEN,
    CLEAN_TRIGGER,
    clean_prediction,
    clean_predictions,
)

TEXTS = [
    "Answer: C\n\nQuestion: what next?",
    "Mount Everest.\nQ: And the second highest?",
    "Paris\n\nWhat is the capital of Italy?\nRome",
    "[类别]婚姻家庭<eoa>",
    'Reply like "The answer is (B)". The answer is (C).',
    "例如：答案是 5。所以答案是 7",
    "所以答案是 42",
    "The answer is 3.",
    "",
    None,
    "E.G. the answer is 4, for instance",
]


def _expected(texts: pl.Series) -> pl.Series:
    return texts.to_frame("p").select(clean_prediction(pl.col("p"))).to_series()


def test_gated_cleaning_equals_cleaning_every_text() -> None:
    texts = pl.Series("p", TEXTS, dtype=pl.String)
    got = clean_predictions(texts)
    assert got.to_list() == _expected(texts).to_list()
    assert got.name == "p"
    assert texts.to_list() == TEXTS  # the input is not modified


def test_no_trigger_no_change_in_texts() -> None:
    texts = pl.Series("p", ["42", "所以答案是 5", "x = 3"], dtype=pl.String)
    assert clean_predictions(texts).to_list() == texts.to_list()


_ALPHABET = st.sampled_from(
    [*'ab 1\n:：?？<>[]【】"“', "Q", "A", "答案是", "例如", "e.g.", "for example", "answer is "]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_ALPHABET, max_size=12).map("".join), min_size=1, max_size=8))
def test_gated_cleaning_equals_cleaning_generated(texts: list[str]) -> None:
    series = pl.Series("p", texts, dtype=pl.String)
    assert clean_predictions(series).to_list() == _expected(series).to_list()
    untouched = ~series.str.contains(CLEAN_TRIGGER)
    assert (series.filter(untouched) == _expected(series).filter(untouched)).all()


def _screened(texts: pl.Series) -> list[bool | None]:
    return texts.str.contains_any(list(CLEAN_SCREEN), ascii_case_insensitive=True).to_list()


def test_literal_screen_admits_exactly_the_trigger_texts() -> None:
    texts = pl.Series(
        [
            "FOR INSTANCE, 3",
            "For Example: 4",
            "for inſtance 5",  # long s: Unicode case folding matches it to s
            "FOR INſTANCE",
            "E.G. 2",
            "e.g 2",
            "forinstance",
            "例如 5",
            "格式如下",
            "【答案】",
            "a < b",
            "[x]",
            "line\nline",
            "所以答案是 42",
            "",
            None,
        ],
        dtype=pl.String,
    )
    assert _screened(texts) == texts.str.contains(CLEAN_TRIGGER).to_list()


_CASED = st.sampled_from(
    [
        *"ab 1.:sSſ\n<[【",
        *("e.g.", "E.G.", "for", "FoR", " ", "example", "EXAMPLE", "in", "tance"),
        *("例如", "比如", "譬如", "示例", "格式如", "例"),
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_CASED, max_size=10).map("".join), min_size=1, max_size=8))
def test_literal_screen_admits_exactly_the_trigger_texts_generated(texts: list[str]) -> None:
    series = pl.Series(texts, dtype=pl.String)
    assert _screened(series) == series.str.contains(CLEAN_TRIGGER).to_list()
