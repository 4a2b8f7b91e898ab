"""Scoring of text, label and true/false (``judge``) rows of the accuracy evaluator.

* text: the stated answer (:mod:`xpert_frames.reading.text`) under the
  seed's rules (``exact_match``, ``case_sensitive``, ``allow_partial``); a prediction that
  equals the reference as a whole still scores 1 (rule ``exact``). ``extract_text=False``
  keeps the seed's whole-string comparison.
* labels: a text row whose ``choices`` hold candidate labels and whose reference is one of them
  scores the label the prediction states (rule ``label:<span rule>``; two labels: ``hedge``).
* judge: prediction and reference mapped to ``true`` / ``false``.

Every result is ``Struct{score, extracted, rule}``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import polars as pl

from xpert_frames.core import text
from xpert_frames.core.aliases import IntoExpr
from xpert_frames.core.exceptions import InvalidOptionError
from xpert_frames.core.frames import CHOICE_DTYPE
from xpert_frames.core.options import check_bool
from xpert_frames.reading import core_answer as ca
from xpert_frames.reading import labels as al
from xpert_frames.reading import text as ae
from xpert_frames.reading import text_rules as ap
from xpert_frames.reading.citations import without_citations
from xpert_frames.reading.clauses import (
    UNDECIDED_TRIGGER,
    clauses_match,
    several_clauses,
    undecided,
)
from xpert_frames.reading.label_variants import variant_frame
from xpert_frames.reading.symbols import symbols_only, symbols_stated

#: Whitespace and Unicode punctuation (ASCII and Chinese alike) at either end.
_ENDS = r"^[\s\p{P}]+|[\s\p{P}]+$"
RESULT_DTYPE = pl.Struct({"score": pl.Float64, "extracted": pl.String, "rule": pl.String})


def result(score: pl.Expr, extracted: pl.Expr, rule: pl.Expr) -> pl.Expr:
    return pl.struct(
        score.cast(pl.Float64).alias("score"),
        extracted.cast(pl.String).alias("extracted"),
        rule.cast(pl.String).alias("rule"),
    )


def normalize_text(value: IntoExpr, *, case_sensitive: bool = False) -> pl.Expr:
    """Full-width to half-width, whitespace and punctuation stripped at both ends, lower-cased
    unless ``case_sensitive``: ``" 北京。"`` -> ``"北京"``, ``"Ｐａｒｉｓ!"`` -> ``"paris"``."""
    case_sensitive = check_bool("case_sensitive", case_sensitive)
    out = text.full_to_half(text.to_expr(value)).str.replace_all(_ENDS, "")
    return out if case_sensitive else out.str.to_lowercase()


def check_text_options(exact_match: object, allow_partial: object) -> tuple[bool, bool]:
    exact = check_bool("exact_match", exact_match)
    partial = check_bool("allow_partial", allow_partial)
    if not exact and not partial:
        raise InvalidOptionError(
            "exact_match=False with allow_partial=False leaves no way for a text answer to "
            "match (every text row would score 0); set exact_match=True, allow_partial=True, "
            "or both"
        )
    return exact, partial


def whole_outcome(
    pred: pl.Expr, ref: pl.Expr, *, exact_match: bool, allow_partial: bool
) -> pl.Expr:
    """The seed's comparison of already normalized whole texts."""
    empty = (pred.str.len_bytes() == 0) | (ref.str.len_bytes() == 0)
    exact = pl.lit(exact_match) & (pred == ref)
    partial = pl.lit(allow_partial) & (
        pred.str.contains(ref, literal=True) | ref.str.contains(pred, literal=True)
    )
    rule = (
        pl.when(empty)
        .then(pl.lit("empty"))
        .when(exact)
        .then(pl.lit("exact"))
        .when(partial)
        .then(pl.lit("partial"))
        .otherwise(pl.lit("none"))
    )
    score = pl.when(rule.is_in(["exact", "partial"])).then(1.0).otherwise(0.0)
    return result(score, pred, rule)


