"""The forms a stated answer takes, read once per distinct string (plain Python on the rare
rows that reach the symbolic span, never per row of a frame):

* :func:`joined_segments`: the last group of maths segments joined as one answer (``$x = 2$
  or $x = 3$``, ``$x_1=2$，$x_2=3$``) → their contents joined by commas;
* :func:`fit_to_reference`: a prediction span in the form of the reference span: the last
  right-hand side of an equation or chain when the reference is no equation (``A\\cap B=\\{2\\}``
  → ``\\{2\\}``, ``x_1=2, x_2=3`` → ``2, 3``), and a one-variable inequality or set-builder in
  interval notation when the reference is an interval (``1 \\le x < 3`` → ``[1, 3)``).
* :func:`roots_reference`: a reference span that lists roots of one unknown (``x=2或x=3``,
  ``x_1=2, x_2=3``) → their values (``2, 3``), so predictions are fitted as to a list;
* :func:`angle_tuple`: a vector in angle brackets (``\\langle 1, 2 \\rangle``) in a prediction
  span → the tuple ``(1, 2)`` (Math-Verify reads tuples); a reference is left as written (an
  interval ``(2, 3)`` must not equal the vector ``\\langle 2, 3 \\rangle``).

Anything that does not read cleanly is left as it is: Math-Verify then decides the span as
written, so a rewrite can only help a right answer, never credit a wrong one.
"""

from __future__ import annotations

import re

import polars as pl

from xpert_frames.reading.numeric.grammar import fold_text, rewrite_text
from xpert_frames.reading.subsets import on_subset

#: A maths segment: ``$$…$$``, ``$…$``, ``\\(…\\)`` or ``\\[…\\]``.
_SEGMENT = re.compile(r"\$\$(.+?)\$\$|\$([^$]+)\$|\\\((.*?)\\\)|\\\[(.*?)\\\]", re.S)
#: What may stand between segments of one answer: a comma, ``or``/``and``/``或``/``和``.
_JOIN = re.compile(r"\s*(?:[,，、]\s*)?(?:(?:or|and|或者|或|和|以及|及)\s*)?", re.I)
_AND = re.compile(r"(?i)\band\b|和|以及|及")
_INEQUALITY = re.compile(r"[<>≤≥]|\\(?:le|ge|lt|gt|leq|geq|leqslant|geqslant)(?![a-zA-Z])")


def joined_segments(sentence: str) -> str | None:
    """The contents of the last group of joined maths segments (``, ``-separated), else
    ``None`` when the sentence has no segment. Inequalities joined by ``and`` are not joined
    (``and`` between them is an intersection, not a list)."""
    found = list(_SEGMENT.finditer(sentence))
    if not found:
        return None
    group = [found[-1]]
    for prev in reversed(found[:-1]):
        gap = sentence[prev.end() : group[0].start()]
        if not _JOIN.fullmatch(gap):
            break
        if _AND.search(gap) and _INEQUALITY.search(prev.group(0) + group[0].group(0)):
            break
        group.insert(0, prev)
    contents = [next(g for g in m.groups() if g is not None).strip() for m in group]
    return ", ".join(contents) if one_answer(contents) else contents[-1]


_UNKNOWN = re.compile(
    r"^\s*([a-zA-Z])(?:_\{?[0-9a-zA-Z]+\}?)?\s*(?:=|<|>|≤|≥|\\(?:le|ge|lt|gt|leq|geq)(?![a-zA-Z]))"
)


def one_answer(parts: list[str]) -> bool:
    """Whether joined values are one answer: all plain values, or all stated for the same
    unknown (``x = 2``, ``x = 3``; ``x_1=2``, ``x_2=3``), not steps (``4x = 20``, ``x = 5``)."""
    unknowns = set()
    for part in parts:
        m = _UNKNOWN.match(part)
        unknowns.add(m.group(1) if m else ("?" if _RELATION.search(part) else ""))
    return len(unknowns) == 1 and "?" not in unknowns


