"""The ``core`` rule of open-domain text answers: a reference stated as a whole phrase inside the
answer's clause counts (``A young hare is called a leveret.`` for ``leveret``, ``Dickens was
born in Portsmouth, England.`` for ``Portsmouth``).

* **Where.** The answer clause is the span a span rule read (``The answer is …``, a box, bold, a
  conclusion, a short last line), or for the copula rule and for text no rule read, the FIRST
  sentence: after a ``Header:`` (``Fighting Talk Host: Colin Murray``), without relative clauses
  (``, which …``, ``，即…``), after its copula when it has one (``X is Y``: ``Y``; ``The York you
  mean is New York`` does not state ``York``). A list after a colon (``are:\\n1. … 2. …``) is one
  clause; the clause ends at a clause of reason or concession (``, although …``, ``因为…``), and
  a semicolon or a comma after a Chinese character ends it like a sentence end. The reference
  must start inside that clause (it may run on across a ``.`` of its own: ``Portugal. The
  Man``).
* **What was never stated.** Rejected text, restated questions and concessions are erased before
  (:data:`xpert_frames.reading.text_rules.TEXT_NEGATIONS`); a guess in the clause's first
  sentence (``it might be Paris``) commits to nothing.
* **Match.** On folded text (lower case, punctuation to spaces, sentence ends and separators kept
  as marks, abbreviations and decades read as words): a Latin reference needs a word boundary on
  both sides, a Chinese one is plain containment, but not with only one or two characters glued on
  (``北京市`` is another term than ``北京``), nor followed in its run by a term head (``妨害公务``
  in ``聚众妨害公务秩序罪``: the head's form decides). A Latin reference that is only part of a
  longer capitalised name does not count (``York`` in ``New York``) unless the word before is a
  title (``Sir``) or the word after a generic head (``Kit Kat Club``). An "or" within a few words
  (``X or Y``, ``either X …``, ``X、Y或Z``) states several answers: no credit. An item of an "and"
  list counts. A reference of several content words joined by function words (``between 1881 and
  1885``, ``David & Victoria Beckham``) counts when every content word is in the clause; a year
  range (``786–802``) when a year inside it is.
* **A describing predicate.** A first sentence whose copula is followed by a description (``X
  is the …``, ``X is a …``, ``X was expelled …``) states its subject: a reference that ends the
  subject counts (``ADP (Adenosine diphosphate) is the breakdown product …``, ``The artist and
  poet Salvador Dalí was expelled …``), unless it is the tail of a longer capitalised name.
* **Which reference.** Every form of the reference (:mod:`xpert_frames.reading.aliases`),
  generated once per distinct reference.

A frame function over a batch: Polars expressions over whole columns, Python once per distinct
reference.
"""

from __future__ import annotations

import polars as pl

from xpert_frames.reading.aliases import reference_forms
from xpert_frames.reading.text import strip_marks
from xpert_frames.reading.text_rules import (
    COPULA_WORDS,
    ERASED_LEAD,
    QUOTED_TITLE,
    SENTENCE_CHAR,
    TEXT_HEDGE,
    TITLE_MASK,
)
from xpert_frames.reading.vocabulary import (
    ABBREVIATIONS,
    COMPETING_EN,
    COMPETING_ZH,
    FUNCTION_WORDS,
    NAME_HEADS,
    NAME_TITLES,
    RELATIVE_EN,
    RELATIVE_ZH,
    SUBORDINATE_EN,
    SUBORDINATE_ZH,
    TERM_HEADS_ZH,
    either,
)

