"""Symbolic math answers: which rows are not plain numbers, and their equivalence.

A number taken from a symbolic answer proves nothing (``2^{2025}`` against ``3^{2025}``, an
interval against ``1``, ``(1+\\sqrt5)/2`` against ``2``), so such rows are decided
symbolically or not at all:

* the *answer span* (:mod:`~xpert_frames.evaluators.math_answer.answer_spans`) of the reference
  is its last ``\\boxed{}`` content, else the whole reference; of the prediction, the maths of
  the sentence after the last answer statement when that gave the number (rule ``statement``;
  :func:`statement_math`: an aside after the answer cut off, then its last group of joined
  ``$…$``/``\\(…\\)`` segments, else its last chunk between words, never the words around it),
  else the last box's content, else the whole prediction when it is one short bare expression
  (no segments, box or prose: ``\\sqrt{2}/2``), else the maths of the last sentence when it has
  segments or joined values, else the expression ending the prediction when the last number is
  part of it (:func:`glued_span`; such a row is always symbolic), else none (the whole
  prediction is handed to Math-Verify); the span is then put in the reference's form
  (:func:`answer_forms.fit_to_reference`);
* a span is *symbolic* when it is not one plain number (with an optional unit) and it holds a
  LaTeX command other than ``\\frac``, a power, root, π, ∞, set operator, an interval or tuple
  in brackets, a factorial, or two or more values given as the answer (``5, 7``, ``5 and 7``,
  ``2 \\text{ or } 3``: a list, never its last number); a reference or boxed span also when it
  has an equation or
  inequality, a one-letter variable, a comma list or arithmetic between terms, unless it reads
  as prose (CJK text or a word of three letters or more);
* a row is symbolic when either span is. Its pair is verified once per distinct pair by
  Math-Verify (:mod:`xpert_frames.evaluators.math_answer.verify_pool`, per-pair deadline),
  or, without the ``symbolic`` extra (or with ``symbolic="latex"``), by exact comparison of
  the normalized LaTeX of both spans.
"""

from __future__ import annotations

import functools
import string
import warnings
from collections.abc import Callable

import polars as pl

from xpert_frames.evaluators.math_answer import answer_forms
from xpert_frames.evaluators.math_answer import verify_pool as math_verify_pool
from xpert_frames.evaluators.math_answer.answer_forms import (
    latex_form,
    sqrt_latex,
)
from xpert_frames.evaluators.math_answer.as_written import plain_math
from xpert_frames.reading.numeric.grammar import STATEMENT_MARKERS, fold_text, rewrite_text
from xpert_frames.reading.numeric.parse import parse_number
from xpert_frames.reading.numeric.units import unit_table
from xpert_frames.reading.spans import SENTENCE_END
from xpert_frames.reading.subsets import on_subset

SYMBOLIC_MODES: tuple[str, ...] = ("auto", "math_verify", "latex")
_MARKERS = "|".join(
    m.replace("答案:", "答案[:：]").replace("答:", "答[:：]") for m in STATEMENT_MARKERS
)
_THROUGH_MARKER = f"(?s)^.*(?:{_MARKERS})"
_SEG = pl.col("prediction").str.contains(r"\$|\\[(\[]")
_SPACE = " \t\n\r$"


def _variable_letter() -> str:
    """Letters that cannot be a unit glued to a number (nor the ``e`` of ``5e-3``)."""
    units = {a for a in unit_table().aliases if len(a) == 1 and a.isascii()}
    return "[" + "".join(sorted(set(string.ascii_letters) - units - {"e", "E"})) + "]"