#: An aside after the answer (``…, which is less than $3$``, ``，此时 $x=1$``), once the
#: sentence has had maths: it is cut off.
ASIDE = (
    r"(?s)^(.*?(?:\$|\\\)|\\\]|[0-9]).*?)(?:[,，;；]\s*|\s+)(?:(?i:which|where|when|whenever"
    r"|since|because|if|attained|achieved)(?:[^A-Za-z]|$)|此时|这时|当|因为|由于|其中|取得).*$"
)
#: A later clause that names another quantity with its own ``为``/``是``/``is``/``=`` (``所以体积为
#: $4\pi$，表面积另算为 $12\pi$``, ``so the volume is $4\pi$, and the surface area is
#: $12\pi$``), once the sentence has had maths: it is cut off (the first answer stands).
OTHER_QUANTITY = (
    r"(?s)^(.*?(?:\$|\\\)|\\\]|[0-9]).*?)[,，;；]\s*(?:(?i:and|while|but)\s+)?(?:[\x{3400}-\x{9fff}]+"
    r"|(?:(?i:the)\s+)?[A-Za-z]{2,}(?:\s+[A-Za-z]{2,}){0,3})\s*(?:为|是|(?i:is|equals)\s|=).*$"
)
#: Plain-text values joined as one answer (``x=2 或 x=3``, ``x = 1 or x = 4``) → comma-joined.
JOINED = r"([0-9a-zA-Z})\]])(?:\s+(?:or|and)\s+|\s*(?:或者|或|和)\s*)([-0-9a-zA-Z\\(\[{])"

_OPEN, _CLOSE = "([{", ")]}"


