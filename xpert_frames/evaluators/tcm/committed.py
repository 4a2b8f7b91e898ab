"""Which part of a TCM answer is its committed conclusion, and which option it chose.

Real answers to licensing-exam questions discuss the other options before (or after) they
commit: "A选项脾虚证…与患者症状不符", "其他选项如开窍化痰、醒神回厥…并不是…", "排除E选项".
Terms named there are not the answer. Two readings are made here, both on whole columns:

- :func:`committed_text`: the prediction without its *rejecting* sentences (a sentence holding
  one of :data:`REJECT`; sentences end at ``。；;！？``, a line break or a full stop before a
  space); of a rejecting sentence the clauses (split on ``，,``) that state a conclusion
  (:data:`CONCLUSION`) and reject nothing are kept. When every sentence rejects, the whole
  prediction is kept.
- :func:`option_picks`: for a question with options (``choices``, a list of ``{id, content}``),
  the option the answer chose: the last letter stated as the answer (:data:`LETTER_AFTER`:
  "因此选E", "答案应该是C", "答案：B", "the answer is B"; :data:`LETTER_BEFORE`: "C选项最符合",
  "选项B的描述最准确") in a clause that rejects nothing, else the options whose content
  (without a final 证/型, two characters or more; of nested contents the longest) the last
  non-rejecting sentence naming any of them names. Two options named there, two letters in one
  statement ("C和D"), or a later conclusion naming an option other than the stated letter give
  ``"?"`` (two answers); no statement at all gives null.
"""

from __future__ import annotations

import polars as pl

from xpert_frames.reading import vocabulary

#: Words of a sentence that rejects or sets aside what it names (the shared vocabulary).
REJECT = "|".join(vocabulary.REJECTION_ZH)
#: Words that state a conclusion (the shared vocabulary's diagnosis conclusions).
CONCLUSION = "|".join(vocabulary.DIAGNOSIS_CONCLUSION_ZH)
_LETTER = "[A-J]"
_JOIN = r"\s*(?:和|或|与|及|、|,|，|or|and)\s*(?:选项)?\s*"
#: A letter stated as the answer after its marker (group 1: the letter, or letters joined).
LETTER_AFTER = (
    r"(?:选择|应选|故选|可选|选(?:定)?|答案(?:应该|应当|应|就|即)?(?:是|为|选)|答案\s*[:：]|"
    r"(?i:answer\s*(?:is|:)|option\s*is|choice\s*is)|(?i:answer)\s*[:：]?)\s*(?:选项)?\s*[（(]?\s*"
    rf"({_LETTER}(?:{_JOIN}{_LETTER})*)(?:[^A-Za-z]|$)"
)
#: A letter before the words that choose it ("C选项最符合", "选项B的描述最准确").
LETTER_BEFORE = (
    rf"(?:^|[^A-Za-z])(?:选项\s*)?({_LETTER})\s*(?:选项|项)?[^。；;，,\n不未非没]{{0,16}}?"
    r"(?:最符合|最正确|最准确|最佳|最合适|最恰当|最为符合|是正确|正确的|符合题意|为正确)"
)
#: A sentence: up to ``。；;！!？?``, a line break, or an ASCII full stop before a space.
_SENTENCE = r"(?:[^。；;！!？?\n.]|\.\S)+(?:[。；;！!？?\n]+|\.\s*)?|\.\s*"
_CLAUSE = r"[^，,]+[，,]*"
_NOISE = r"[\p{P}\p{S}\s]+"
_STEM = r"^(.{2,}?)(?:证型|证候|证|型)$"


