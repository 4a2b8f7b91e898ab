"""TcmDiagnosisEvaluator: XpertEval's own samples, every path, options, provenance, report."""

from __future__ import annotations

import polars as pl
import pytest

import xpert_frames as xf
from tests.helpers import score_all_paths
from tests.oracles import tcm as oracle
from xpert_frames.core.exceptions import InvalidOptionError, OptionTypeError
from xpert_frames.evaluators.tcm.evaluator import TcmDiagnosisEvaluator

# XpertEval's test samples, in the seed's nested reference shape.
SAMPLES = [
    ("患者表现为气虚血瘀证，建议补气活血。", "气虚血瘀证", "syndrome"),
    ("此病属于慢性胃炎，中医辨证为脾胃虚弱。", "慢性胃炎", "disease"),
    ("治法应以补气养阴，活血化瘀为主。", "补气养阴，活血化瘀", "treatment"),
    ("诊断为肝郁脾虚证。", "肝郁气滞证", "syndrome"),
]
#: Expected scores per table. The last sample: under the seed table 肝郁脾虚 → {肝郁} (脾虚 is
#: not in the table) and 肝郁气滞 → {肝郁}, so 1.0; under the default table 肝郁脾虚 is its own
#: syndrome and 肝郁气滞 is 肝郁, two different syndromes, so 0.0.
EXPECTED = {"seed": [1.0, 1.0, 1.0, 1.0], "default": [1.0, 1.0, 1.0, 0.0]}


def seed_frame(rows: list[tuple[str | None, str | None, str | None]]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "prediction": [r[0] for r in rows],
            "reference": [
                {"answer": {"type": "text", "value": r[1]}, "meta": {"tcm_eval_type": r[2]}}
                for r in rows
            ],
        }
    )


@pytest.mark.parametrize("terms", ["seed", "default"])
def test_xperteval_samples(terms: str) -> None:
    ev = TcmDiagnosisEvaluator(terms=terms)
    out = score_all_paths(seed_frame(SAMPLES), [ev])
    assert out["tcm_diagnosis_score"].to_list() == EXPECTED[terms]
    assert out["tcm_diagnosis_type"].to_list() == [s[2] for s in SAMPLES]
    table = oracle.read_table(terms)
    for (pred, ref, kind), want in zip(SAMPLES, EXPECTED[terms], strict=True):
        assert oracle.score_row(pred, ref, kind, table)[0] == want


def test_seed_api_report_shape() -> None:
    ev = TcmDiagnosisEvaluator()
    refs = [
        {"answer": {"type": "text", "value": r}, "meta": {"tcm_eval_type": k}}
        for _, r, k in SAMPLES
    ]
    result = ev.evaluate([p for p, _, _ in SAMPLES], refs)
    assert list(result) == ["tcm_diagnosis", "disease", "syndrome", "treatment"]
    assert result["tcm_diagnosis"] == {"score": 0.75, "min": 0.0, "max": 1.0, "count": 4}
    assert result["syndrome"] == {"score": 0.5, "min": 0.0, "max": 1.0, "count": 2}
    assert result["disease"]["count"] == 1 and result["treatment"]["score"] == 1.0


def test_provenance_and_types() -> None:
    ev = TcmDiagnosisEvaluator()
    out = score_all_paths(seed_frame(SAMPLES), [ev])
    assert out.schema["tcm_diagnosis_matched"] == pl.List(pl.String)
    assert out["tcm_diagnosis_matched"].to_list() == [
        ["气虚血瘀"],
        ["慢性胃炎"],
        ["补气滋阴", "活血化瘀"],
        [],
    ]
    assert out["tcm_diagnosis_missing"].to_list() == [[], [], [], ["肝郁"]]


def test_invalid_rows_null_and_missing_type_is_syndrome() -> None:
    # The seed's default applies where TCM scores a row without a sub-type: with every row
    # scored (all_rows); under the applicability rule such a text row is not a TCM row.
    rows = [(None, "气虚", "syndrome"), ("气虚", "", "disease"), ("气虚证", "气不足", None)]
    out = score_all_paths(seed_frame(rows), [TcmDiagnosisEvaluator()], all_rows=True)
    assert out["tcm_diagnosis_score"].to_list() == [None, None, 1.0]
    # the sub-type is known on invalid rows (reports count them as its skipped rows)
    assert out["tcm_diagnosis_type"].to_list() == ["syndrome", "disease", "syndrome"]


def test_nothing_found_is_zero_not_null() -> None:
    frame = pl.DataFrame(
        {
            "prediction": ["不知道", "", "无"],
            "answer": ["脾虚", "慢性胃炎", "健脾，化痰"],
            "tcm_eval_type": ["syndrome", "disease", "treatment"],
        }
    )
    out = score_all_paths(frame, [TcmDiagnosisEvaluator()])
    assert out["tcm_diagnosis_score"].to_list() == [0.0, 0.0, 0.0]