#: A leading ``Header:`` whose value follows on the same line (``E! Live Host: …``; no sentence
#: end before the colon but ``!``).
HEADER = r"^\s*(?:[^\n:：.。?？]|\.\S){2,60}[:：][ \t]*(\S)"
#: A relative clause after a comma, up to the sentence end (removed).
RELATIVE = (
    rf"[,，]\s*(?i:{either(RELATIVE_EN)})\s[^.。!?！？\n]*"
    rf"|，(?:{either(RELATIVE_ZH)})[^。！？\n]*"
)
#: A relative clause between the subject and its copula (``The show presented by X, where
#: contestants were set challenges, is called Fort Boyard``): removed, the copula kept.
MID_RELATIVE = rf"[,，]\s*(?i:{either(RELATIVE_EN)})\s[^,.。!?！？\n]*,(\s+(?i:is|are|was|were)\s)"
#: The first sentence up to and including its first copula (removed: the rest is the clause).
COPULA_LEAD = rf"^\s*{SENTENCE_CHAR}*?{COPULA_WORDS}"
#: A subordinate clause of reason or concession and all after it (removed: names in it are not
#: the answer: ``Paris, although many think Lyon``, ``北京，因为…``).
SUBORDINATE = (
    rf"(?s)\s(?i:{either(SUBORDINATE_EN + COMPETING_EN)})\s.*$"
    rf"|[,，]?\s*(?:{either(SUBORDINATE_ZH + COMPETING_ZH)}).*$"
)
#: A comma after a Chinese character ends a clause like a sentence end (``答案是北京，上海是…``
#: does not state 上海; a Chinese list is written with 、), in the clause and the reference alike.
CHINESE_COMMA = r"([\x{3400}-\x{9fff}])\s*[,，]"
#: A clause that opens a list on the next lines.
LIST_OPEN = r"^\s*[:：]?[ \t]*\n"
#: A list item's line break and marker (the items become one clause).
LIST_ITEM = r"\n+[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]*"
#: Folding: sentence ends, separators, then everything but letters and digits.
#: Sentence ends (a semicolon too: ``Churchill was prime minister; before him …``).
SENTENCE_END = r"[。!?！？;；\n]|\.[\"”’']*(?:\s|$)"
#: The period of an initial or a title before a capitalised word ends no sentence (``Michael
#: J. Fox``, ``G. Sankara Kurup``, ``Dr. Who``); before a word that opens sentences (``the note
#: E. This …``), after a Roman numeral (``King James I. He …``) or ``Jr.`` it does.
INITIAL = r"\b([A-HJ-UWYZ]|Mr|Mrs|Ms|Dr|St|Mt)\.(\s+\p{Lu})"
_KEPT = "\x01"
SENTENCE_OPENERS: tuple[str, ...] = (
    "The", "This", "That", "These", "Those", "It", "He", "She", "They", "We", "I", "In", "On",
    "At", "A", "An", "His", "Her", "Its", "Their", "There", "However", "As", "For", "Some", "But",
    "And", "So", "If", "When", "After", "Before", "Although", "While",
)  # fmt: skip
_OPENS_SENTENCE = rf"{_KEPT}(\s+(?:{'|'.join(SENTENCE_OPENERS)})\b)"
SEPARATOR = r"\s[-–—]\s|[,，:：()（）\[\]【】|✗、]"
NOT_WORD = r"[^\p{L}\p{N}¶|]+"
END_MARK, SEP_MARK = "¶", "|"
#: Characters that take no word boundary (plain containment).
CJK = r"[\x{3040}-\x{30ff}\x{3400}-\x{9fff}\x{ac00}-\x{d7af}\x{f900}-\x{faff}]"
#: The text (or the span) is read up to this many characters.
CLAUSE_CHARS = 600
#: A reference compared by its content words has at most this many (a longer one is a
#: sentence, where the order of the words carries the meaning).
CONTENT_WORDS = 4
#: At most this many characters glued to a Chinese reference make it another term.
GLUED_TERM = 2
_DECADE = r"\b(early|mid|late) (?:of )?(?:the )?(\d{3}0s)\b"
_YEAR_RANGE = r"^\s*(\d{3,4})\s*[–-]\s*(\d{3,4})\s*$"
_WORD_START = r"^[\p{L}\p{N}]"
#: "or" within a few words after or before the reference: two answers (``Oslo, Stockholm or
#: Copenhagen``, ``either Oslo or …``, ``北京、上海或广州``).
_OR_AFTER = r"^(?:\S+ ){0,3}(?:or|either)(?: |$)|^\S{0,6}(?:或者|或|还是)"
_OR_BEFORE = r"(?:^| )(?:or|either)(?: \S+){0,3} ?$|(?:或者|或|还是)\S{0,6} ?$"
#: The first sentence of a clause (what follows it is cut).
_AFTER_FIRST_SENTENCE = r"(?s)(?:[。!?！？\n]|\.(?:\s|$)).*$"
#: The subject of the first sentence, before its first English copula.
_FIRST_SUBJECT = r"^\s*((?:[^.。!?！？\n]|\.\S){1,80}?)\s(?i:is|are|was|were)\s"
#: A predicate that describes its subject: an article, or a participle (passive voice).
DESCRIBING = (
    r"^\s*(?i:the|a|an|one\s+of)\s"
    r"|^\s*(?i:[a-z]+(?:ed|en|wn)|born|made|built|held|led|won|sung|sold)\s"
)


