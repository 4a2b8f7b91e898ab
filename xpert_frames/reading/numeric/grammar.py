"""The regexes behind :mod:`xpert_frames.reading.numeric.parse`, and the text normalization they
expect.

Polars runs Rust's ``regex`` crate: no look-around and no back-references, so what a look-around
would do is done by normalizing first (binary minus, ordinals and common words that contain
numeral characters, such as ``一共`` or ``十分``, are rewritten) and by ASCII word boundaries.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import polars as pl

from xpert_frames.reading.numeric.chinese import DIGITS, INT_CHARS
from xpert_frames.reading.numeric.forms import LATEX_FORMS
from xpert_frames.reading.numeric.units import unit_table
from xpert_frames.reading.spans import CLAUSE_END, SENTENCE_END
from xpert_frames.reading.vocabulary import (
    CLAUSE_CONCLUSION,
    CONCLUSION_EN,
    NUMBER_STATEMENTS,
)

_D = "[" + "".join(DIGITS) + "]"

#: ASCII number: integer with optional thousands separators, decimals, exponent.
ASCII_NUMBER = r"(?:(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
#: Chinese numeral in running text: starts with a digit character or 十.
CHINESE_NUMBER = f"(?:{_D}|十)[{INT_CHARS}]*(?:点{_D}+)?"

#: Answer statements; the text after the last one holds the answer.
STATEMENT_MARKERS: tuple[str, ...] = NUMBER_STATEMENTS

# Words that contain numeral characters but are not numbers; "十分之" is kept as it is.
_WORDS: dict[str, str] = {
    "十分之": "十分之",
    "十分": "很",
    "一共": "共",
    "一些": "些",
    "一下": "下",
    "一样": "样",
    "一起": "起",
    "一定": "定",
    "一般": "般",
    "一直": "直",
    "一旦": "旦",
    "一切": "切",
    "一致": "致",
    "一边": "边",
    "一方面": "方面",
    "一步": "步",
    "每一": "每",
    "统一": "统",
    "唯一": "唯",
    "三角": "角",
    "四边形": "边形",
    "五边形": "边形",
    "六边形": "边形",
    "一元一次": "元次",
    "一元二次": "元次",
    "二元一次": "元次",
    "三元一次": "元次",
    "一次函数": "次函数",
    "二次函数": "次函数",
    "一次方程": "次方程",
    "二次方程": "次方程",
    "零件": "件",
    "零部件": "部件",
    "零钱": "钱",
    "零食": "食",
    "零售": "售",
}
_LATEX: dict[str, str] = {
    "\\dfrac": "\\frac",
    "\\tfrac": "\\frac",
    "\\left": "",
    "\\right": "",
    "$": "",
    "{,}": ",",
    "\\,": "",
    "\\!": "",
    "\\%": "%",
    "\\times": "×",
    "\\cdot": "×",
    "−": "-",
    "﹣": "-",
    "℃": "°C",
    "℉": "°F",
}
# Full-width ASCII forms except the full-width comma, which separates clauses, not thousands.
_WIDTH: dict[str, str] = {chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F) if c != 0xFF0C}
_WIDTH["\u3000"] = " "


def _escape(text: str) -> str:
    return re.sub(r"([\\.+*?()|\[\]{}^$#&~-])", r"\\\1", text)


#: A bare power of ten (``10^{5000}``, ``10^5``, ``10^{-3}``; not a digit's, letter's or
#: subscript's ``…10^n``): read as its value, not as its exponent. ``m×10^n`` is
#: :func:`rewrite_text`'s.
POWER_OF_TEN = r"(^|[^0-9A-Za-z.^_])10\s*\^\s*(?:\{\s*([-+]?[0-9]+)\s*\}|([-+]?[0-9]+))"
#: What :func:`powers_of_ten` marks a power of ten with before writing it out.
_POWER_MARK = "\x00"
#: Powers of ten up to here are written out in digits (an integer, compared exactly from
#: 2**53 on); larger ones, beyond Float64, in E notation (which has an exact key there too,
#: :mod:`xpert_frames.reading.numeric.exact`).
_WRITTEN_OUT_UP_TO = 308
_POWERS_WRITTEN = {
    f"{_POWER_MARK}{n}{_POWER_MARK}": "1" + "0" * n for n in range(_WRITTEN_OUT_UP_TO + 1)
}


def powers_of_ten(text: pl.Expr) -> pl.Expr:
    """Every bare power of ten of ``text`` (:data:`POWER_OF_TEN`) as its value: in digits up
    to ``10^308``, in E notation beyond (``1e5000``) and for negative exponents (``1e-3``)."""
    mark = _POWER_MARK
    marked = text.str.replace_all(POWER_OF_TEN, f"${{1}}{mark}${{2}}${{3}}{mark}")
    keys = list(_POWERS_WRITTEN)
    written = marked.str.replace_many(keys, [_POWERS_WRITTEN[k] for k in keys])
    return written.str.replace_all(f"{mark}([-+]?[0-9]+){mark}", "1e${1}")


#: A bare power of a one-digit base (``2^{53}``, ``3^4``; not a digit's, letter's or
#: subscript's): :func:`small_powers` writes it out, up to :data:`_SMALL_EXPONENTS` (2 up to
#: ``2^128``, the others up to 64); a larger one is left as written.
SMALL_POWER = r"(^|[^0-9A-Za-z.^_])([2-9])\s*\^\s*(?:\{\s*([0-9]+)\s*\}|([0-9]+))"
_SMALL_EXPONENTS = {2: 128, **dict.fromkeys(range(3, 10), 64)}
_SMALL_WRITTEN = {
    f"{_POWER_MARK}{b}^{e}{_POWER_MARK}": str(b**e)
    for b, top in _SMALL_EXPONENTS.items()
    for e in range(top + 1)
}


def small_powers(text: pl.Expr) -> pl.Expr:
    """Every bare power of a one-digit base (:data:`SMALL_POWER`) as its value in digits
    (``$2^{53}$`` -> ``$9007199254740992$``, ``3^4`` -> ``81``): a stated answer written as a
    power is its value, not its exponent. Rows without ``^`` are left as they are."""
    mark = _POWER_MARK
    hit = pl.when(text.str.contains("^", literal=True)).then(text)
    marked = hit.str.replace_all(SMALL_POWER, f"${{1}}{mark}${{2}}^${{3}}${{4}}{mark}")
    keys = list(_SMALL_WRITTEN)
    written = marked.str.replace_many(keys, [_SMALL_WRITTEN[k] for k in keys])
    return pl.coalesce(written.str.replace_all(mark, "", literal=True), text)


#: What :func:`fold_text` replaces, and by what.
#: A currency's letters glued to its dollar sign (``US$5``, ``HK$300``): the sign goes (as every
#: ``$`` does) and a space keeps the number apart from the letters; else ``US5`` would be a word
#: with a digit in it (``forms.GLUED_TRIGGER``), not a number.
_CURRENCY: dict[str, str] = {f"{c}$": f"{c} " for c in ("US", "HK", "NT", "NZ", "AU", "CA", "SG")}
FOLDS: dict[str, str] = _WIDTH | _LATEX | _CURRENCY | LATEX_FORMS | _WORDS


def fold_text(text: pl.Expr) -> pl.Expr:
    """Full-width forms, LaTeX spellings and non-numeric words, in one Aho-Corasick pass (a
    text without any key of :data:`FOLDS` is left as it is)."""
    keys = sorted(FOLDS, key=len, reverse=True)
    return text.str.replace_many(keys, [FOLDS[k] for k in keys], leftmost=True)


#: The regex rewrites of folded text, in order: ``(literal, pattern, replacement)``, every
#: match of ``pattern`` holding ``literal`` (a text without it is left as it is).
REWRITES: tuple[tuple[str, str, str], ...] = (
    ("\\", r"\\(?:text|mathrm|mathbf|textbf|rm|operatorname|mbox)\s*\{([^{}]*)\}", "${1}"),
    ("×", r"([0-9])\s*×\s*10\s*\^\s*\{?\s*([-+]?[0-9]+)\s*\}?", "${1}e${2}"),
    ("第", r"第\s*[零〇一二两三四五六七八九十百千0-9]+", "第#"),
    # A minus glued to, or spaced on both sides after, a digit, letter or bracket is binary
    # ("7-2", "7 - 2"; not "to -12", nor an exponent's sign in "1e-3").
    ("-", r"([0-9A-DF-Za-df-z)\]}]|[^0-9.][eE]|^[eE])(?:-|[ \t]+-[ \t]+)", "${1} − "),
)


#: Literals one of which every match of the first rewrite (``\\text{}`` and the like) holds.
WRAPPERS = ("\\text", "\\mathrm", "\\mathbf", "\\rm", "\\operatorname", "\\mbox")


def rewrite_text(text: pl.Expr) -> pl.Expr:
    """The regex rewrites of folded text (:data:`REWRITES`): ``\\text{}``, ``×10^n``,
    ordinals, binary minus."""
    out = text
    for _, pattern, replacement in REWRITES:
        out = out.str.replace_all(pattern, replacement)
    return out


def _replace_all(text: pl.Expr, pattern: str, replacement: str) -> pl.Expr:
    return text.str.replace_all(pattern, replacement)


#: :func:`rewrite_text` then :func:`powers_of_ten`, one function per rewrite, in order.
REWRITE_STEPS: tuple[Callable[[pl.Expr], pl.Expr], ...] = (
    *(functools.partial(_replace_all, pattern=p, replacement=r) for _, p, r in REWRITES),
    powers_of_ten,
)


def rewrite_rows(
    text: pl.Series, steps: Sequence[tuple[pl.Series, Callable[[pl.Expr], pl.Expr]]]
) -> tuple[pl.Series, pl.Series]:
    """``text`` through the rewrites ``steps`` (``(mask, rewrite)`` in order, such as
    :data:`REWRITE_STEPS`), each run only on the rows of its mask (which must hold wherever
    the rewrite can change a text), and the mask of the rows changed. The rows a rewrite
    changed are written back in place: a filter and a scatter of those rows cost less than a
    ``when`` over the column (0.002 vs 0.019 CPU-s per rewrite of 283,000 texts)."""
    text = text.clone()  # scattered in place below; the caller's series stays as it is
    changed = pl.repeat(False, len(text), eager=True)
    for hit, step in steps:
        hit = hit.fill_null(False)
        at = hit.arg_true()
        if len(at) == 0:
            continue
        part = text.filter(hit)
        out = part.to_frame("text").select(step(pl.col("text"))).to_series()
        differs = out.ne_missing(part)
        if differs.any():
            at = at.filter(differs)
            text = text.scatter(at, out.filter(differs))
            changed = changed.scatter(at, True)
    return text, changed


def normalize_text(text: pl.Expr) -> pl.Expr:
    """Fold full-width forms, LaTeX wrappers, ``×10^n``, ordinals, binary minus and
    non-numeric words containing numeral characters (see module docs)."""
    return rewrite_text(fold_text(text))


@dataclass(frozen=True, slots=True)
class Grammar:
    """Regexes of one normalization setting."""

    chinese: bool
    candidate: str  #: a number with optional sign and unit, unanchored
    whole: str  #: the same, anchored at both ends
    number_prefix: str  #: the number without its unit, anchored at the start
    number_groups: str  #: the number without its unit, anchored, with named groups
    #: :attr:`number_groups` for a text without ``\\frac``, ``/`` or ``分之``: its only form
    #: that can match then (the same groups), several times faster
    plain_groups: str
    marker: str  #: any answer statement
    late: str  #: after the last box: an answer statement or a conclusion
    through_late: str  #: the text up to and including the last of those
    answer_after: str  #: after a check: a box, or an answer statement with a number
    through_marker: str  #: the text up to and including the last answer statement
    sentence_end: str  #: :data:`~xpert_frames.reading.spans.SENTENCE_END`
    clause_end: str  #: :data:`~xpert_frames.reading.spans.CLAUSE_END`
    equals: str  #: group 1: the number of a final ``= n``
    mixed: bool  #: whether mixed numbers (``4 4/9``) are read


#: A check or verification of the answer (:func:`xpert_frames.reading.numeric.rules.candidates`): a
#: heading at a line start, "let's verify", "check:", 验证/检验/验算/检查.
CHECK = (
    r"(?i:(?:^|\n)[ \t#*>_-]*(?:check|checking|verify|verification|double[- ]check)\b"
    r"|\b(?:let['’]?s|let us|we can|now) (?:verify|check|double[- ]check)\b"
    r"|\b(?:check|checking|verify|verification)\s*[:：])"
    r"|验证|检验|验算|检查"
)
#: Substrings (ASCII case aside) that every :data:`CHECK` match holds (a cheap filter first).
CHECK_TRIGGERS = ["check", "verif", "验证", "检验", "验算", "检查"]
#: Literal words (ASCII case aside) that every
#: :data:`~xpert_frames.reading.vocabulary.CLAUSE_CONCLUSION` match holds.
CONCLUSION_WORDS = list(CONCLUSION_EN)


#: A text can hold a mixed number (``4 4/9``) only if it matches this; the others are read
#: with the grammar without that form, whose regexes are a third faster.
MIXED_TRIGGER = r"[0-9] +[0-9]+\s*/\s*[0-9]"


def _unit_pattern() -> str:
    aliases = [*unit_table().aliases, "%", "‰"]
    parts = []
    for alias in sorted(set(aliases), key=len, reverse=True):
        esc = _escape(alias)
        parts.append(esc + "(?-u:\\b)" if alias[-1].isascii() and alias[-1].isalpha() else esc)
    return "(?:" + "|".join(parts) + ")"


@functools.cache
def grammar(chinese: bool, mixed: bool = True) -> Grammar:
    """The regexes with (``chinese=True``, the ``normalize=True`` grammar) or without the
    Chinese forms; ``mixed=False``: without mixed numbers (for texts that cannot hold one,
    :data:`MIXED_TRIGGER`)."""
    num = f"(?:{ASCII_NUMBER}|{CHINESE_NUMBER})" if chinese else ASCII_NUMBER
    sign = "(?P<sign>[-+]|负)?" if chinese else "(?P<sign>[-+])?"
    frac = (
        rf"\\frac\s*\{{\s*(?P<frac_num>[-+]?{ASCII_NUMBER})\s*\}}"
        rf"\s*\{{\s*(?P<frac_den>[-+]?{ASCII_NUMBER})\s*\}}"
    )
    slash = rf"(?P<slash_num>{ASCII_NUMBER})\s*/\s*(?P<slash_den>{ASCII_NUMBER})"
    # A mixed number: a whole part, one or more spaces, a fraction (``4 4/9``; LaTeX
    # ``4\frac{4}{9}`` is rewritten to this form), or ``三又四分之一``.
    mixed_form = r"(?P<mixed_whole>[0-9]+) +(?P<mixed_num>[0-9]+)\s*/\s*(?P<mixed_den>[0-9]+)"
    forms = [frac, mixed_form] if mixed else [frac]
    if chinese:
        chinese_fraction = (
            rf"(?:(?P<zh_whole>{num})又)?(?P<zh_den>{num})\s*分之\s*(?P<zh_num>{num})"
        )
        forms += [f"百分之(?P<percent>{num})", chinese_fraction]
    forms.append(slash)
    plain = rf"(?P<plain>{num})(?:\s*(?P<mult>[万亿]))?" if chinese else f"(?P<plain>{num})"
    forms.append(plain)
    number = f"{sign}(?:{'|'.join(forms)})"
    unnamed = re.sub(r"\(\?P<\w+>", "(?:", number)
    candidate = f"{unnamed}(?:\\s*{_unit_pattern()})?"
    markers = "|".join(STATEMENT_MARKERS)
    return Grammar(
        chinese=chinese,
        candidate=candidate,
        whole=f"^{candidate}$",
        number_prefix=f"^{unnamed}",
        number_groups=f"^{number}$",
        plain_groups=f"^{sign}(?:{plain})$",
        marker=markers,
        late=f"{CLAUSE_CONCLUSION}|{markers}",
        through_late=f"(?s)^.*(?:{CLAUSE_CONCLUSION}|{markers})",
        answer_after=rf"\\(?:boxed|fbox)|(?:{markers})[^。\n；;!?]*[0-9{INT_CHARS}]",
        through_marker=f"(?s)^.*(?:{markers})",
        sentence_end=SENTENCE_END,
        clause_end=CLAUSE_END,
        equals=rf"=\s*({candidate})\s*[。.]?\s*$",
        mixed=mixed,
    )
