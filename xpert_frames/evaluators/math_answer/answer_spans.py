"""The answer spans of prediction and reference (:func:`reference_span`,
:func:`prediction_span`): what a symbolic row compares, read as the module docs of
:mod:`xpert_frames.evaluators.math_answer.symbolic` say (the reference's last box or whole text;
the prediction's statement maths, last box, bare expression or last sentence's maths)."""

from __future__ import annotations

import string

import polars as pl

from xpert_frames.evaluators.math_answer import answer_forms
from xpert_frames.evaluators.math_answer.answer_forms import strip_delimiters
from xpert_frames.evaluators.math_answer.symbolic import _SEG, _SPACE, _sentence, statement_math
from xpert_frames.reading.boxes import after_box, anchored_box, box_tail, last_box
from xpert_frames.reading.spans import last_sentence
from xpert_frames.reading.subsets import on_subset
from xpert_frames.reading.vocabulary import (
    BOX_CONTENT_DEEP,
    SENTENCE_CONCLUSION,
    SENTENCE_CONCLUSION_SCREEN,
)

#: A character that folds into one of the strong markers (full-width forms included).
_STRONG_CHAR = r"[\\^_√π∞≤≥≠±∪∩∈(\[!（［！＾＿＼]"
#: A letter beside a digit or an operator: the statement may hold a variable term.
#: Values listed (``5, 7``, ``5 or 7``, ``5 和 7``; not ``1,000``): the statement may be a list
#: (:data:`_LIST`).
_LIST_HINT = r"[0-9)}]\s*,\s+[-+0-9(]|[0-9)}]\s+(?:or|and)\s+[-+0-9(]|[0-9)}]\s*[或和]\s*[-+0-9(]"
_TERM_HINT = (
    _STRONG_CHAR
    + r"|[<>=≤≥]|[0-9][a-zA-Z]|[a-zA-Z]\s*[-+*/×−－＋]|[-+*/×−－＋]\s*[a-zA-Z]|"
    + _LIST_HINT
    + r"|[0-9]\s*\(?(?:repeating|recurring)"  # a decimal said to repeat (:data:`_PLAIN_MATH`)
)


#: The characters that a strong marker (:data:`_STRONG`) needs, in a span or in what folds
#: into one (full-width forms and letters, ℃/℉), or values listed (:data:`_LIST_HINT`): a
#: sentence without any of them gives no strongly symbolic span, however it is cut or rewritten.
_CAN_BE_STRONG = _STRONG_CHAR[:-1] + "a-zA-Zａ-ｚＡ-Ｚ℃℉]|" + _LIST_HINT
#: What every prediction span needs in its text against a plain-number reference: a box's
#: backslash, a strong character, ``<``/``>`` or a letter (the last sentence's or a bare
#: expression's maths, :data:`_ROOTS_HINT`), or :data:`_CAN_BE_STRONG` (a statement's).
_CAN_SPAN = _STRONG_CHAR[:-1] + "<>a-zA-Zａ-ｚＡ-Ｚ℃℉]|" + _LIST_HINT


#: What :func:`reference_span` gives: the span, and whether the reference is one plain number.
REFERENCE_SPAN = pl.Struct({"span": pl.String, "plain": pl.Boolean})


def reference_span(reference: pl.Expr, reference_number: pl.Expr) -> pl.Expr:
    """The answer span of the reference (module docs) and whether the reference is exactly the
    number the parser read (``reference_number``: struct with ``text`` and ``value``; never
    null): struct :data:`REFERENCE_SPAN`. Such a reference is its own span; else the span is
    its last box's content or its whole text, without delimiters, listed roots as their
    values. A batch function: write it to a column once, and give its fields to
    :func:`prediction_span` (a batch function is not shared between expressions: each use
    would read it again)."""
    number = reference_number.struct
    return pl.struct(
        reference.alias("reference"), number.field("text").alias("text"), number.field("value")
    ).map_batches(_reference_span, return_dtype=REFERENCE_SPAN, is_elementwise=True)