#: A variable next to a number: a letter glued after a digit (``2x``, ``3n``; not a one-letter
#: unit such as ``5m``, nor ``5e-3``), or a single letter joined to a number by an operator
#: (``x+1``, ``2·x``, ``n/2``). ``x = 5`` is none: an assignment states the number.
_TERM = (
    rf"[0-9]{_variable_letter()}(?:[^a-zA-Z]|$)"
    r"|(?:^|[^a-zA-Z\\])[a-zA-Z]\s*[-+*/×−]\s*[0-9(]|[0-9)]\s*[-+*/×−]\s*[a-zA-Z](?:[^a-zA-Z]|$)"
)
_STRONG = r"\\[a-zA-Z]+|[\^_√π∞≤≥≠±∪∩∈]|[(\[][^()\[\]]*,[^()\[\]]*[)\]]|[0-9]!|" + _TERM
_WEAK = (
    r"[=<>]|(?:^|[^a-zA-Z\\])[a-zA-Z](?:[^a-zA-Z]|$)|[0-9a-zA-Z)}]\s*,\s*[-+0-9a-zA-Z(\\{]"
    r"|[0-9a-zA-Z)}]\s*[-+*/×−]\s*[0-9a-zA-Z(\\{]"
)
_PROSE = r"[\x{3400}-\x{9fff}]|(?:^|[^a-zA-Z\\])[a-zA-Z]{3,}"
#: Two or more values given as the answer (``5, 7``, ``x=2, x=3``, ``2 \\text{ or } 3``, ``5 and
#: 7``): a list, never one of its numbers, in any span (a statement's too).
_LIST = (
    r"[0-9a-zA-Z)}]\s*,\s+(?:[-+0-9(\\{]|[a-zA-Z]\s*=)"
    r"|[0-9)}]\s+(?:or|and)\s+[-+0-9(\\{]"
)


def _sentence(prediction: pl.Expr) -> pl.Expr:
    """The sentence after the prediction's last answer statement."""
    return (
        prediction.str.replace(_THROUGH_MARKER, "")
        .str.strip_chars_start(" \t:,，：")
        .str.replace(SENTENCE_END, "")
    )


#: Natural language around the maths: CJK text and punctuation, English words (two letters
#: or more, not a LaTeX command's name), each replaced by a separator.
_PROSE_RUN = r"[\x{3400}-\x{9fff}，。；：、！？]+|(^|[^A-Za-z\\])[A-Za-z]{2,}"
_SEP = "\x01"
_WRAPPER = r"\\(?:text|textbf|mbox|mathrm)\s*\{([^{}]*)\}"
#: The last separated chunk that holds more than spaces and punctuation.
_LAST_CHUNK = rf"([^{_SEP}]*[^{_SEP}\s.,;:$][^{_SEP}]*)[{_SEP}\s.,;:$]*$"


def _prose_to_separators(span: pl.Expr) -> pl.Expr:
    return span.str.replace_all(_WRAPPER, " ${1} ").str.replace_all(_PROSE_RUN, "${1}" + _SEP)


def _rows_of(values: pl.Series, fn: Callable[[pl.DataFrame], pl.Series]) -> pl.Series:
    """``fn`` on the rows of a batch where ``values`` (a struct's fields or a column ``span``) has
    no null, the other rows null: the rare rows are read, the others cost nothing."""
    out = pl.repeat(None, len(values), dtype=pl.String, eager=True).alias(values.name)
    if values.dtype != pl.Struct:
        if values.null_count() == len(values):
            return out
        df = values.to_frame("span")
    else:
        df = values.struct.unnest()
    df = df.with_row_index("__row").drop_nulls()
    if df.height == 0:
        return out
    return out.scatter(df["__row"], fn(df))


#: A rejected alternative after the answer's maths (``$(1, 3)$, not $(3, 1)$``, ``而不是 6``):
#: cut off with what follows.
_REJECTED = (
    r"(?s)^(.*?(?:\$|\\\)|\\\]|[0-9]).*?)(?:[,，;；]\s*(?i:not|rather\s+than|instead\s+of)\s"
    r"|\s*(?:而不是|而非)).*$"
)


def _chunk(text: pl.Expr) -> pl.Expr:
    return pl.coalesce(_prose_to_separators(text).str.extract(_LAST_CHUNK, 1), text)