def text_outcome(*, exact_match: bool, allow_partial: bool) -> pl.Expr:
    """Text result over the columns of :func:`text_frame`: ``whole`` (normalized prediction),
    ``ew`` (normalized, negation-erased), ``tref`` (normalized reference) and the stated answer
    (:func:`~xpert_frames.reading.text.stated_text_frame`). The stated answer
    matches when its span, its uncut span, the copula's subject or (copula and line rules) the
    first sentence equals the reference."""
    whole, erased, ref = pl.col("whole"), pl.col("erased_whole"), pl.col("text_reference")
    value, rule = pl.col("span"), pl.col("span_rule")
    matched = _matched()
    empty = (whole.str.len_bytes() == 0) | (ref.str.len_bytes() == 0)
    span_partial = value.str.contains(ref, literal=True) | ref.str.contains(value, literal=True)
    whole_partial = erased.str.contains(ref, literal=True) | ref.str.contains(erased, literal=True)
    exact, partial = pl.lit(exact_match), pl.lit(allow_partial)
    decided = (
        pl.when(empty)
        .then(pl.lit("empty"))
        .when(exact & (whole == ref))
        .then(pl.lit("exact"))
        .when(pl.col("hedge"))
        .then(pl.lit("hedge"))
        .when(exact & matched.is_not_null())
        .then(rule)
        .when(exact & pl.col("core"))
        .then(pl.concat_str([pl.lit("core:"), rule.fill_null(pl.lit("sentence"))]))
        .when(partial & span_partial.fill_null(False))
        .then(pl.concat_str([rule, pl.lit(":partial")]))
        .when(partial & (erased.str.len_bytes() > 0) & whole_partial)
        .then(pl.lit("partial"))
        .otherwise(pl.lit(None))
    )
    missed = decided.is_in(["empty", "hedge"]) | decided.is_null()
    score = pl.when(missed).then(0.0).otherwise(1.0)
    # A wrong answer still names the rule that read it (``none``: nothing was read).
    decided = pl.coalesce(decided, rule, pl.lit("none"))
    shown = (
        pl.when(decided == "exact")
        .then(whole)
        .when(exact & matched.is_not_null())
        .then(matched)
        .otherwise(pl.coalesce(value, whole))
    )
    return result(score, shown, decided)


def _matched() -> pl.Expr:
    """The stated answer's candidate that equals the reference (its span, its uncut span, the
    copula's subject, the first sentence, a reference that opens the first sentence as the
    subject of a verb: ``George Orwell wrote``); null if none."""
    ref, rule = pl.col("text_reference"), pl.col("span_rule")
    lead = pl.when(rule.is_in(["copula", "quoted", "line"])).then(pl.col("lead"))
    rest = lead.str.slice(ref.str.len_chars() + 1)
    opens = lead.str.starts_with(pl.concat_str([ref, pl.lit(" ")])) & rest.str.contains(
        ap.SUBJECT_VERB
    )
    candidates = [pl.col("span"), pl.col("full"), pl.col("subject"), lead]
    candidates.append(pl.when(opens).then(ref))
    return pl.coalesce(pl.when(c == ref).then(c) for c in candidates)


def core_column(df: pl.DataFrame, *, case_sensitive: bool) -> pl.DataFrame:
    """Column ``core``: whether the reference is stated in the answer clause
    (:mod:`xpert_frames.reading.core_answer`), computed only on the rows that the exact
    comparisons leave open (others: false)."""
    whole, ref = pl.col("whole"), pl.col("text_reference")
    open_rows = (
        (whole.str.len_bytes() > 0)
        & (ref.str.len_bytes() > 0)
        & (whole != ref)
        & ~pl.col("hedge")
        & _matched().is_null()
        & ~pl.col("labelled")
    )
    index = df.select(pl.arg_where(open_rows.fill_null(False))).to_series()
    core = pl.Series("core", [False] * df.height)
    if index.len():
        said = (
            pl.col("erased").str.replace_all(r"\*\*|__", ""),
            pl.col("span_rule"),
            pl.col("raw_span"),
        )
        sub = df[index].select(
            ca.answer_clause(*said).alias("clause"),
            ca.answer_subject(*said).alias("subject"),
            ae.prepare("reference").alias("ref"),
        )
        # Once per distinct (clause, subject, reference), gathered back to the rows.
        distinct = sub.unique(maintain_order=True)
        cs = case_sensitive
        found = ca.core_matches(distinct["clause"], distinct["ref"], case_sensitive=cs) | (
            ca.subject_matches(distinct["subject"], distinct["ref"], case_sensitive=cs)
        )
        looked_up = sub.join(
            distinct.with_columns(found),
            on=["clause", "subject", "ref"],
            how="left",
            maintain_order="left",
            nulls_equal=True,
        )
        core = core.scatter(index, looked_up["core"].fill_null(False))
    return df.with_columns(core)


def label_outcome() -> pl.Expr:
    """Label result over the columns ``label``, ``rule`` (:func:`label_stated_frame`),
    ``hedge`` (the answer is offered as a guess) and ``tref``."""
    guess = pl.col("hedge")
    label = pl.when(~guess).then(pl.col("label"))
    rule = pl.when(guess).then(pl.lit("hedge")).otherwise(pl.col("rule"))
    score = pl.when((label == pl.col("text_reference")).fill_null(False)).then(1.0).otherwise(0.0)
    shown = (
        pl.when(rule == "hedge")
        .then(pl.lit("hedge"))
        .otherwise(pl.concat_str([pl.lit("label:"), rule]))
    )
    return result(score, label, shown.fill_null(pl.lit("none")))


