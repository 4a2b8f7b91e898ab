"""A symbolic pair put in comparable forms before it is verified, once per distinct pair (plain
Python on the rows that reach the symbolic step, never per row of a frame).

:func:`fit_pair_of` rewrites both answer spans the same way, then says whether they are now
written identically (then they are equal, without Math-Verify):

* the constants e and i written upright (``\\mathrm{e}``, ``\\mathrm i``) as ``e`` and ``i``
  (Math-Verify reads no ``\\mathrm{e}``: ``1 - \\frac{1}{\\mathrm{e}}`` came out as ``1``;
  other upright letters may be units, ``15\\mathrm{m}``, and are left);
* spacing and delimiters: ``$``, ``\\left``/``\\right``, ``\\,`` ``\\;`` ``\\!``
  ``\\quad``, ``\\dfrac`` and ``\\tfrac`` as ``\\frac``, spaces, braces that group the whole
  span (``{f(n)=n}``, not around a comma list);
* words around the answer: a leading ``\\text{The solutions are }``; trailing conditions
  (``f(x)=2x \\text{ for all } x>0`` → ``f(x)=2x``, not inside ``\\begin{…}``) only to find
  the two written identically; a span that is a sentence (``So the angle is
  pi/2.``) gives what follows its last "is"/"are"/"=";
* plain-text maths: ``sqrt(…)`` as ``\\sqrt{…}``, ``pi`` as ``\\pi``;
* ``\\log`` (no base) as ``\\ln`` when the other side writes ``\\ln``;
* a LaTeX mixed number (``88 \\frac{2}{3}``, the whole span) as one fraction;
* a repeating decimal as its exact fraction: ``0.1\\overline{6}``, ``0.1\\dot{6}``,
  ``0.\\dot{1}\\dot{8}``, ``0.1(6)``, ``0.1666...`` (a block written at least twice before the
  dots) and ``0.1666`` said to repeat (marked ``\\repeating`` by the span reader: the shortest
  block written at least twice at the end, else the last digit) → ``\\frac{1}{6}``;
* a multiple-choice label before the prediction's value (``\\text{(C)}\\ \\frac{5}{2}``) left
  out where the reference has none;
* ``\\pm`` inside a tuple expanded to the tuples it stands for (``(0, \\pm 2)`` → ``(0, 2), (0,
  -2)``), on the side that has it when the other has none;
* a function equal up to renaming its variable: ``f(y) = 2y`` against ``f(x) = 2x`` → the
  prediction's variable renamed to the reference's (same function name, one letter each).

Anything that does not read cleanly is left as it is: Math-Verify then decides the span as
written.
"""

from __future__ import annotations

import functools
import re
from fractions import Fraction

import polars as pl

_SPACING = re.compile(
    r"\\left(?![a-zA-Z])|\\right(?![a-zA-Z])|(?<!\\)\\[,;:! ]|\\q?quad(?![a-zA-Z])"
)
#: The constants e and i written upright (``\\mathrm{e}``, ``\\mathrm i``, ``\\rm{e}``).
_UPRIGHT = re.compile(r"\\(?:mathrm|rm)\s*(?:\{\s*([ei])\s*\}|\s([ei])(?![A-Za-z]))")
#: Words leading to the answer in a ``\\text{}`` (``The answer is``, ``Answer:``): "is", "are" or
#: "be" as a word (not the end of ``Paris`` or ``Square``), or a colon.
_LEADING = re.compile(
    r"^\s*\\text\s*\{\s*[A-Za-z][A-Za-z ,']*(?:[ ,'](?:is|are|be)|:)\s*\}\s*:?\s*"
)
#: A multiple-choice label before the value (``\\text{(C)}\\ \\frac{5}{2}``, ``(B) 12``).
_CHOICE = re.compile(r"^\s*(?:\\text(?:bf)?\s*\{\s*\(([A-E])\)\s*\}|\(([A-E])\))\s*(?=\S)")
_TRAILING = re.compile(
    r"\s*[,;]?\s*\\text\s*\{\s*(?:for|where|if|when|with|whenever)\b[^{}]*\}.*$", re.S
)
_SENTENCE_TAIL = re.compile(r"(?i)^.*(?:\bis|\bare|\bequals|=)\s+(.+?)[.\s]*$", re.S)
_PROSE = re.compile(r"(?:^|[^A-Za-z\\])[A-Za-z]{2,}\s+[A-Za-z]{2,}")
_SQRT = re.compile(r"(?<![\\A-Za-z])sqrt\s*\(([^()]*)\)")
_PI = re.compile(r"(?<![\\A-Za-z])pi(?![A-Za-z])")
_LOG = re.compile(r"\\log(?![a-zA-Z_])")
_MIXED = re.compile(r"^([0-9]+)\s*\\frac\s*\{([0-9]+)\}\s*\{([0-9]+)\}$")
_PM = re.compile(r"\\pm(?![a-zA-Z])")
_LN = re.compile(r"\\ln(?![a-zA-Z])")
_TUPLE = re.compile(r"\(([^()]*)\)")
_FUNCTION = re.compile(r"^\s*([a-zA-Z])\s*\(\s*([a-zA-Z])\s*\)\s*=(.+)$", re.S)