def _statement_math(df: pl.DataFrame) -> pl.Series:
    f = pl.col
    df = plain_math(df, "span")
    cut = f("span").str.replace(answer_forms.ASIDE, "${1}").str.replace(_REJECTED, "${1}")
    df = df.with_columns(cut.str.replace(answer_forms.OTHER_QUANTITY, "${1}"))
    segments = df.filter(f("span").str.contains(r"\$|\\[(\[]"))["span"].unique()
    found = pl.Series("found", [answer_forms.joined_segments(s) for s in segments], pl.String)
    if found.null_count() == len(found):  # no segment read (no join needed)
        df = df.with_columns(pl.lit(None, pl.String).alias("found"))
    else:
        table = pl.DataFrame([segments, found])
        df = df.join(table, on="span", how="left", maintain_order="left")
    bare = f("found").is_null()
    joined = f("span").str.replace_all(answer_forms.JOINED, "${1}, ${2}")
    df = df.with_columns(
        pl.when(bare).then(f("span")).alias("chunk"), pl.when(bare).then(joined).alias("joined")
    )
    # A sentence that reads as prose gives its last chunk between words: read on those rows
    # only, and the joined form's own chunk only where joining changed the sentence.
    prose = df.select(bare & f("span").str.contains(_PROSE)).to_series()
    if prose.any():
        rows = df.filter(prose)
        chunk = rows.select(_chunk(f("span"))).to_series()
        changed = rows.select(f("joined") != f("span")).to_series()
        joined_chunk = chunk
        if changed.any():
            other = rows.filter(changed).select(_chunk(f("joined"))).to_series()
            joined_chunk = chunk.clone().scatter(changed.arg_true(), other)
        at = prose.arg_true()
        df = df.with_columns(df["chunk"].scatter(at, chunk), df["joined"].scatter(at, joined_chunk))
    chunk = answer_forms.one_answer_chunk(df)
    return df.select(pl.coalesce(f("found"), chunk)).to_series()


def statement_math(sentence: pl.Expr) -> pl.Expr:
    """The maths of a statement sentence, not the words around it: its last ``$…$``,
    ``\\(…\\)`` or ``\\[…\\]`` segment; without one, when the sentence reads as prose
    (CJK text or an English word), its last chunk between words (``所以最小值为2√2`` →
    ``2√2``); else the sentence. Only non-null sentences are read."""
    fn = functools.partial(_rows_of, fn=_statement_math)
    return sentence.map_batches(fn, return_dtype=pl.String, is_elementwise=True)


#: A letter or bracket beside a digit, a power or an operator next to a letter: the text's
#: end may hold an expression around its last number.
_GLUE_HINT = r"[0-9][a-zA-Z(\\]|[a-zA-Z)}]\s*[\^_]|[a-zA-Z]\s*[-+*/×−]|[(\[]"
#: What makes the rest of the final expression (around the number) not a plain number.
_GLUE = r"[A-Za-z(\[^_!√π∞]"
_TAIL = 160


def _glued(df: pl.DataFrame) -> pl.Series:
    f = pl.col
    hint = df["prediction"].str.contains(_GLUE_HINT)
    out = pl.repeat(None, df.height, dtype=pl.String, eager=True)
    df = df.filter(hint)
    if df.height == 0:
        return out
    tail = rewrite_text(fold_text(f("prediction").str.slice(-_TAIL)))
    df = plain_math(df.with_columns(tail.alias("tail")), "tail")
    end = _prose_to_separators(f("tail")).str.extract(f"([^{_SEP}]*)$", 1)
    df = df.with_columns(end.str.strip_chars(" \t\n\r.,;:。").alias("end"))
    rest = f("end").str.split(f("number_text")).list.join("")
    glued = f("end").str.contains(f("number_text"), literal=True) & rest.str.contains(_GLUE)
    return out.scatter(hint.arg_true(), df.select(pl.when(glued).then(f("end"))).to_series())