def text_frame(
    df: pl.DataFrame,
    *,
    exact_match: bool,
    allow_partial: bool,
    case_sensitive: bool,
    extract_text: bool,
) -> pl.Series:
    """Text (and label) results of a frame with ``p`` (prediction), ``r`` (reference) and ``c``
    (choices), stage by stage; only rows whose reference is one of their labels pay for the
    label scan."""
    cs = case_sensitive
    df = df.with_columns(
        ae.prepare("prediction").alias("src"),
        normalize_text(ae.prepare("reference"), case_sensitive=cs).alias("text_reference"),
    )
    df = df.with_columns(normalize_text("src", case_sensitive=cs).alias("whole"))
    if not extract_text:
        whole = whole_outcome(
            pl.col("whole"),
            pl.col("text_reference"),
            exact_match=exact_match,
            allow_partial=allow_partial,
        )
        return df.select(whole.alias("result"))["result"]
    cited = without_citations(pl.col("src"), ae.prepare("reference"))
    df = ae.erase_frame(df.with_columns(cited.alias("erased")), "erased")
    df = df.with_columns(
        ae.tidy("erased", case_sensitive=cs).fill_null("").alias("erased_whole"),
        al.label_list("choices", case_sensitive=cs).alias("labels"),
    )
    df = df.with_columns(is_label_row(pl.col("labels"), pl.col("text_reference")).alias("labelled"))
    # Label rows too: a guess (``可能是正面``) is found by the text rules.
    df = ae.stated_text_frame(df, "erased", case_sensitive=cs)
    df = core_column(df, case_sensitive=cs)
    plain = text_outcome(exact_match=exact_match, allow_partial=allow_partial)
    index = df.select(pl.arg_where(pl.col("labelled"))).to_series()
    out = df.select(plain.alias("result"))["result"]
    if not index.len():
        return settled(df, out)
    sub = df[index].select("erased", "src", "labels", "text_reference", "hedge", "full")
    if not cs:
        sub = sub.with_columns(pl.col("erased").str.to_lowercase())
    width = int(sub.select(pl.col("labels").list.len().max()).item() or 0)
    sub = al.label_stated_frame(sub, "erased", "labels", width, case_sensitive=cs)
    sub = al.negated_label_frame(sub, "src", "labels", width, case_sensitive=cs)
    sub = variant_frame(sub, "full", "labels", width)
    labelled = sub.select(label_outcome().alias("result"))["result"]
    # Struct columns cannot be scattered: put the label rows in by row number.
    rows = pl.DataFrame({"row": index, "result": labelled})
    merged = (
        out.to_frame()
        .with_row_index("row")
        .join(rows, on="row", how="left", suffix="_label")
        .select(pl.coalesce("result_label", "result").alias("result"))
    )
    return settled(df, merged["result"])


def settled(df: pl.DataFrame, results: pl.Series) -> pl.Series:
    """``results`` corrected by whole-text checks, each run only on the rows it can change:
    :mod:`~xpert_frames.reading.clauses` (rules ``clauses``, ``hedge``) and
    :mod:`~xpert_frames.reading.symbols` (a symbols-only reference, rule ``symbols``)."""
    frame = df.select("prediction", pl.col("reference").cast(pl.String)).with_columns(
        results.struct.unnest()
    )
    symbols, stated = symbols_only("reference"), symbols_stated("prediction", "reference")
    checks = (
        ((pl.col("score") < 1) & several_clauses("reference"), 1.0, "clauses",
         clauses_match("prediction", "reference")),
        ((pl.col("score") > 0) & pl.col("prediction").str.contains(UNDECIDED_TRIGGER), 0.0,
         "hedge", undecided("prediction")),
        ((pl.col("score") < 1) & symbols, 1.0, "symbols", stated),
        ((pl.col("score") > 0) & symbols, 0.0, "symbols", ~stated),
    )  # fmt: skip
    for todo, score, rule, hit in checks:
        index = frame.select(pl.arg_where(todo.fill_null(False))).to_series()
        if not index.len():
            continue
        sub = frame[index].select(hit.alias("hit"))["hit"]
        changed = index.filter(sub)
        if changed.len():
            frame = frame.with_columns(
                frame["score"].scatter(changed, score),
                frame["rule"].scatter(changed, rule),
            )
    return frame.select(pl.struct(*RESULT_DTYPE.to_schema()).alias(results.name)).to_series()