def test_unknown_subtype_is_null_and_visible_in_report() -> None:
    frame = pl.DataFrame({"prediction": ["气虚"], "answer": ["气虚"], "tcm_eval_type": ["x"]})
    out = score_all_paths(frame, [TcmDiagnosisEvaluator()])
    assert out["tcm_diagnosis_score"].to_list() == [None]
    assert out["tcm_diagnosis_type"].to_list() == ["x"]
    rep = xf.report(out, evaluators=[TcmDiagnosisEvaluator()])
    assert rep.filter(pl.col("metric") == "x")["skipped"].to_list() == [1]


def test_syndrome_reference_with_no_known_term_is_matched_as_itself() -> None:
    """Contained in the prediction (with or without 证): 1.0; else the fuzzy fallback."""
    frame = pl.DataFrame(
        {
            "prediction": [
                "阴阳失调吧",
                "完全无关的回答内容",
                "阴阳失调",
                "阴阳失和",
                "证属阴阳失调。",
            ],
            "answer": ["阴阳失调", "阴阳失调", "阴阳失调", "阴阳失调", "阴阳失调证"],
        }
    )
    out = score_all_paths(frame, [TcmDiagnosisEvaluator()])
    assert out["tcm_diagnosis_score"].to_list() == [1.0, 0.0, 1.0, 0.75, 1.0]
    assert out["tcm_diagnosis_matched"].to_list()[4] == ["阴阳失调"]
    strict = xf.score(frame, [TcmDiagnosisEvaluator(exact_match=True)])
    assert strict["tcm_diagnosis_score"].to_list() == [0.0, 0.0, 1.0, 0.0, 0.0]
    loose = xf.score(frame, [TcmDiagnosisEvaluator(match_threshold=0.9)])
    assert loose["tcm_diagnosis_score"].to_list() == [1.0, 0.0, 1.0, 0.0, 1.0]


def test_disease_rules() -> None:
    preds = ["慢性胃炎。", "慢性浅表性胃炎", "糖尿病", "２型糖尿病", "痹证", "胃炎病", "诊断为痹证"]
    refs = ["慢性胃炎病", "慢性胃炎", "糖尿病", "2型糖尿病", "痹证", "胃炎", "痹证"]
    frame = pl.DataFrame({"prediction": preds, "answer": refs, "tcm_eval_type": "disease"})
    table = oracle.read_table("default")
    for opts in ({}, {"partial_credit": False}, {"match_threshold": 0.5}, {"exact_match": True}):
        out = score_all_paths(frame, [TcmDiagnosisEvaluator(**opts)])
        pairs = zip(preds, refs, strict=True)
        want = [oracle.score_row(p, r, "disease", table, **opts)[0] for p, r in pairs]
        assert out["tcm_diagnosis_score"].to_list() == pytest.approx(want, abs=1e-12)
    assert want[:1] == [1.0] and want[-1] == 1.0


def test_treatment_uses_synonyms_only_when_normalizing() -> None:
    frame = pl.DataFrame(
        {"prediction": ["治以益气养血"], "answer": ["补气、补血"], "tcm_eval_type": "treatment"}
    )
    assert xf.score(frame, [TcmDiagnosisEvaluator()])["tcm_diagnosis_score"][0] == 1.0
    off = xf.score(frame, [TcmDiagnosisEvaluator(normalize_tcm_terms=False)])
    assert off["tcm_diagnosis_score"][0] == 0.0


def test_options_validated() -> None:
    with pytest.raises(InvalidOptionError, match="match_threshold"):
        TcmDiagnosisEvaluator(match_threshold=1.5)
    with pytest.raises(OptionTypeError, match="exact_match"):
        TcmDiagnosisEvaluator(exact_match="yes")  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="keywords_weight"):
        TcmDiagnosisEvaluator(keywords_weight=-0.1)
    with pytest.raises(TypeError):
        TcmDiagnosisEvaluator(threshold=0.5)  # type: ignore[call-arg]
    ev = TcmDiagnosisEvaluator(terms="seed", name="tcm_seed")
    assert ev == TcmDiagnosisEvaluator(terms="seed", name="tcm_seed")
    assert ev != TcmDiagnosisEvaluator(name="tcm_seed")
    assert "TermTable('seed'" in repr(ev)


def test_named_instances_side_by_side() -> None:
    evs = [TcmDiagnosisEvaluator(terms="seed", name="seed"), TcmDiagnosisEvaluator()]
    out = score_all_paths(seed_frame(SAMPLES), evs)
    assert out["seed_score"].to_list() == EXPECTED["seed"]
    assert out["tcm_diagnosis_score"].to_list() == EXPECTED["default"]