def committed_column(predictions: pl.Series) -> pl.Series:
    """:func:`committed_text` of a column, read only on the rows holding a rejecting word
    (a screen over every row; the other rows are their own conclusion), once per distinct
    text. The screen is the regex alternation of the words, not ``str.contains_any``: the same
    rows, and the regex engine's literal search (SIMD) took 0.065 CPU-s per million benchmark
    predictions against 0.17 for ``contains_any``'s Aho-Corasick."""
    screen = predictions.str.contains(REJECT).fill_null(False)
    if not screen.any():
        return predictions
    at = screen.arg_true()
    subset = predictions.gather(at)
    distinct = subset.unique()
    table = pl.DataFrame({"value": distinct}).with_columns(
        committed_text(pl.col("value")).alias("committed")
    )
    read = subset.to_frame("value").join(table, on="value", how="left", maintain_order="left")[
        "committed"
    ]
    return predictions.clone().scatter(at, read)


def committed(prediction: pl.Expr) -> pl.Expr:
    """:func:`committed_column` as an elementwise expression: evaluated on whatever rows it
    is given (the distinct texts of a rule, the rows of one rule), not on every row first."""
    return prediction.map_batches(committed_column, return_dtype=pl.String, is_elementwise=True)


def committed_text(prediction: pl.Expr) -> pl.Expr:
    """The prediction without its rejecting sentences (module docs); elementwise."""
    sentence = pl.element()
    clauses = sentence.str.extract_all(_CLAUSE).list.eval(
        pl.element().filter(
            ~pl.element().str.contains(REJECT) & pl.element().str.contains(CONCLUSION)
        )
    )
    kept = pl.when(sentence.str.contains(REJECT)).then(clauses.list.join("")).otherwise(sentence)
    text = prediction.str.extract_all(_SENTENCE).list.eval(kept).list.join("")
    return pl.when(text.str.strip_chars().str.len_chars() > 0).then(text).otherwise(prediction)


def option_stem(value: pl.Expr) -> pl.Expr:
    """An option's content (or a reference) as compared: no punctuation, symbols or spaces,
    ASCII lower case, without a final 证/型/证型/证候 after two characters or more."""
    return value.str.replace_all(_NOISE, "").str.to_lowercase().str.replace(_STEM, "${1}")


def reference_option(choices: pl.Expr, reference: pl.Expr) -> pl.Expr:
    """The id of the option whose content is the reference (compared by :func:`option_stem`),
    else null; elementwise over a List(Struct{id, content}) column."""
    stem = option_stem(reference)
    ids = choices.list.eval(pl.element().struct.field("id"))
    same = choices.list.eval(option_stem(pl.element().struct.field("content")))
    found = pl.struct(ids.alias("ids"), same.alias("stems"), stem.alias("stem"))
    return found.map_batches(_first_equal, return_dtype=pl.String, is_elementwise=True)


def _first_equal(batch: pl.Series) -> pl.Series:
    df = batch.struct.unnest().with_row_index("__row")
    long = df.explode(["ids", "stems"]).filter(
        (pl.col("stems") == pl.col("stem")) & (pl.col("stems").str.len_chars() > 0)
    )
    first = long.group_by("__row").agg(pl.col("ids").first())
    out = df.select("__row").join(first, on="__row", how="left", maintain_order="left")
    return out["ids"].alias(batch.name)