def is_label_row(labels: pl.Expr, ref: pl.Expr) -> pl.Expr:
    """A row is scored by label when its reference is one of its labels."""
    return labels.list.contains(ref).fill_null(False)


def text_match(
    prediction: IntoExpr,
    reference: IntoExpr,
    *,
    choices: IntoExpr | None = None,
    exact_match: bool = True,
    case_sensitive: bool = False,
    allow_partial: bool = False,
    extract_text: bool = True,
) -> pl.Expr:
    """Text accuracy: ``Struct{score, extracted, rule}``.

    With ``extract_text`` (default) the stated answer is compared (``答案是巴黎`` equals
    ``巴黎``, rule ``statement``); a whole prediction equal to the reference scores 1 (rule
    ``exact``). ``allow_partial``: either containing the other scores 1 (rule ``partial`` or
    ``<span rule>:partial``). An empty prediction scores 0 (``empty``). With ``choices``
    (``List(Struct{id, content})``) a row whose reference is one of its labels scores the
    label the prediction states (rule ``label:<span rule>``, ``hedge`` for two labels).
    """
    opts = {
        "exact_match": exact_match,
        "allow_partial": allow_partial,
        "case_sensitive": check_bool("case_sensitive", case_sensitive),
        "extract_text": check_bool("extract_text", extract_text),
    }
    opts["exact_match"], opts["allow_partial"] = check_text_options(exact_match, allow_partial)
    fields = [
        text.to_expr(prediction).alias("prediction"),
        text.to_expr(reference).alias("reference"),
    ]
    no_choices = pl.lit(None, CHOICE_DTYPE)
    fields.append((no_choices if choices is None else text.to_expr(choices)).alias("choices"))
    return pl.struct(fields).map_batches(
        partial(_text_batch, opts), return_dtype=RESULT_DTYPE, is_elementwise=True
    )


def _text_batch(opts: dict[str, bool], batch: pl.Series) -> pl.Series:
    return on_rows(batch, lambda df: text_frame(df, **opts))


def on_rows(batch: pl.Series, score: Callable[[pl.DataFrame], pl.Series]) -> pl.Series:
    """``score`` of the rows of a struct batch whose prediction ``p`` is not null, put back in
    place (other rows: null results), so rows of other answer types cost nothing."""
    df = batch.struct.unnest()
    index = df.select(pl.arg_where(pl.col("prediction").is_not_null())).to_series()
    if index.len() == df.height:
        return score(df).alias(batch.name)
    empty = pl.DataFrame(schema=RESULT_DTYPE.to_schema()).clear(df.height)
    if not index.len():
        return empty.to_struct(batch.name)
    found = score(df[index]).struct.unnest()
    out = empty.with_columns(
        empty[name].scatter(index, found[name]) for name in RESULT_DTYPE.to_schema()
    )
    return out.to_struct(batch.name)


# --------------------------------------------------------------------------- judge
def judge_outcome() -> pl.Expr:
    """Judge result over the columns ``judge``, ``judge_rule`` and ``jref``."""
    value, rule, ref = pl.col("judge"), pl.col("judge_rule"), pl.col("jref")
    hedge = (value == ae.HEDGE).fill_null(False)
    score = pl.when((value == ref).fill_null(False)).then(1.0).otherwise(0.0)
    shown = (
        pl.when(ref.is_null())
        .then(pl.lit("reference"))
        .when(hedge)
        .then(pl.lit("hedge"))
        .otherwise(rule.fill_null(pl.lit("none")))
    )
    return result(score, pl.when(~hedge).then(value), shown)


def judge_frame(df: pl.DataFrame) -> pl.Series:
    """Judge results of a frame with ``p`` (prediction) and ``r`` (reference)."""
    df = ae.judge_reference_frame(df, "reference", "jref")
    df = ae.judge_stated_frame(df.with_columns(ae.prepare("prediction").alias("src")), "src")
    return df.select(judge_outcome().alias("result"))["result"]


def judge_match(prediction: IntoExpr, reference: IntoExpr) -> pl.Expr:
    """True/false accuracy: both sides mapped to ``true`` / ``false`` (``正确``, ``×``, ``T``,
    ``not true``, ``没有错``); a hedge or a reference that is no true/false word scores 0
    (rules ``hedge``, ``reference``). ``Struct{score, extracted, rule}``."""
    fields = pl.struct(
        text.to_expr(prediction).alias("prediction"), text.to_expr(reference).alias("reference")
    )
    return fields.map_batches(_judge_batch, return_dtype=RESULT_DTYPE, is_elementwise=True)


def _judge_batch(batch: pl.Series) -> pl.Series:
    return on_rows(batch, judge_frame)