def glued_span(prediction: pl.Expr, rule: pl.Expr, text: pl.Expr) -> pl.Expr:
    """For a number found by the last-number rule (``rule`` ``last``, ``text`` the number as
    written): the expression that ends the prediction when that number is part of it
    (``… gives 2x``, ``$3x + 2$``, ``x^2``, ``(1, 2)``), else null. Such a number is not the
    answer; the expression is, and it is compared symbolically. Only the rows of the
    last-number rule with a letter or bracket near a digit are read."""
    pair = pl.struct(
        pl.when(rule == "last").then(prediction).alias("prediction"), text.alias("number_text")
    )
    fn = functools.partial(_rows_of, fn=_glued)
    return pair.map_batches(fn, return_dtype=pl.String, is_elementwise=True)


def _math_form(span: pl.Expr) -> pl.Expr:
    """The span folded (LaTeX spellings, ``\\text{}`` wrappers) and without ``\\frac``."""
    return rewrite_text(fold_text(span)).str.replace_all("\\frac", "", literal=True)


#: Spans of digits, points, spaces, percent signs and CJK text only are never symbolic, nor
#: is a plain decimal or a fraction of two with a non-zero denominator (both read as numbers).
_SCREEN = r"[^0-9.\s%‰\p{Han}]"
_SIMPLE = r"^[-+]?[0-9]+(?:\.[0-9]+)?(?:\s*/\s*[1-9][0-9]*(?:\.[0-9]+)?)?%?$"


def _screen(span: pl.Expr) -> pl.Expr:
    return span.str.contains(_SCREEN) & ~span.str.contains(_SIMPLE)


def _classify(spans: pl.DataFrame) -> pl.DataFrame:
    """``{span, strong, symbolic}`` for distinct spans ``span`` (``strong``: only the strong markers
    count). Only spans that pass the screen are folded and matched; only those that look
    symbolic are parsed as numbers."""
    f = pl.col
    spans = spans.unique()

    def looks(d: pl.DataFrame) -> pl.DataFrame:
        form = _math_form(f("span"))
        weak = form.str.contains(_WEAK) & ~form.str.contains(_PROSE)
        return d.with_columns(
            (form.str.contains(_STRONG) | form.str.contains(_LIST) | (~f("strong") & weak)).alias(
                "symbolic"
            )
        )

    spans = on_subset(spans, _screen(f("span")), looks, {"symbolic": pl.Boolean()})

    def not_plain(d: pl.DataFrame) -> pl.DataFrame:
        return d.with_columns(parse_number(f("span")).is_null().alias("symbolic"))

    spans = on_subset(spans, f("symbolic"), not_plain)
    return spans.with_columns(f("symbolic").fill_null(False))


def _classify_rows(df: pl.DataFrame) -> pl.DataFrame:
    """Add ``reference_symbolic`` and ``prediction_symbolic`` (each distinct span classified
    once)."""
    f = pl.col
    statement = (f("rule") == "statement").fill_null(False)
    spans = pl.concat(
        [
            df.select(f("rspan").alias("span"), pl.lit(False).alias("strong")),
            df.select(f("pspan").alias("span"), statement.alias("strong")),
        ]
    ).drop_nulls()
    table = _classify(spans)
    r_sym = table.filter(~f("strong")).select(
        f("span").alias("rspan"), f("symbolic").alias("reference_symbolic")
    )
    p_sym = table.select(
        f("span").alias("pspan"),
        f("strong").alias("__strong"),
        f("symbolic").alias("prediction_symbolic"),
    )
    df = df.join(r_sym, on="rspan", how="left").with_columns(statement.alias("__strong"))
    return df.join(p_sym, on=["pspan", "__strong"], how="left").drop("__strong")


def _classify_batch(batch: pl.Series) -> pl.Series:
    """The batch behind :func:`symbolic_rows`."""
    f = pl.col
    df = batch.struct.unnest()
    screen = (_screen(f("rspan")) | _screen(f("pspan"))).fill_null(False)
    mask = df.select(screen).to_series()
    out = pl.repeat(False, len(df), dtype=pl.Boolean, eager=True).alias(batch.name)
    if not mask.any():
        return out
    rows = df.with_row_index("row").filter(mask)
    rows = _classify_rows(rows).sort("row")
    sym = rows.select(
        f("reference_symbolic").fill_null(False) | f("prediction_symbolic").fill_null(False)
    ).to_series()
    return out.scatter(rows["row"], sym)