def fold(value: pl.Expr, *, case_sensitive: bool) -> pl.Expr:
    """Text as space-separated words, ``¶`` for a sentence end (not after an initial), ``|``
    for a separator; abbreviations and decade phrases read as words; lower-cased unless
    ``case_sensitive``."""
    out = value.str.replace_all(CHINESE_COMMA, "${1}。")
    for _ in range(2):  # twice: a match takes the next initial's letter (``R. H. Thomson``)
        out = out.str.replace_all(INITIAL, f"${{1}}{_KEPT}${{2}}")
    out = out.str.replace_all(_OPENS_SENTENCE, ".${1}").str.replace_all(_KEPT, "", literal=True)
    out = out.str.replace_all(SENTENCE_END, f" {END_MARK} ")
    out = out.str.replace_all(SEPARATOR, f" {SEP_MARK} ").str.replace_all("&", " and ")
    out = out.str.replace_all(NOT_WORD, " ")
    out = out.str.replace_all(r"\s+", " ").str.strip_chars(" ")
    if not case_sensitive:
        out = out.str.to_lowercase()
    return abbreviate(out)


def abbreviate(value: pl.Expr) -> pl.Expr:
    """Words to their abbreviations (``avenue`` -> ``ave``) and decades (``middle of the
    1970s`` -> ``mid 1970s``), in lower- or upper-case text alike (case-insensitive)."""
    for word, short in ABBREVIATIONS:
        value = value.str.replace_all(rf"(?i)\b{word}\b", short)
    return value.str.replace_all(rf"(?i){_DECADE}", "${1} ${2}")


def answer_clause(plain: pl.Expr, rule: pl.Expr, raw: pl.Expr) -> pl.Expr:
    """The text the answer clause starts with (it runs on to the end; the match must start before
    its first sentence end): the span a span rule read, or the first sentence's (see module)."""
    # The match must start in the first sentence: the rest of a long text is never read.
    plain, raw = plain.str.head(CLAUSE_CHARS), raw.str.head(CLAUSE_CHARS)
    headed = plain.str.replace(HEADER, "${1}")
    # The copula rule read a later sentence when the first one has none (``Let me think
    # about this. The first … were held in Chamonix``): its span is the clause.
    first_copula = headed.str.contains(COPULA_LEAD)
    own = headed.str.replace_all(MID_RELATIVE, "${1}").str.replace_all(RELATIVE, "")
    own = strip_marks(own.str.replace(COPULA_LEAD, ""))
    read = strip_marks(raw.str.replace_all(RELATIVE, ""))
    own_rule = rule.is_null() | ((rule == "copula") & first_copula)
    clause = pl.when(own_rule).then(own).otherwise(read)
    clause = clause.str.replace(SUBORDINATE, "").str.replace(ERASED_LEAD, "")
    listed = clause.str.contains(LIST_OPEN)
    return pl.when(listed).then(clause.str.replace_all(LIST_ITEM, ", ")).otherwise(clause)


def answer_subject(plain: pl.Expr, rule: pl.Expr, raw: pl.Expr) -> pl.Expr:
    """The subject of the first sentence when the copula rule read that sentence and its
    predicate describes the subject (see module); null otherwise."""
    headed = plain.str.head(CLAUSE_CHARS).str.replace(HEADER, "${1}")
    subject = headed.str.extract(_FIRST_SUBJECT, 1)
    # A subject holding a clause (``The show hosted by X, where …``) is no name.
    describes = (
        (rule == "copula")
        & raw.str.contains(DESCRIBING)
        & headed.str.contains(COPULA_LEAD)
        & ~subject.str.contains(rf"[,，]\s*(?i:{either(RELATIVE_EN)})\s")
    )
    return pl.when(describes).then(subject)