def _ungroup(span: str) -> str:
    """``{f(n)=n}`` → ``f(n)=n``: braces around the whole span only group it (not around a
    comma list, which may be a set written without ``\\{``)."""
    while span.startswith("{") and span.endswith("}") and "," not in span:
        depth = 0
        for i, ch in enumerate(span):
            depth += {"{": 1, "}": -1}.get(ch, 0)
            if depth == 0 and i < len(span) - 1:
                return span  # the first brace closes before the end: ``{a}+{b}``
        span = span[1:-1].strip()
    return span


def _clean(span: str) -> str:
    span = span.strip().strip("$").strip()
    span = span.replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")
    if "\\m" in span or "\\r" in span:
        span = _UPRIGHT.sub(lambda m: m.group(1) or m.group(2), span)
    span = _SPACING.sub(" ", span)
    return _ungroup(re.sub(r"\s+", " ", span).strip())


def _words_off(span: str, trailing: bool) -> str:
    span = _LEADING.sub("", span)
    if trailing and "\\begin" not in span:
        span = _TRAILING.sub("", span)
    if "\\" not in span and _PROSE.search(span):
        m = _SENTENCE_TAIL.match(span)
        if m:
            span = m.group(1)
    span = _SQRT.sub(r"\\sqrt{\1}", span)
    return _PI.sub(r"\\pi", span).strip().rstrip(".").strip()


_DIGITS = r"([0-9]*)\.([0-9]*)"
_REPEATING = [
    # 0.1\overline{6}, 0.1\dot{6}, 0.\dot{1}\dot{8} (dots over the period's first and last
    # digits), 0.1(6), 0.1666\repeating (said to repeat: the shortest block written at least
    # twice at the end, else the last digit), 0.1666... (a block written at least twice).
    re.compile(_DIGITS + r"\\overline\s*\{([0-9]{1,12})\}"),
    re.compile(_DIGITS + r"\\dot\s*\{?([0-9])\}?(?:([0-9]{0,10})\\dot\s*\{?([0-9])\}?)?"),
    re.compile(r"(?<![0-9.])" + _DIGITS + r"\(([0-9]{1,12})\)"),
    re.compile(_DIGITS + r"\\repeating(?![a-zA-Z])"),
    re.compile(_DIGITS + r"(?:\.\.\.|…|\\[lc]?dots(?![a-zA-Z]))"),
]