def symbolic_rows(
    pspan: pl.Expr, rspan: pl.Expr, rule: pl.Expr, p_plain: pl.Expr, r_plain: pl.Expr
) -> pl.Expr:
    """Whether a row is symbolic (module docs), over its spans (columns, read once): a batch
    function on the rows whose spans pass the screen, each distinct span classified once.
    ``p_plain``/``r_plain``: the span is known to be one number (it is the number the parser
    read), so it needs no screen."""
    spans = pl.struct(
        pl.when(~p_plain.fill_null(False)).then(pspan).alias("pspan"),
        pl.when(~r_plain.fill_null(False)).then(rspan).alias("rspan"),
        rule.alias("rule"),
    )
    return spans.map_batches(_classify_batch, return_dtype=pl.Boolean, is_elementwise=True)


def _verify_batch(pairs: pl.Series, *, timeout: float, budget: float | None) -> pl.Series:
    """Outcome per row of a struct ``{prediction, reference}`` batch (null where either is
    null): each distinct pair verified once by Math-Verify, all of them within ``budget``
    seconds (the pairs left then are ``budget``, with one warning giving their count)."""
    df = pairs.struct.unnest()
    todo = df.drop_nulls().unique()
    if todo.height == 0:
        return pl.repeat(None, len(pairs), dtype=pl.String, eager=True).alias(pairs.name)
    outcomes = math_verify_pool.pool(timeout).verify(list(todo.iter_rows()), budget=budget)
    todo = todo.with_columns(pl.Series("outcome", outcomes, dtype=pl.String))
    out = df.join(todo, on=["prediction", "reference"], how="left", maintain_order="left")[
        "outcome"
    ]
    spent = outcomes.count(math_verify_pool.BUDGET)
    if spent:
        rows = int((out == math_verify_pool.BUDGET).sum())
        warnings.warn(
            f"symbolic_budget={budget:g} s spent: {rows:,} row(s) ({spent:,} distinct "
            "symbolic pair(s)) not verified, scored 0 with rule '<source>:symbolic-budget'. "
            "Hint: raise symbolic_budget (inf: no budget) or lower symbolic_timeout.",
            RuntimeWarning,
            stacklevel=2,
        )
    return out.alias(pairs.name)


def symbolic_outcome(
    prediction: pl.Expr,
    reference: pl.Expr,
    on: pl.Expr,
    *,
    mode: str,
    timeout: float,
    budget: float | None = None,
) -> pl.Expr:
    """``equal``/``different``/``timeout``/``error``/``budget`` for the rows where ``on``
    holds (else null): Math-Verify with ``timeout`` seconds per pair and ``budget`` seconds
    per batch (None: no budget), or ``latex-exact``."""
    prediction = sqrt_latex(pl.when(on).then(prediction))
    reference = sqrt_latex(pl.when(on).then(reference))
    if resolve_mode(mode) == "latex":
        same = latex_form(prediction) == latex_form(reference)
        return pl.when(on).then(pl.when(same).then(pl.lit("equal")).otherwise(pl.lit("different")))
    pair = pl.struct(
        prediction.alias("prediction"), (pl.lit("$") + reference + pl.lit("$")).alias("reference")
    )
    fn = functools.partial(_verify_batch, timeout=timeout, budget=budget)
    # One batch per call (not elementwise): the budget and its warning are per call, not per
    # morsel of the streaming engine.
    return pair.map_batches(fn, return_dtype=pl.String)


def resolve_mode(mode: str) -> str:
    """``auto`` → ``math_verify`` when the extra is installed, else ``latex``."""
    if mode == "auto":
        return "math_verify" if math_verify_pool.available() else "latex"
    return mode


def method_name(mode: str) -> str:
    """The rule suffix of a symbolic row: ``symbolic`` (Math-Verify) or ``latex-exact``."""
    return "symbolic" if resolve_mode(mode) == "math_verify" else "latex-exact"