def subject_matches(subject: pl.Series, reference: pl.Series, *, case_sensitive: bool) -> pl.Series:
    """Whether a form of ``reference`` ends ``subject`` (strings that :func:`answer_subject`
    returned; null: false), not as the tail of a longer capitalised name."""
    rows = pl.DataFrame({"cased": subject, "ref": reference}).with_row_index("row")
    marks = f" {SEP_MARK}{END_MARK}"
    rows = rows.with_columns(fold(pl.col("cased"), case_sensitive=True).str.strip_chars(marks))
    norm = pl.col("cased") if case_sensitive else pl.col("cased").str.to_lowercase()
    pairs = rows.with_columns(norm.alias("norm")).join(
        _forms_frame(reference, case_sensitive=case_sensitive), on="ref", how="inner"
    )
    hay, key = pl.lit(" ") + pl.col("norm"), pl.lit(" ") + pl.col("form")
    before = (
        pl.col("cased").str.head(pl.col("norm").str.len_chars() - pl.col("form").str.len_chars())
    ).str.extract(r"(\S+)\s*$")
    longer_name = before.str.contains(r"^\p{Lu}") & ~before.str.to_lowercase().is_in(
        list(NAME_TITLES)
    )
    hit = hay.str.ends_with(key) & ~longer_name.fill_null(False)
    hits = pairs.group_by("row").agg(hit.fill_null(False).any().alias("hit"))
    out = rows.select("row").join(hits, on="row", how="left").sort("row")
    return out["hit"].fill_null(False).alias("core")


def _forms_frame(references: pl.Series, *, case_sensitive: bool) -> pl.DataFrame:
    """One row per distinct reference and form: ``ref``, ``form`` (folded)."""
    distinct = references.drop_nulls().unique(maintain_order=True)
    forms = [reference_forms(r) for r in distinct.to_list()]
    frame = pl.DataFrame(
        {"ref": distinct, "form": pl.Series(forms, dtype=pl.List(pl.String))},
        schema={"ref": pl.String, "form": pl.List(pl.String)},
    ).explode("form")
    return frame.with_columns(fold(pl.col("form"), case_sensitive=case_sensitive)).filter(
        pl.col("form").str.len_chars() > 0
    )


