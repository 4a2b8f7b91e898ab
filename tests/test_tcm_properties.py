"""Property tests: the columnar TCM rules against the plain-Python oracle."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import examples, score_all_paths
from tests.oracles import tcm as oracle
from xpert_frames.evaluators.tcm.evaluator import TcmDiagnosisEvaluator, set_similarity

TABLES = {name: oracle.read_table(name) for name in ("seed", "default")}
TERMS = sorted({s for t in TABLES.values() for s in t.mapping})
FILLER = list("患者表现为证病治法以主和及脾肝肾气血阴阳虚瘀湿热，。、；,./ ＡＢ２ab\u3000")
FRAGMENT = st.one_of(st.sampled_from(TERMS), st.sampled_from(FILLER), st.just("\x02"))
TEXT = st.lists(FRAGMENT, max_size=8).map("".join)
OPTIONS = st.fixed_dictionaries(
    {
        "match_threshold": st.sampled_from([0.0, 0.5, 0.7, 1.0]),
        "exact_match": st.booleans(),
        "partial_credit": st.booleans(),
        "keywords_weight": st.sampled_from([0.0, 0.6, 1.0, 0.25]),
        "normalize_tcm_terms": st.booleans(),
    }
)
SETS = st.lists(st.sampled_from("abcdefg"), max_size=6)


@settings(max_examples=examples(200), deadline=None)
@given(
    rows=st.lists(st.tuples(SETS, SETS), min_size=1, max_size=20),
    exact=st.booleans(),
    partial=st.booleans(),
    weight=st.floats(0, 1),
)
def test_set_similarity_is_the_seed_function(
    rows: list[tuple[list[str], list[str]]], exact: bool, partial: bool, weight: float
) -> None:
    frame = pl.DataFrame(
        {"p": [r[0] for r in rows], "r": [r[1] for r in rows]},
        schema={"p": pl.List(pl.String), "r": pl.List(pl.String)},
    )
    got = frame.select(
        set_similarity("p", "r", exact_match=exact, partial_credit=partial, keywords_weight=weight)
    ).to_series()
    want = [
        oracle.calculate_set_similarity(set(p), set(r), exact, partial, weight) for p, r in rows
    ]
    assert got.to_list() == pytest.approx(want, abs=1e-12)


@settings(max_examples=examples(60), deadline=None)
@given(
    rows=st.lists(
        st.tuples(TEXT, TEXT, st.sampled_from(["syndrome", "disease", "treatment", None])),
        min_size=1,
        max_size=12,
    ),
    options=OPTIONS,
    terms=st.sampled_from(["seed", "default"]),
)
def test_rows_match_the_oracle(
    rows: list[tuple[str, str, str | None]], options: dict[str, object], terms: str
) -> None:
    frame = pl.DataFrame(
        {
            "prediction": [r[0] for r in rows],
            "answer": [r[1] for r in rows],
            "tcm_eval_type": [r[2] for r in rows],
        },
        schema={"prediction": pl.String, "answer": pl.String, "tcm_eval_type": pl.String},
    )
    out = score_all_paths(frame, [TcmDiagnosisEvaluator(terms=terms, **options)])  # type: ignore[arg-type]
    table = TABLES[terms]
    for (pred, ref, kind), got in zip(rows, out.iter_rows(named=True), strict=True):
        if not ref.strip():
            assert got["tcm_diagnosis_score"] is None
            continue
        score, matched, missing = oracle.score_row(pred, ref, kind, table, **options)  # type: ignore[arg-type]
        assert got["tcm_diagnosis_score"] == pytest.approx(score, abs=1e-12), (pred, ref, kind)
        assert sorted(got["tcm_diagnosis_matched"]) == sorted(matched or [])
        assert sorted(got["tcm_diagnosis_missing"]) == sorted(missing or [])


# Sentences that reject what they name beside ones that conclude, in every sub-type: the
# committed conclusion is read once per distinct text of each rule's rows (and on the rows
# matched by name), and must give the oracle's row-by-row reading.
# A few names, so that a reference is often the name a rejecting sentence sets aside.
NAMES = ["脾虚", "肝郁", "气虚", "血瘀", "脾虚肝旺", "补气", "健脾", "慢性胃炎", "胃痛"]
WORDS = ["其他选项如", "并不符合", "排除", "而非", "因此答案是", "辨证为", "，", "、"]
SENTENCE = st.lists(
    st.one_of(st.sampled_from(NAMES), st.sampled_from(WORDS)), min_size=1, max_size=5
).map(lambda parts: "".join(parts) + "。")
ANSWER_TEXT = st.lists(SENTENCE, min_size=1, max_size=3).map("".join)
REFERENCE = st.one_of(
    st.sampled_from(NAMES), st.sampled_from(["脾虚肝旺证", "补气、健脾", "气虚，血瘀证"])
)


@settings(max_examples=examples(60), deadline=None)
@given(
    rows=st.lists(
        st.tuples(ANSWER_TEXT, REFERENCE, st.sampled_from(["syndrome", "disease", "treatment"])),
        min_size=1,
        max_size=12,
    ),
)
def test_rejecting_sentences_read_like_the_oracle_in_every_subtype(
    rows: list[tuple[str, str, str]],
) -> None:
    rows = rows + rows[:3]  # repeated texts, read once per distinct text
    frame = pl.DataFrame(
        {
            "prediction": [r[0] for r in rows],
            "answer": [r[1] for r in rows],
            "tcm_eval_type": [r[2] for r in rows],
        },
        schema={"prediction": pl.String, "answer": pl.String, "tcm_eval_type": pl.String},
    )
    out = score_all_paths(frame, [TcmDiagnosisEvaluator()])
    table = TABLES["default"]
    for (pred, ref, kind), got in zip(rows, out.iter_rows(named=True), strict=True):
        score, matched, missing = oracle.score_row(pred, ref, kind, table)
        assert got["tcm_diagnosis_score"] == pytest.approx(score, abs=1e-12), (pred, ref, kind)
        assert sorted(got["tcm_diagnosis_matched"]) == sorted(matched or [])
        assert sorted(got["tcm_diagnosis_missing"]) == sorted(missing or [])
