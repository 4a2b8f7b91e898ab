from __future__ import annotations

import polars as pl
import pytest

import xpert_frames as xf
from xpert_frames import registry
from xpert_frames.core.exceptions import (
    DuplicateEvaluatorError,
    OptionTypeError,
    UnknownEvaluatorError,
)
from xpert_frames.evaluators import BaseEvaluator


class Exact(BaseEvaluator):
    """Exact string equality."""

    key = "exact_test"
    metric = "exact_test"

    def outputs(self) -> dict[str, pl.Expr]:
        from xpert_frames.core import frames

        return {"score": (pl.col(frames.PRED) == pl.col(frames.ANSWER)).cast(pl.Float64)}


def test_unknown_name_lists_available_and_hints() -> None:
    with pytest.raises(ValueError, match=r"available evaluators: .*fuzzy") as info:
        xf.get_evaluator("fuzy")
    assert isinstance(info.value, UnknownEvaluatorError)
    assert "Did you mean 'fuzzy'" in str(info.value)


def test_register_rejects_non_evaluators(clean_registry) -> None:
    with pytest.raises(TypeError, match="BaseEvaluator"):
        xf.register_evaluator("nope", dict)  # type: ignore[arg-type]


def test_register_does_not_silently_replace(clean_registry) -> None:
    xf.register_evaluator("exact_test", Exact)
    assert "exact_test" in xf.list_evaluators()

    class Other(Exact):
        pass

    with pytest.raises(DuplicateEvaluatorError, match="overwrite=True"):
        xf.register_evaluator("exact_test", Other)
    xf.register_evaluator("exact_test", Other, overwrite=True)
    assert registry.get_record("exact_test").cls is Other


def test_record_holds_the_facts(clean_registry) -> None:
    rec = xf.register_evaluator("exact_test", Exact)
    assert rec.description == "Exact string equality."
    assert rec.score_range == (0.0, 1.0)
    assert rec.options() == {"name": None}
    fuzzy = registry.get_record("fuzzy")
    assert fuzzy.options()["threshold"] == 0.6


def test_custom_evaluator_scores_and_reports(clean_registry) -> None:
    xf.register_evaluator("exact_test", Exact)
    df = pl.DataFrame({"prediction": ["a", "b", None], "answer": ["a", "c", "d"]})
    out = xf.score(df, ["exact_test", "fuzzy"])
    assert out["exact_test_score"].to_list() == [1.0, 0.0, None]
    rep = xf.report(out)
    assert rep["metric"].to_list() == ["exact_test", "fuzzy", "fuzzy_match_rate"]


def test_registered_under_another_name_uses_that_prefix(clean_registry) -> None:
    xf.register_evaluator("my_custom", Exact)
    ev = xf.get_evaluator("my_custom")
    assert ev.name == "my_custom" and ev.score_column == "my_custom_score"


def test_seed_style_custom_evaluator_with_evaluate_only(clean_registry) -> None:
    class MyCustomEvaluator(BaseEvaluator):
        def evaluate(self, predictions, references):
            scores = [
                float(p == r["answer"]["value"])
                for p, r in zip(predictions, references, strict=True)
            ]
            return {"my_metric": self.aggregate_scores(scores)}

    xf.register_evaluator("my_custom", MyCustomEvaluator)
    result = xf.get_evaluator("my_custom").evaluate(["a"], [{"answer": {"value": "a"}}])
    assert result == {"my_metric": {"score": 1.0, "min": 1.0, "max": 1.0, "count": 1}}
    with pytest.raises(NotImplementedError, match="outputs"):
        xf.score(pl.DataFrame({"prediction": ["a"], "answer": ["a"]}), "my_custom")


def test_get_evaluators_routes_options_and_rejects_unknown(clean_registry) -> None:
    xf.register_evaluator("exact_test", Exact)
    evs = xf.get_evaluators(["fuzzy", "exact_test"], threshold=0.8)
    assert evs[0].threshold == 0.8
    with pytest.raises(OptionTypeError, match="belong to none"):
        xf.get_evaluators(["fuzzy", "exact_test"], thresold=0.8)
    with pytest.raises(OptionTypeError, match="name"):
        xf.get_evaluators(["fuzzy", "exact_test"], name="x")


def test_aggregate_scores_seed_semantics() -> None:
    assert xf.aggregate_scores([]) == {"score": 0.0, "min": 0.0, "max": 0.0, "count": 0}
    assert xf.aggregate_scores([1.0, 0.0, 0.5]) == {
        "score": 0.5,
        "min": 0.0,
        "max": 1.0,
        "count": 3,
    }


def test_public_names_importable_from_their_places() -> None:
    import xpert_frames.evaluators as evs

    # The seed's ``xperteval.evaluators`` names: the classes here and in the package; finding
    # them by name (get_evaluator, ...) is the registry's, on the package (the layers contract
    # keeps evaluators from importing the registry).
    for name in ("BaseEvaluator", "FuzzyMatcher", "aggregate_scores"):
        assert getattr(xf, name) is getattr(evs, name)
    for name in ("get_evaluator", "get_evaluators", "list_evaluators", "register_evaluator"):
        assert getattr(xf, name) is getattr(registry, name)
    assert set(xf.__all__) <= set(dir(xf))
    assert set(evs.__all__) <= set(dir(evs))


def test_entry_point_plugins_load(monkeypatch, clean_registry) -> None:
    class EP:
        name = "plugin_exact"
        value = "tests.test_registry:Exact"

        def load(self):
            return Exact

    class Broken(EP):
        name = "plugin_broken"
        value = "missing.module:Thing"

        def load(self):
            raise ImportError("no module named missing")

    monkeypatch.setattr(registry, "entry_points", lambda group: [EP(), Broken()])
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    with pytest.warns(RuntimeWarning, match="plugin_broken"):
        names = xf.list_evaluators()
    assert "plugin_exact" in names and "plugin_broken" not in names