def option_picks(frame: pl.DataFrame) -> pl.Series:
    """The chosen option id (``"?"``: two answers; null: none stated) of every row of a frame
    with columns ``prediction`` and ``choices`` (its options), in row order (module docs)."""
    f = pl.col
    df = frame.with_row_index("row")
    sentences = (
        df.select("row", f("prediction").str.extract_all(_SENTENCE).alias("sentence"))
        .with_columns(pl.int_ranges(f("sentence").list.len()).alias("sentence_index"))
        .explode(["sentence", "sentence_index"])
        .drop_nulls("sentence")
        .with_columns(f("sentence").str.contains(REJECT).alias("reject"))
    )
    # Letters: in clauses that reject nothing, every sentence.
    clauses = (
        sentences.select(
            "row", "sentence_index", f("sentence").str.extract_all(_CLAUSE).alias("clause")
        )
        .with_columns(pl.int_ranges(f("clause").list.len()).alias("clause_index"))
        .explode(["clause", "clause_index"])
        .drop_nulls("clause")
        .filter(~f("clause").str.contains(REJECT))
    )
    found = [
        clauses.select(
            "row",
            "sentence_index",
            "clause_index",
            "clause",
            f("clause").str.extract_all(rule).alias("found"),
        )
        .explode("found")
        .drop_nulls("found")
        .with_columns(
            f("clause").str.find(f("found"), literal=True).alias("position"),
            f("found").str.extract(rule, 1).str.extract_all(_LETTER).alias("ids"),
        )
        for rule in (LETTER_AFTER, LETTER_BEFORE)
    ]
    # The last letter stated: last sentence, last clause, last match in it.
    last_letter = (
        pl.concat(found)
        .sort("row", "sentence_index", "clause_index", "position", maintain_order=True)
        .group_by("row")
        .agg(
            f("sentence_index").last().alias("letter_sentence"), f("ids").last().alias("letter_ids")
        )
        .with_columns(
            pl.when(f("letter_ids").list.unique().list.len() == 1)
            .then(f("letter_ids").list.first())
            .otherwise(pl.lit("?"))
            .alias("letter")
        )
    )
    # Contents: in sentences that reject nothing.
    options = (
        df.select("row", f("choices").alias("option"))
        .explode("option")
        .drop_nulls("option")
        .select(
            "row",
            f("option").struct.field("id").alias("id"),
            option_stem(f("option").struct.field("content")).alias("stem"),
        )
        .filter(f("stem").str.len_chars() >= 2)
    )
    kept = sentences.filter(~f("reject")).with_columns(
        f("sentence").str.replace_all(_NOISE, "").str.to_lowercase().alias("folded"),
        f("sentence").str.contains(CONCLUSION).alias("concl"),
    )
    named = kept.join(options, on="row").filter(f("folded").str.contains(f("stem"), literal=True))
    # Of nested contents named in one sentence, the longest (脾虚 inside 脾虚痰聚).
    inner = named.join(
        named.select("row", "sentence_index", f("stem").alias("outer")),
        on=["row", "sentence_index"],
    )
    inner = inner.filter(
        (f("outer") != f("stem")) & f("outer").str.contains(f("stem"), literal=True)
    ).select("row", "sentence_index", "id")
    named = named.join(inner, on=["row", "sentence_index", "id"], how="anti")
    per_sentence = named.group_by("row", "sentence_index").agg(
        f("id").unique().alias("ids"), f("concl").first()
    )
    last_content = (
        per_sentence.sort("row", "sentence_index")
        .group_by("row")
        .agg(
            f("sentence_index").last().alias("content_sentence"),
            f("ids").last().alias("content_ids"),
        )
        .with_columns(
            pl.when(f("content_ids").list.len() == 1)
            .then(f("content_ids").list.first())
            .otherwise(pl.lit("?"))
            .alias("content")
        )
    )
    # A conclusion after the stated letter that names another option: two answers.
    late = per_sentence.join(
        last_letter.select("row", "letter_sentence", "letter"), on="row"
    ).filter(
        (f("sentence_index") > f("letter_sentence"))
        & f("concl")
        & ~((f("ids").list.len() == 1) & (f("ids").list.first() == f("letter")))
    )
    contradicted = late.select("row").unique().with_columns(pl.lit(True).alias("contra"))
    out = (
        df.select("row")
        .join(last_letter.select("row", "letter"), on="row", how="left")
        .join(last_content.select("row", "content"), on="row", how="left")
        .join(contradicted, on="row", how="left")
        .sort("row")
    )
    pick = (
        pl.when(f("contra").fill_null(False))
        .then(pl.lit("?"))
        .otherwise(pl.coalesce(f("letter"), f("content")))
    )
    return out.select(pick.alias("pick")).to_series()