def test_public_expressions() -> None:
    from xpert_frames.evaluators.tcm import evaluator as tcm

    df = pl.DataFrame(
        {"t": ["辨证为脾气虚弱兼肝郁气滞，治以健脾益气。"], "r": ["补气、健脾；滋阴"]}
    )
    got = df.select(
        tcm.tcm_terms("t").alias("default"),
        tcm.tcm_terms(pl.col("t"), terms="seed").alias("seed"),
        tcm.tcm_terms("t", normalize=False).alias("literal"),
        tcm.normalize_tcm_text("t").alias("norm"),
        tcm.treatment_keywords("r").alias("kw"),
        tcm.disease_text(pl.lit("慢性胃炎病。")).alias("dis"),
    ).row(0, named=True)
    assert got["default"] == ["脾虚", "肝郁"]  # 健脾/益气 are treatment terms, not syndromes
    assert got["seed"] == ["气虚", "肝郁"]  # the seed maps 脾气虚 to 气虚
    assert got["literal"] == ["气虚", "肝郁", "气滞"]  # canonical terms only, as written
    assert got["norm"] == "辨证为脾虚兼肝郁，治以健脾补气。"
    assert got["kw"] == ["补气", "健脾", "滋阴"]
    assert got["dis"] == "慢性胃炎"
    with pytest.raises(OptionTypeError, match="normalize"):
        tcm.tcm_terms("t", normalize=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptionError, match="keywords_weight"):
        tcm.set_similarity("a", "b", keywords_weight=2)


def test_registry_integration(monkeypatch: pytest.MonkeyPatch) -> None:
    from xpert_frames import registry
    from xpert_frames.registry import get_evaluator, register_evaluator

    # On a copy of the registry (restored afterwards); idempotent if already built in.
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    register_evaluator("tcm_diagnosis", TcmDiagnosisEvaluator)
    ev = get_evaluator("tcm_diagnosis", terms="seed")
    assert ev == TcmDiagnosisEvaluator(terms="seed")
    scored = xf.score(seed_frame(SAMPLES), [ev])
    rep = xf.report(scored)  # evaluators found from the score column
    assert rep["metric"].to_list() == ["tcm_diagnosis", "disease", "syndrome", "treatment"]
    with pytest.raises(OptionTypeError, match="match_threshold"):
        get_evaluator("tcm_diagnosis", match_treshold=0.5)


def test_rows_it_does_not_fit_have_no_subtype_in_reports() -> None:
    frame = pl.DataFrame(
        {
            "prediction": ["证属肾阳虚。", "B", "诊断为慢性胃炎"],
            "answer": ["肾阳虚证", "B", "慢性胃炎"],
            "answer_type": ["text", "choice", "text"],
            "tcm_eval_type": ["syndrome", None, "disease"],
        }
    )
    out = score_all_paths(frame, [TcmDiagnosisEvaluator()])
    assert out["tcm_diagnosis_type"].to_list() == ["syndrome", None, "disease"]
    rep = xf.report(out, evaluators=[TcmDiagnosisEvaluator()])
    rows = {r["metric"]: r for r in rep.iter_rows(named=True)}
    assert rows["tcm_diagnosis"]["not_applicable"] == 1
    assert rows["syndrome"]["not_applicable"] == 0 and rows["syndrome"]["count"] == 1


def test_tcm_named_tcm_keeps_the_canonical_subtype_column() -> None:
    df = pl.DataFrame(
        {
            "prediction": ["气虚证", "胃痛"],
            "answer": ["气虚证", "胃痛"],
            "tcm_eval_type": ["syndrome", "disease"],
        }
    )
    # The evaluator after it reads the canonical __xf_tcm_eval_type, which a prefix match
    # on __xf_tcm_ dropped.
    out = xf.score(df, [TcmDiagnosisEvaluator(name="tcm"), TcmDiagnosisEvaluator(name="t2")])
    assert out["tcm_score"].to_list() == out["t2_score"].to_list() == [1.0, 1.0]
    assert out["t2_type"].to_list() == ["syndrome", "disease"]
    assert not [c for c in out.columns if c.startswith("__xf")]


def test_reference_without_meta_reads_the_meta_column() -> None:
    df = pl.DataFrame(
        {
            "prediction": ["慢性胃炎"],
            "reference": [{"answer": {"type": "text", "value": "慢性胃炎"}}],
            "meta": [{"tcm_eval_type": "disease"}],
        }
    )
    assert xf.score(df, "tcm_diagnosis")["tcm_diagnosis_type"].to_list() == ["disease"]


def test_a_row_without_reference_is_kept_and_scored_null() -> None:
    """A null reference beside rows whose reference names no known term: every row stays (a null
    condition once dropped it from both scoring branches, and the column came back short)."""
    frame = pl.DataFrame(
        {"prediction": ["3", "3", "3", "气虚"], "answer": ["3", "3", None, "气虚证"]}
    )
    for engine in ("in-memory", "streaming"):
        out = xf.score(frame.lazy(), ["tcm_diagnosis"]).collect(engine=engine)  # type: ignore[call-overload]
        assert out["tcm_diagnosis_score"].to_list()[:3] == [1.0, 1.0, None]
        assert out.height == 4