def core_matches(clause: pl.Series, reference: pl.Series, *, case_sensitive: bool) -> pl.Series:
    """Whether a form of ``reference`` is stated in the answer clause (strings that
    :func:`answer_clause` returned), row by row (Boolean, no nulls)."""
    rows = pl.DataFrame({"clause": clause, "ref": reference}).with_row_index("row")
    # A guess in the clause's first sentence (``I think it might be Paris``) commits to nothing
    # (hedge words inside a quoted title are the title's).
    first = pl.col("clause").str.replace(_AFTER_FIRST_SENTENCE, "")
    guess = first.str.replace_all(QUOTED_TITLE, TITLE_MASK).str.contains(TEXT_HEDGE)
    rows = rows.with_columns(guess.fill_null(False).alias("guess"))
    rows = rows.with_columns(
        fold(pl.col("clause"), case_sensitive=True).alias("cased"),
    ).with_columns(
        (pl.col("cased") if case_sensitive else pl.col("cased").str.to_lowercase()).alias("norm")
    )
    forms = _forms_frame(reference, case_sensitive=case_sensitive)
    pairs = rows.drop("clause").join(forms, on="ref", how="inner")
    form = pl.col("form")
    latin_start = form.str.contains(_WORD_START) & ~form.str.contains(f"^{CJK}")
    latin_end = form.str.contains(r"[\p{L}\p{N}]$") & ~form.str.contains(f"{CJK}$")
    key = pl.concat_str(
        pl.when(latin_start).then(pl.lit(" ")).otherwise(pl.lit("")),
        form,
        pl.when(latin_end).then(pl.lit(" ")).otherwise(pl.lit("")),
    )
    hay = pl.concat_str(pl.lit(" "), pl.col("norm"), pl.lit(" "))
    hay_cased = pl.concat_str(pl.lit(" "), pl.col("cased"), pl.lit(" "))
    pairs = pairs.with_columns(
        key.alias("key"),
        latin_start.alias("latin_start"),
        latin_end.alias("latin_end"),
        hay.str.split(key).alias("parts"),
        hay_cased.alias("hay_cased"),
    )
    prefix = pl.col("parts").list.first()
    start = prefix.str.len_chars()
    after = pl.col("hay_cased").str.slice(start + pl.col("key").str.len_chars())
    before = pl.col("hay_cased").str.slice(0, start)
    pairs = pairs.with_columns(
        (pl.col("parts").list.len() > 1).alias("found"),
        prefix.str.contains(END_MARK, literal=True).alias("late"),
        before.str.extract(r"(\S+)\s*$").alias("before1"),
        after.str.extract(r"^\s*(\S+)").alias("after1"),
        before.str.replace(r"[\s|]+$", "").alias("before2"),
        after.str.replace(r"^[\s|]+", "").alias("after2"),
    )
    titles, heads = list(NAME_TITLES), list(NAME_HEADS)
    capital_before = pl.col("before1").str.contains(r"^\p{Lu}") & ~pl.col(
        "before1"
    ).str.to_lowercase().is_in(titles)
    capital_after = pl.col("after1").str.contains(r"^\p{Lu}") & ~pl.col(
        "after1"
    ).str.to_lowercase().is_in(heads)
    longer_name = (pl.col("latin_start") & capital_before.fill_null(False)) | (
        pl.col("latin_end") & capital_after.fill_null(False)
    )
    two = pl.col("after2").str.to_lowercase().str.contains(_OR_AFTER) | pl.col(
        "before2"
    ).str.to_lowercase().str.contains(_OR_BEFORE)
    # A Chinese reference with one or two characters glued on is another term (``北京市``,
    # ``北京大学`` are not ``北京``); inside a longer run it is a word of a sentence.
    glued = before.str.extract(r"(\S*)$").str.len_chars().fill_null(0) + after.str.extract(
        r"^(\S*)"
    ).str.len_chars().fill_null(0)
    other_term = ~pl.col("latin_start") & ~pl.col("latin_end") & glued.is_between(1, GLUED_TERM)
    # A reference followed in its run by a term head is named as part of a term (``妨害公务`` in
    # ``聚众妨害公务秩序罪``); the form with the head decides (``妨害公务罪``).
    term_heads = either(TERM_HEADS_ZH)
    headed = ~form.str.contains(f"(?:{term_heads})$") & after.str.contains(
        f"^[^\\s]*?(?:{term_heads})"
    )
    other_term = other_term | (~pl.col("latin_end") & headed)
    phrase = (
        ~pl.col("guess")
        & pl.col("found")
        & ~pl.col("late")
        & ~longer_name
        & ~two.fill_null(False)
        & ~other_term.fill_null(False)
    )
    # Content words of a form joined by function words, all in the first sentence.
    sentence = pl.col("norm").str.split(END_MARK).list.first().str.split(" ")
    words = form.str.split(" ")
    content = words.list.set_difference(pl.lit([*FUNCTION_WORDS, SEP_MARK, END_MARK, ""]))
    joined = words.list.set_intersection(pl.lit(list(FUNCTION_WORDS))).list.len() > 0
    covered = (
        ~pl.col("guess")
        & joined
        & content.list.len().is_between(1, CONTENT_WORDS)
        & (content.list.set_difference(sentence).list.len() == 0)
    )
    pairs = pairs.with_columns(
        (phrase.fill_null(False) | covered.fill_null(False)).alias("hit"),
        sentence.alias("sentence"),
    )
    hits = pairs.group_by("row").agg(pl.col("hit").any())
    out = rows.select("row", "ref", "norm", "guess").join(hits, on="row", how="left")
    out = out.sort("row").with_columns(pl.col("hit").fill_null(False))
    return (out["hit"] | (_in_year_range(out) & ~out["guess"])).alias("core")


def _in_year_range(rows: pl.DataFrame) -> pl.Series:
    """A reference ``A–B`` (years) and a year inside it in the clause's first sentence."""
    bounds = rows.select(
        "row",
        pl.col("ref").str.extract(_YEAR_RANGE, 1).cast(pl.Int64).alias("low"),
        pl.col("ref").str.extract(_YEAR_RANGE, 2).cast(pl.Int64).alias("high"),
        pl.col("norm")
        .str.split(END_MARK)
        .list.first()
        .str.extract_all(r"\b\d{3,4}\b")
        .alias("years"),
    )
    ranged = bounds.filter(pl.col("low").is_not_null())
    hit = pl.Series("core", [False] * rows.height)
    if not ranged.height:
        return hit
    years = ranged.explode("years").with_columns(pl.col("years").cast(pl.Int64))
    inside = years.filter(pl.col("years").is_between(pl.col("low"), pl.col("high")))
    at = inside["row"].unique()
    return hit.scatter(at, True) if at.len() else hit