def _period(digits: str, *, said: bool) -> int | None:
    """The length of the shortest block that ``digits`` ends with at least twice; a decimal
    ``said`` to repeat without one repeats its last digit."""
    for size in range(1, len(digits) // 2 + 1):
        if digits[-size:] == digits[-2 * size : -size]:
            return size
    return 1 if said and digits else None


def _exact_repeating(m: re.Match[str], kind: int) -> str:
    whole, fixed = m.group(1), m.group(2)
    if kind == 0 or kind == 2:
        block = m.group(3)
    elif kind == 1:
        block = m.group(3) + (m.group(4) or "") + (m.group(5) or "")
    else:
        size = _period(fixed, said=kind == 3)
        if size is None:
            return m.group(0)
        fixed, block = fixed[:-size], fixed[-size:]
    if not block or not (whole or fixed or kind != 2):
        return m.group(0)
    # whole.fixed(block…) = (whole fixed block - whole fixed) / (10^len(fixed) (10^len(block) - 1))
    num = int(whole + fixed + block or "0") - int(whole + fixed or "0")
    den = 10 ** len(fixed) * (10 ** len(block) - 1)
    value = Fraction(num, den)
    return f"\\frac{{{value.numerator}}}{{{value.denominator}}}"


def _repeating(span: str) -> str:
    """Repeating decimals as exact fractions (``0.1\\overline{6}`` → ``\\frac{1}{6}``)."""
    if not any(c in span for c in ("\\", "(", ".")):
        return span
    for kind, pattern in enumerate(_REPEATING):
        span = pattern.sub(functools.partial(_exact_repeating, kind=kind), span)
    return span


def _mixed(span: str) -> str:
    m = _MIXED.match(span)
    if not m:
        return span
    whole, num, den = (int(g) for g in m.groups())
    if den == 0 or num >= den:
        return span
    return f"\\frac{{{whole * den + num}}}{{{den}}}"


def _plus(head: str) -> str:
    """What ``\\pm`` reads as in its ``+`` case after ``head``: nothing where it is a sign
    (nothing or an operator before it: ``\\pm 2`` is ``2``), ``+`` after a term (``2 \\pm
    \\sqrt{3}`` is ``2 + \\sqrt{3}``, not ``2 \\sqrt{3}``)."""
    before = head.rstrip()
    return "" if not before or before[-1] in "=<>+-*/[{:" else "+"


def _expand_pm(span: str) -> str:
    def expand(m: re.Match[str]) -> str:
        parts = m.group(1).split(",")
        out: list[list[str]] = [[]]
        for part in parts:
            sign = _PM.search(part)
            if sign:
                head, tail = part[: sign.start()], part[sign.end() :]
                plus, minus = head + _plus(head) + tail, head + "-" + tail
                out = [[*o, v] for o in out for v in (plus.strip(), minus.strip())]
            else:
                out = [[*o, part.strip()] for o in out]
        return ", ".join("(" + ", ".join(o) + ")" for o in out)

    return _TUPLE.sub(expand, span)


def _rename(pred: str, ref: str) -> str:
    p, r = _FUNCTION.match(pred), _FUNCTION.match(ref)
    if not p or not r or p.group(1) != r.group(1) or p.group(2) == r.group(2):
        return pred
    old, new = p.group(2), r.group(2)
    body = p.group(3)
    if re.search(rf"(?<![\\A-Za-z]){new}(?![A-Za-z])", body):
        return pred  # the new name is taken in the body
    body = re.sub(rf"(?<![\\A-Za-z]){old}(?![A-Za-z])", new, body)
    return f"{p.group(1)}({new}) ={body}"


def fit_pair_of(pred: str, ref: str) -> tuple[str, str, bool]:
    """(prediction span, reference span, written identically) after the rewrites (module
    docs)."""
    p, r = _forms(pred, ref, trailing=False)
    # Trailing conditions (``\\text{ for all } x>0``) are left out only to find the two
    # written identically; Math-Verify gets them (they may carry a parameter's range).
    same = _same(*_forms(pred, ref, trailing=True)) or _same(p, r)
    return p, r, same


def _same(p: str, r: str) -> bool:
    return re.sub(r"\s+", "", p) == re.sub(r"\s+", "", r) and p != ""


def _forms(pred: str, ref: str, *, trailing: bool) -> tuple[str, str]:
    # Repeating decimals first: a final ``...`` is their dots, not a sentence's end.
    p = _words_off(_repeating(_clean(pred)), trailing)
    r = _words_off(_repeating(_clean(ref)), trailing)
    p, r = _mixed(p), _mixed(r)
    if not _CHOICE.match(r):  # a label before the value, where the reference has none
        p = _CHOICE.sub("", p)
    if _LN.search(p) and not _LN.search(r):
        r = _LOG.sub("\\\\ln", r)
    if _LN.search(r) and not _LN.search(p):
        p = _LOG.sub("\\\\ln", p)
    if _PM.search(p) and not _PM.search(r):
        p = _expand_pm(p)
    if _PM.search(r) and not _PM.search(p):
        r = _expand_pm(r)
    return _rename(p, r), r


_PAIR = pl.Struct({"prediction": pl.String, "reference": pl.String, "same": pl.Boolean})


def fit_pair(prediction: pl.Expr, reference: pl.Expr) -> pl.Expr:
    """:func:`fit_pair_of` over two columns (struct ``{p, r, same}``, null where either is
    null), each distinct pair once."""
    pair = pl.struct(prediction.alias("prediction"), reference.alias("reference"))
    return pair.map_batches(_fit_batch, return_dtype=_PAIR, is_elementwise=True)


def _fit_batch(batch: pl.Series) -> pl.Series:
    df = batch.struct.unnest().with_row_index("__row")
    on = df.filter(pl.col("prediction").is_not_null() & pl.col("reference").is_not_null())
    out = pl.DataFrame(
        {
            "prediction": pl.repeat(None, len(df), dtype=pl.String, eager=True),
            "reference": pl.repeat(None, len(df), dtype=pl.String, eager=True),
            "same": pl.repeat(None, len(df), dtype=pl.Boolean, eager=True),
        }
    )
    if on.height:
        distinct = on.select("prediction", "reference").unique()
        fitted = [fit_pair_of(p, r) for p, r in distinct.iter_rows()]
        table = distinct.with_columns(
            pl.Series("prediction_form", [f[0] for f in fitted], dtype=pl.String),
            pl.Series("reference_form", [f[1] for f in fitted], dtype=pl.String),
            pl.Series("same", [f[2] for f in fitted], dtype=pl.Boolean),
        )
        rows = on.join(table, on=["prediction", "reference"], how="left", maintain_order="left")
        at = rows["__row"]
        out = out.with_columns(
            out["prediction"].scatter(at, rows["prediction_form"]),
            out["reference"].scatter(at, rows["reference_form"]),
            out["same"].scatter(at, rows["same"]),
        )
    return out.to_struct(batch.name)