def prediction_span(
    prediction: pl.Expr, rule: pl.Expr, plain: pl.Expr, reference_span: pl.Expr
) -> pl.Expr:
    """The answer span of the prediction (module docs), fitted to the form of
    ``reference_span``; ``plain``: the reference is one plain number (both fields of
    :func:`reference_span`).

    A statement sentence is cut only when the prediction has a character that can make it
    symbolic; without one there is no span (the whole prediction is compared if the reference
    is symbolic). Each span is a batch function whose regexes read only the rows they concern
    (a regex over ``when(...).then(text)`` reads the rows masked to null too)."""
    pspan = pl.struct(
        prediction.alias("prediction"),
        (rule == "statement").fill_null(False).alias("statement"),
        plain.alias("plain"),
    ).map_batches(_prediction_span, return_dtype=pl.String, is_elementwise=True)
    pair = pl.struct(pspan.alias("span"), reference_span.alias("reference_span"))
    return pair.map_batches(answer_forms.fit_batch, return_dtype=pl.String, is_elementwise=True)


#: A prediction this short, without ``$``/``\\(``/``\\[`` segments, a box, CJK text or an
#: English word (two letters or more, not a LaTeX command's name nor braced), with a maths
#: character or a variable (not the ``e`` of ``1e400``: a number alone is the number reader's),
#: is one bare expression: its whole text is its answer span.
_BARE_BYTES = 200
#: ``and``/``or`` as words. ASCII word boundaries (``(?-u:\\b)``): here each side of the word is
#: ASCII or a space (a digit, ``.``, ``$`` before; a space, ``$`` or a letter after), where they
#: agree with Unicode ones, and unlike those they keep Polars' regexes on their fast engine over
#: Chinese text (0.061 -> 0.017 CPU-s for 500,000 benchmark predictions).
_AND_OR = r"(?-u:\b)(?:and|or)(?-u:\b)"
#: Roots of one unknown given together (``$x=2$ and $x=3$``, ``x = 1, x = 4``; the same letter
#: twice): the last sentence's maths is the answer (a list), not its last number.
_ROOTS_HINT = rf"=\s*[-+]?[0-9.]+\$?\s*(?:,|{_AND_OR}|或|和)\s*\$?\s*[a-zA-Z]\s*="
_ROOTS_JOINED = "|".join(
    rf"(?:^|[^a-zA-Z\\]){v}\s*=\s*[-+]?[0-9.]+\$?\s*(?:,|{_AND_OR}|或|和)\s*\$?\s*{v}\s*="
    for v in string.ascii_letters
)
_BARE_PROSE = r"[\x{3400}-\x{9fff}]|(?:^|[^a-zA-Z\\{])[a-zA-Z]{2,}"
#: A displayed formula that ends its sentence with a period inside (``$$x \\geq 2.$$
#: Therefore, …``) ends that sentence: the next sentence (a conclusion in words) is the last
#: one, not the formula's derivation.
_DISPLAY_STOP = (r"(\.\s*(?:\$\$|\\\]))[ \t]+([A-Z])", "${1}\n${2}")
_BARE_MATH = _STRONG_CHAR + "|[a-df-zA-DF-Z]"
#: A last sentence that may hold the answer's maths: a strong character, ``<``/``>``, or roots
#: of one unknown given together.
_LAST_HINT = _STRONG_CHAR[:-1] + "<>]|" + _ROOTS_HINT