def _top_level_split(text: str, separators: re.Pattern[str]) -> list[str]:
    """``text`` split at the matches of ``separators`` outside brackets (``\\{``/``\\}``
    count as braces)."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(depth - 1, 0)
        elif depth == 0:
            m = separators.match(text, i)
            if m and m.end() > i:
                parts.append(text[start:i])
                start = i = m.end()
                continue
        i += 1
    parts.append(text[start:])
    return parts


_COMMA = re.compile(r"\s*,\s*")
_EQUALS = re.compile(r"(?<![<>!:\\])=(?!=)")
_OR = re.compile(r"\s*(?:,|\\text\s*\{\s*(?:or|或者|或)\s*\}|\\lor|\\vee|\bor\b|或)\s*")
#: A reference that is an equation or inequality keeps the prediction's equation.
_RELATION = re.compile(r"=|[<>≤≥≠]|\\(?:le|ge|lt|gt|leq|geq|neq|ne|in|subset)(?![a-zA-Z])")
#: A reference in interval notation: brackets around a comma, a union, or infinity.
_INTERVAL = re.compile(r"^\s*[\[(].*,.*[\])]\s*$|\\cup|∪|\\infty|∞", re.S)
#: :data:`_INTERVAL` for Polars.
INTERVAL = r"(?s)^\s*[\[(].*,.*[\])]\s*$|\\cup|∪|\\infty|∞"


def _right_side(part: str) -> str:
    sides = _top_level_split(part, _EQUALS)
    return sides[-1].strip() if len(sides) > 1 and sides[-1].strip() else part.strip()


_VARIABLE = re.compile(r"^[a-zA-Z](?:_\{?[0-9a-zA-Z]\}?)?$")
_SET_BUILDER = re.compile(r"^\\\{\s*([a-zA-Z])\s*(?:\\mid|\\vert|\||:)\s*(.*?)\s*\\\}$", re.S)
_IN = re.compile(r"^[a-zA-Z]\s*(?:\\in|∈)\s*(.+)$", re.S)


def _relation_ops(part: str) -> str:
    part = re.sub(r"\\leqslant|\\leq|\\le(?![a-zA-Z])|≤|<=", "≤", part)
    part = re.sub(r"\\geqslant|\\geq|\\ge(?![a-zA-Z])|≥|>=", "≥", part)
    return re.sub(r"\\lt(?![a-zA-Z])", "<", re.sub(r"\\gt(?![a-zA-Z])", ">", part))


def _ray(op: str, bound: str, variable_left: bool) -> str:
    """The interval of ``x op bound`` (``variable_left``) or ``bound op x``."""
    below = op in "<≤" if variable_left else op in ">≥"
    closed = op in "≤≥"
    if below:
        return f"(-\\infty, {bound}" + ("]" if closed else ")")
    return ("[" if closed else "(") + f"{bound}, +\\infty)"


def _interval(part: str) -> str | None:
    """One inequality in one variable as an interval, else ``None``."""
    part = part.strip()
    inside = _IN.match(part)
    if inside:
        return inside.group(1).strip()
    pieces = [p.strip() for p in re.split(r"([<>≤≥])", _relation_ops(part))]
    if len(pieces) == 3:
        left, op, right = pieces
        if _VARIABLE.match(left) and right and left not in right:
            return _ray(op, right, True)
        if _VARIABLE.match(right) and left and right not in left:
            return _ray(op, left, False)
        return None
    if len(pieces) == 5 and _VARIABLE.match(pieces[2]) and pieces[0] and pieces[4]:
        low, op1, _, op2, high = pieces
        if op1 in ">≥" and op2 in ">≥":  # 3 > x ≥ 1 is 1 ≤ x < 3
            flip = {">": "<", "≥": "≤"}
            low, op1, op2, high = high, flip[op2], flip[op1], low
        if op1 in "<≤" and op2 in "<≤":
            return ("[" if op1 == "≤" else "(") + f"{low}, {high}" + ("]" if op2 == "≤" else ")")
    return None


def _intervals(span: str) -> str | None:
    builder = _SET_BUILDER.match(span.strip())
    body = builder.group(2) if builder else span
    parts = _top_level_split(body, _OR)
    out = [_interval(p) for p in parts if p.strip()]
    if not out or any(o is None for o in out):
        return None
    return " \\cup ".join(o for o in out if o is not None)


#: Roots joined inside ``\\text{}`` (``x=-2 \\text{ or } x=3``, ``\\text{ 或 }``, ``\\text{and}``).
_TEXT_JOIN = re.compile(r"\s*\\text\s*\{\s*(?:or|and|或者|或|和|,|，)\s*\}\s*", re.I)
_COLUMN = re.compile(r"^\\begin\{([pb])matrix\}(.*)\\end\{\1matrix\}$", re.S)


def _column(span: str) -> list[str] | None:
    """The entries of a column vector (``\\begin{pmatrix} 2 \\\\ -1 \\end{pmatrix}``), else None."""
    m = _COLUMN.match(span.strip())
    if m is None or "&" in m.group(2):
        return None
    entries = [e.strip() for e in m.group(2).split("\\\\")]
    entries = entries[:-1] if entries and not entries[-1] else entries
    return entries if len(entries) >= 2 and all(entries) else None


def _tuple(span: str) -> list[str] | None:
    """The entries of a tuple in parentheses (``(2, -1)``), else None."""
    s = span.strip()
    if not (s.startswith("(") and s.endswith(")")):
        return None
    inner, depth = s[1:-1], 0
    for ch in inner:
        depth += 1 if ch in _OPEN else -1 if ch in _CLOSE else 0
        if depth < 0:
            return None  # ``(1, 2) \cup (3, 4)``: not one tuple
    parts = [p.strip() for p in _top_level_split(inner, _COMMA)]
    return parts if len(parts) >= 2 and all(parts) else None


_ANGLE = re.compile(r"^(?:\\left\s*)?\\langle(?![a-zA-Z])(.*?)(?:\\right\s*)?\\rangle$", re.S)


_THOUSANDS = re.compile(r"[0-9],[0-9]{3}(?![0-9])")


def angle_tuple(span: str) -> str:
    """A vector in angle brackets (``\\langle 1, 2 \\rangle``, ``\\left\\langle …
    \\right\\rangle``) as the tuple of its entries, else ``span`` unchanged."""
    m = _ANGLE.match(span.strip())
    if m is None:
        return span
    entries = [p.strip() for p in _top_level_split(m.group(1), _COMMA)]
    if len(entries) < 2 or not all(entries) or "\\langle" in m.group(1):
        return span
    if _THOUSANDS.search(m.group(1)):  # ``1,000``: entries or a thousands separator?
        return span
    return "(" + ", ".join(entries) + ")"


def _vector(span: str, reference: str) -> str | None:
    """A column vector in the tuple form of a tuple reference, or a tuple in the column form
    of a column-vector reference (same length), else None."""
    column, ref_column = _column(span), _column(reference)
    if column is not None and ref_column is None:
        ref_tuple = _tuple(reference)
        if ref_tuple is not None and len(ref_tuple) == len(column):
            return "(" + ", ".join(column) + ")"
    entries = _tuple(span) if ref_column is not None else None
    if entries is not None and ref_column is not None and len(entries) == len(ref_column):
        return "\\begin{pmatrix} " + " \\\\ ".join(entries) + " \\end{pmatrix}"
    return None


def intervals(span: str) -> str | None:
    """A set-builder or inequalities in one variable (joined by or) in interval notation."""
    builder = _SET_BUILDER.match(span.strip())
    return _intervals(span) if builder or _INEQUALITY.search(span) else None


def fit_to_reference(span: str, reference: str) -> str:
    """``span`` in the form of ``reference`` (module docs); unchanged when it does not apply.
    Angle-bracket vectors are tuples, before and after (``\\vec v = \\langle 2, 1 \\rangle``)."""
    return angle_tuple(_fit(angle_tuple(span), reference))


def _fit(span: str, reference: str) -> str:
    related = _RELATION.search(reference) is not None
    inequality = _INEQUALITY.search(span) or _SET_BUILDER.match(span.strip()) or _IN.match(span)
    if _INTERVAL.search(reference) and not related and inequality:
        interval = _intervals(span)
        if interval is not None:
            return interval
    if "matrix" in span or "matrix" in reference:
        vector = _vector(_fitted(span, related), reference)
        if vector is not None:
            return vector
    return _fitted(span, related)


def _fitted(span: str, related: bool) -> str:
    """Roots joined in ``\\text{}`` comma-joined, and the last right-hand side of each
    equation when the reference is none."""
    if "\\text" in span and "=" in span and not related:
        joined = _TEXT_JOIN.sub(", ", span)
        if joined != span and one_answer(_top_level_split(joined, _COMMA)):
            span = joined
    if "=" in span and not related:
        parts = _top_level_split(span, _COMMA)
        return ", ".join(_right_side(p) for p in parts)
    return span


#: Inequalities joined by or (``$x < -1$ or $x > 3$``): a last sentence with a span even
#: without a strong character.
OR_INEQ = r"[<>][^<>]*(?:\bor\b|或)[^<>]*[<>]"
#: A reference span that may list roots (``x=2或x=3``, ``x_1=2, x_2=3``, ``x=1 or x=4``).
ROOTS_HINT = r"=.*(?:,|，|或|\bor\b|\\lor|\\vee|\\text)"
_ROOT = re.compile(r"^\s*[a-zA-Z](?:_\{?[0-9a-zA-Z]+\}?)?\s*=\s*([^=]+)$")


def _roots(span: str) -> str | None:
    """Roots of one unknown listed with ``or``/``或``/commas → their values comma-joined
    (``x=2或x=3`` → ``2, 3``), else ``None``."""
    parts = [p for p in _top_level_split(span.replace("，", ","), _OR) if p.strip()]
    values = [_ROOT.match(p) for p in parts]
    if len(parts) < 2 or not one_answer(parts):
        return None
    return ", ".join(m.group(1).strip() for m in values if m) if all(values) else None


def roots_reference(df: pl.DataFrame) -> pl.DataFrame:
    """Column ``span`` (reference spans) with listed roots as their values (:func:`_roots`),
    once per distinct span that may list them (:data:`ROOTS_HINT`); others unchanged."""
    return on_subset(df, pl.col("span").str.contains(ROOTS_HINT), _roots_of)


def _roots_of(df: pl.DataFrame) -> pl.DataFrame:
    distinct = df["span"].unique()
    roots = pl.Series("roots", [_roots(s) for s in distinct], pl.String)
    table = pl.DataFrame([distinct, roots])
    out = df.join(table, on="span", how="left", maintain_order="left")
    return out.with_columns(pl.coalesce("roots", "span").alias("span")).drop("roots")


def one_answer_chunk(df: pl.DataFrame) -> pl.Series:
    """Per row of ``df`` (``chunk``: the last chunk between words; ``joined``: the same with
    joined values comma-joined): ``joined`` where its values are one answer
    (:func:`one_answer`, once per distinct value), else ``chunk``."""
    f = pl.col
    several = df.filter(f("joined") != f("chunk"))["joined"].unique()
    if several.len() == 0:  # nothing was joined
        return df["chunk"]
    one = pl.Series("one", [one_answer(j.split(",")) for j in several], pl.Boolean)
    df = df.join(pl.DataFrame([several, one]), on="joined", how="left", maintain_order="left")
    chosen = pl.when(f("one").fill_null(False)).then(f("joined")).otherwise(f("chunk"))
    return df.select(chosen).to_series()


#: A span that :func:`fit_to_reference` may rewrite.
_FIT_HINT = r"[=<>≤≥∈]|\\(?:le|ge|lt|gt|in|\{|langle)|matrix"


def fit_batch(batch: pl.Series) -> pl.Series:
    """The prediction spans of a ``{span, reference_span}`` batch in the reference's form,
    each distinct pair rewritten once (:func:`fit_to_reference`)."""
    f = pl.col
    df = batch.struct.unnest().with_row_index("row")
    todo = df.filter(f("reference_span").is_not_null() & f("span").is_not_null())
    hint = f("span").str.contains(_FIT_HINT) | f("reference_span").str.contains(
        "matrix", literal=True
    )
    todo = todo.filter(hint)
    if todo.height == 0:
        return df["span"].alias(batch.name)
    pairs = todo.select("span", "reference_span").unique()
    fitted = [fit_to_reference(s, r) for s, r in pairs.iter_rows()]
    pairs = pairs.with_columns(pl.Series("fit", fitted, dtype=pl.String))
    todo = todo.join(pairs, on=["span", "reference_span"], how="left")
    return df["span"].scatter(todo["row"], todo["fit"]).alias(batch.name)


#: ``√`` as written in plain text (``2√2``, ``√(x+1)``, ``√{3}``), which Math-Verify does not read.
_SQRT = [
    (r"√\s*\(([^()]*)\)", r"\sqrt{${1}}"),
    (r"√\s*\{", r"\sqrt{"),
    (r"√\s*([0-9]+(?:\.[0-9]+)?|[A-Za-z])", r"\sqrt{${1}}"),
]


def sqrt_latex(span: pl.Expr) -> pl.Expr:
    """``√`` written out as ``\\sqrt{}`` (:data:`_SQRT`)."""
    out = span
    for pattern, repl in _SQRT:
        out = out.str.replace_all(pattern, repl)
    return out


def latex_form(span: pl.Expr) -> pl.Expr:
    """Normalized LaTeX for the exact fallback: folded, no spaces, single characters unbraced
    (``\\sqrt{5}`` = ``\\sqrt5``, ``x^{2}`` = ``x^2``), ``\\dfrac`` = ``\\frac``."""
    out = rewrite_text(fold_text(span)).str.replace_all(r"\s+", "")
    return out.str.replace_all(r"\{(.)\}", "${1}").str.strip_chars(".")


_SPACE_CHARS = " \t\n\r$"


def strip_delimiters(span: pl.Expr) -> pl.Expr:
    """A span without ``$``, ``\\(``/``\\)``, ``\\[``/``\\]`` around it or a final period."""
    out = span.str.strip_chars(_SPACE_CHARS).str.strip_prefix("\\(").str.strip_prefix("\\[")
    out = (
        out.str.strip_chars_end(_SPACE_CHARS + ".。")
        .str.strip_suffix("\\)")
        .str.strip_suffix("\\]")
    )
    return out.str.strip_chars(_SPACE_CHARS)


def scatter_spans(name: str, length: int, spans: pl.DataFrame) -> pl.Series:
    """A String series of ``length`` nulls with ``spans["span"]`` at rows ``spans["row"]``."""
    out = pl.repeat(None, length, dtype=pl.String, eager=True).alias(name)
    return out.scatter(spans["row"], spans["span"]) if spans.height else out