def _prediction_span(batch: pl.Series) -> pl.Series:
    """The batch behind the prediction span of :func:`prediction_span`."""
    f = pl.col
    df = batch.struct.unnest().with_row_index("row")
    # Every span below needs one of _CAN_SPAN's characters (or a reference that is not one
    # plain number): the other rows have none, and no step reads them (one pass, not many).
    df = df.filter(~f("plain") | f("prediction").str.contains(_CAN_SPAN))
    # Each mask and subset once (eager frames share no sub-expressions).
    df = df.with_columns(f("prediction").str.contains_any(["\\boxed", "\\fbox"]).alias("__box"))
    boxed = f("__box")
    # The text after the last box opener, once (the conclusion's screen and the box's content
    # read it).
    boxes = df.filter(boxed).with_columns(box_tail(f("prediction")).alias("__tail"))
    # A conclusion stated after the last box (the box held a step, ``\boxed{r = 3}``) wins,
    # also where the statement rule read that conclusion.
    # The last sentence after the box is part of that text: without a conclusion word there
    # it opens with none (no sentence cut out).
    after = boxes.filter(f("__tail").str.contains(SENTENCE_CONCLUSION_SCREEN)).drop("__tail")
    after = after_box(after, "prediction")
    after = after.filter(f("prediction").str.contains(SENTENCE_CONCLUSION) & _SEG)
    # Against a plain-number reference a span only decides whether the row is symbolic; a
    # statement's span is so only by a strong marker, which its sentence cannot give without
    # one of _CAN_BE_STRONG: those rows have no span (the same outcome, without the reading).
    # The sentence is a part of the prediction: a prediction without one has none either
    # (the gate above kept only predictions with one, or with ``<``/``>``).
    cut = df.filter(f("statement"))
    cut = cut.filter(f("prediction").str.contains(_TERM_HINT).fill_null(False))
    cut = cut.join(after, on="row", how="anti")
    cut = cut.with_columns(_sentence(f("prediction")).alias("sentence"))
    cut = cut.filter(~f("plain") | f("sentence").str.contains(_CAN_BE_STRONG))
    other = df.filter(~f("statement"))
    box = boxes.filter(~f("statement")).join(after, on="row", how="anti")
    # The last box's content (reading.boxes.last_box, over the text after the opener read above).
    content = f("__tail").str.extract(anchored_box(BOX_CONTENT_DEEP), 1)
    end = last_sentence(f("prediction").str.replace_all(*_DISPLAY_STOP))
    unboxed = other.filter(~boxed)
    last = unboxed.filter(f("prediction").str.contains(_LAST_HINT))
    maths = _SEG | f("prediction").str.contains(answer_forms.JOINED)
    maths = maths | f("prediction").str.contains(_ROOTS_JOINED)
    strong = (
        f("prediction").str.contains(_STRONG_CHAR)
        | f("prediction").str.contains(answer_forms.OR_INEQ)
        | f("prediction").str.contains(_ROOTS_JOINED)
    )
    # A prediction that is one bare expression (``\\sqrt{2}/2``, ``\\{1,2\\}``): its whole text.
    # (Prose first: it rules out most rows.)
    short = unboxed.filter(f("prediction").str.len_bytes() <= _BARE_BYTES)
    bare = short.filter(~f("prediction").str.contains(_BARE_PROSE))
    bare = bare.filter(~_SEG & f("prediction").str.contains(_BARE_MATH))
    last = last.join(bare, on="row", how="anti").with_columns(end).filter(strong & maths)
    spans = pl.concat(
        [
            cut.select("row", statement_math(f("sentence")).alias("span")),
            after.select("row", statement_math(f("prediction")).alias("span")).drop_nulls(),
            box.select("row", content.alias("span")),
            last.select("row", statement_math(f("prediction")).alias("span")),
            bare.select("row", f("prediction").alias("span")),
        ]
    )
    spans = spans.drop_nulls("span").with_columns(strip_delimiters(f("span")))
    return answer_forms.scatter_spans(batch.name, len(batch), spans)


def _reference_span(batch: pl.Series) -> pl.Series:
    """The batch behind :func:`reference_span`."""
    f = pl.col
    df = batch.struct.unnest().with_columns(f("reference").str.strip_chars(_SPACE))
    plain = ((f("text") == f("reference")) & f("value").is_not_null()).fill_null(False)
    # A plain reference is its own span (written in place); the others are read below.
    out = df.select(pl.when(plain).then(f("reference")).alias("span"), plain.alias("plain"))
    other = batch.struct.field("reference").to_frame().with_row_index("row")
    other = other.filter(~out["plain"]).filter(f("reference").is_not_null())
    box = other.filter(f("reference").str.contains_any(["\\boxed", "\\fbox"]))
    other = other.join(
        last_box(box, "reference", "span").select("row", "span"), on="row", how="left"
    )
    other = other.select("row", pl.coalesce("span", "reference").alias("span"))
    fence = f("span").str.contains(r"^[\s$\\]|[$)\]。.\s]$")
    other = on_subset(other, fence, lambda d: d.with_columns(strip_delimiters(f("span"))))
    other = answer_forms.roots_reference(other)  # listed roots (``x=2或x=3``): their values
    if other.height:
        out = out.with_columns(out["span"].scatter(other["row"], other["span"]))
    return out.select(pl.struct("span", "plain")).to_series().alias(batch.name)
