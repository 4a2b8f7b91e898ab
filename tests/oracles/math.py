"""Plain per-row Python of the math rules (imports nothing of xpert_frames itself).

Same rules as :mod:`xpert_frames.reading.numeric.parse` and
:mod:`xpert_frames.evaluators.math_answer`,
written the obvious way: string loops, Python ``re``, a character loop for Chinese numerals.
The unit table (data, ``xpert_frames/data/units.csv``) is shared, read as a file.
"""

from __future__ import annotations

import csv
import math
import re
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal
from pathlib import Path
from typing import Any

from tests.oracles import math_forms as mf
from tests.oracles import math_rules as mc
from tests.oracles import math_sets as ms
from tests.oracles import math_times as mt
from tests.oracles import math_words as mw
from tests.oracles.math_boxes import join_boxes
from tests.oracles.math_rules import DIG, cn_integer

UNITS_CSV = Path(__file__).resolve().parents[2] / "xpert_frames" / "data" / "units.csv"
with UNITS_CSV.open(encoding="utf-8") as fh:
    _UNIT_ROWS = list(csv.DictReader(fh))
CANON = {r["alias"]: r["canonical"] for r in _UNIT_ROWS}
DIMENSION = {r["canonical"]: r["dimension"] for r in _UNIT_ROWS}
FACTOR = {r["canonical"]: float(r["factor"]) for r in _UNIT_ROWS if r["factor"]}

CN_CHARS = "".join(DIG) + "十百千万亿"

# ----------------------------------------------------------------------------- normalization
REPLACE = {chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F) if c != 0xFF0C}
REPLACE["\u3000"] = " "
REPLACE |= {"\\dfrac": "\\frac", "\\tfrac": "\\frac", "\\left": "", "\\right": "", "$": ""}
REPLACE |= {"{,}": ",", "\\,": "", "\\!": "", "\\%": "%", "\\times": "×", "\\cdot": "×"}
REPLACE |= {"−": "-", "﹣": "-", "℃": "°C", "℉": "°F", "十分之": "十分之", "十分": "很"}
REPLACE |= mf.FORM_REPLACE
# Dollar amounts with the currency's letters (US$5, HK$300): the number stands apart.
REPLACE |= {c + "$": c + " " for c in ["US", "HK", "NT", "NZ", "AU", "CA", "SG"]}
for w, r in [
    ("一共", "共"), ("一些", "些"), ("一下", "下"), ("一样", "样"), ("一起", "起"),
    ("一定", "定"), ("一般", "般"), ("一直", "直"), ("一旦", "旦"), ("一切", "切"),
    ("一致", "致"), ("一边", "边"), ("一方面", "方面"), ("一步", "步"), ("每一", "每"),
    ("统一", "统"), ("唯一", "唯"), ("三角", "角"), ("四边形", "边形"), ("五边形", "边形"),
    ("六边形", "边形"), ("一元一次", "元次"), ("一元二次", "元次"), ("二元一次", "元次"),
    ("三元一次", "元次"), ("一次函数", "次函数"), ("二次函数", "次函数"),
    ("一次方程", "次方程"), ("二次方程", "次方程"), ("零件", "件"), ("零部件", "部件"),
    ("零钱", "钱"), ("零食", "食"), ("零售", "售"),
]:  # fmt: skip
    REPLACE[w] = r
LONGEST = max(map(len, REPLACE))


def normalize(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        for n in range(min(LONGEST, len(text) - i), 0, -1):
            if text[i : i + n] in REPLACE:
                out.append(REPLACE[text[i : i + n]])
                i += n
                break
        else:
            out.append(text[i])
            i += 1
    s = "".join(out)
    s = re.sub(r"\\(?:text|mathrm|mathbf|textbf|rm|operatorname|mbox)\s*\{([^{}]*)\}", r"\1", s)
    s = re.sub(r"([0-9])\s*×\s*10\s*\^\s*\{?\s*([-+]?[0-9]+)\s*\}?", r"\1e\2", s)
    s = re.sub(r"第\s*[零〇一二两三四五六七八九十百千0-9]+", "第#", s)
    return re.sub(r"([0-9A-DF-Za-df-z)\]}]|[^0-9.][eE]|^[eE])(?:-|[ \t]+-[ \t]+)", r"\1 − ", s)


# ----------------------------------------------------------------------------- grammar
AR = r"(?:(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
D = "[" + "".join(DIG) + "]"
CN = f"(?:{D}|十)[{CN_CHARS}]*(?:点{D}+)?"


def _unit_regex() -> str:
    parts = []
    for a in sorted({*CANON, "%", "‰"}, key=len, reverse=True):
        esc = re.escape(a)
        parts.append(esc + "(?![A-Za-z0-9_])" if a[-1].isascii() and a[-1].isalpha() else esc)
    return "(?:" + "|".join(parts) + ")"


def _body(chinese: bool) -> str:
    num = f"(?:{AR}|{CN})" if chinese else AR
    forms = [rf"\\frac\s*\{{\s*(?P<fa>[-+]?{AR})\s*\}}\s*\{{\s*(?P<fb>[-+]?{AR})\s*\}}"]
    forms.append(r"(?P<mw>[0-9]+) +(?P<ma>[0-9]+)\s*/\s*(?P<mb>[0-9]+)")
    if chinese:
        forms += [
            f"百分之(?P<pc>{num})",
            rf"(?:(?P<cw>{num})又)?(?P<da>{num})\s*分之\s*(?P<db>{num})",
        ]
    forms.append(rf"(?P<sa>{AR})\s*/\s*(?P<sb>{AR})")
    forms.append(rf"(?P<x>{num})(?:\s*(?P<mult>[万亿]))?" if chinese else f"(?P<x>{num})")
    sign = "(?P<sign>[-+]|负)?" if chinese else "(?P<sign>[-+])?"
    return sign + "(?:" + "|".join(forms) + rf")(?:\s*(?P<unit>{_unit_regex()}))?"


BODY = {c: _body(c) for c in (True, False)}
ANCHORED = {c: re.compile(BODY[c] + r"\Z") for c in (True, False)}
CAND = {c: re.compile(re.sub(r"\(\?P<\w+>", "(?:", BODY[c])) for c in (True, False)}
MARKERS = "最终答案|答案是|答案为|答案:|答:|结果是|结果为|所以|因此|故"
MARKERS += r"|(?i:the answer is)|(?i:final answer)|(?i:answer\s*:)|####"
STATEMENT = re.compile(rf"(?s).*(?:{MARKERS})(.*)")
BOXED = re.compile(r"(?s).*\\(?:boxed|fbox)\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}")
STATEMENT_LATE = re.compile(rf"(?s).*(?:{mc.CONCLUSION}|{MARKERS})(.*)")
SENTENCE = re.compile(r"(?s)(.*?)(?:[。；;！!？?\n]|\.(?:\s|\Z)|\Z)")
CLAUSE = re.compile(r"(?s)(.*?)(?:，|, |\Z)")


# ----------------------------------------------------------------------------- values
def number(token: str | None, chinese: bool) -> float | None:
    if token is None:
        return None
    try:
        return float(token.replace(",", ""))
    except ValueError:
        pass
    if not chinese:
        return None
    integer, _, decimals = token.partition("点")
    value = cn_integer(integer)
    if value is None or (decimals and not all(c in DIG for c in decimals)):
        return None
    return value + (float("0." + "".join(str(DIG[c]) for c in decimals)) if decimals else 0.0)


def parse(candidate: str | None, chinese: bool) -> tuple[float | None, str | None]:
    m = ANCHORED[chinese].match(candidate) if candidate is not None else None
    if m is None:
        return None, None
    g = m.groupdict()
    unit = g["unit"].strip() if g["unit"] else None
    value = None
    if g["fa"] is not None:
        value = _div(number(g["fa"], chinese), number(g["fb"], chinese))
    elif g["mw"] is not None:
        value = _div(number(g["ma"], chinese), number(g["mb"], chinese))
        value = None if value is None else float(g["mw"]) + value
    elif g.get("pc") is not None:
        value, unit = number(g["pc"], chinese), "%"
    elif g.get("da") is not None:
        value = _div(number(g["db"], chinese), number(g["da"], chinese))
        whole = number(g["cw"], chinese) if g.get("cw") else 0.0
        value = None if value is None or whole is None else whole + value
    elif g["sa"] is not None:
        value = _div(number(g["sa"], chinese), number(g["sb"], chinese))
    else:
        value = number(g["x"], chinese)
        mult = {"万": 1e4, "亿": 1e8}.get(g.get("mult") or "", 1.0)
        value = value * mult if value is not None else None
    if value is None:
        return None, unit
    if g["sign"] in ("-", "负"):
        value = -value
    value *= {"%": 0.01, "‰": 0.001}.get(unit or "", 1.0)
    return (value if math.isfinite(value) else None), unit


def _div(a: float | None, b: float | None) -> float | None:
    if a is None or b is None:
        return None
    return a / b if b != 0 else None  # x/0 is not a finite number


def candidates(text: str, chinese: bool) -> list[str]:
    return [m.group(0) for m in CAND[chinese].finditer(text)]


def _last(text: str | None, c: bool) -> str | None:
    found = candidates(text, c) if text is not None else []
    return found[-1] if found else None


def _or_words(found: str | None, text: str | None, c: bool) -> str | None:
    """English number words, only where a span has no number (normalized grammar only)."""
    if found is not None or text is None or not c or not mf.ENGLISH_WORD.search(text):
        return found
    return _last(mf.english(text), c)


def _sentence_number(tail: str, c: bool) -> str | None:
    """The number of the sentence that starts ``tail`` (after an answer statement)."""
    sentence = SENTENCE.match(tail.lstrip(" \t:,，：")).group(1)  # type: ignore[union-attr]
    clause = CLAUSE.match(sentence).group(1)  # type: ignore[union-attr]
    after = clause.rsplit("=", 1)[1] if "=" in clause else clause
    options = candidates(after, c) or candidates(sentence, c)
    return _or_words(options[-1] if options else None, sentence, c)


def extract(
    text: str | None, mode: str = "last", normalized: bool = True, decimal_comma: str = "auto"
) -> dict[str, Any]:
    if text is None:
        return {"value": None, "unit": None, "rule": None, "text": None, "approx": None}
    c = normalized
    n = mf.forms(normalize(text), decimal_comma) if c else text
    exact = approx = None
    if c:
        n, exact, approx = mf.approx(n, CAND[c].pattern)
    found = candidates(n, c)
    if mode == "first":
        cand, rule = (found[0], "first") if found else (None, "none")
    else:
        cand, rule = None, "none"
        n = mc.cut_check(n, lambda head: CAND[c].search(head) is not None, MARKERS, CN_CHARS)
        b = mf.last_box_match(BOXED, n)  # the last box, or none
        boxed = _or_words(_last(b.group(1), c), b.group(1), c) if b else None
        after_box = BOXED.sub("", n, count=1)
        late = b is not None and re.search(f"{mc.CONCLUSION}|{MARKERS}", after_box) is not None
        stmt = None
        s = (STATEMENT_LATE if late else STATEMENT).match(n)
        if s:
            stmt = _sentence_number(s.group(1), c)
        eq = re.search(rf"=\s*({CAND[c].pattern})\s*[。.]?\s*\Z", n)
        order = [("boxed", boxed), ("statement", stmt)]
        if late:
            order.reverse()
        last = _or_words(_last(n, c), n, c)
        for name, value in [
            *order,
            ("equals", eq.group(1) if eq else None),
            ("conclusion", mc.conclusion(n, c, last, _sentence_number) if last else None),
            ("last", last),
        ]:
            if value is not None:
                cand, rule = value, name
                break
    value, unit = parse(cand, c)
    approx_value = parse(approx, c)[0] if approx is not None and exact == cand else None
    return {"value": value, "unit": unit, "rule": rule, "text": cand, "approx": approx_value}


def parse_whole(
    text: str | None, normalized: bool = True, decimal_comma: str = "auto"
) -> tuple[float | None, str | None]:
    if text is None:
        return None, None
    if not normalized:
        return parse(text.strip(), False)
    n = mf.approx(mf.forms(normalize(text), decimal_comma), "(?!)")[0].strip()
    if mf.ENGLISH_WORD.search(n) and not re.search("[0-9]", n):
        n = mf.english(n)
    return parse(n, True)


# ----------------------------------------------------------------------------- scoring
INTEGER_TEXT = re.compile(
    r"([-+]?)([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(\.[0-9]+)?([eE][-+]?[0-9]+)?\s*([万亿])?(.*)", re.S
)


def int_key(text: str | None, scientific: bool = False) -> Decimal | None:
    """The exact value of a number written as an integer (any size; ``scientific``: also
    ``2.5e3``), else None. Decimal, not int: no digit limit, no float."""
    m = INTEGER_TEXT.fullmatch(text) if text is not None else None
    if m is None:
        return None
    sign, digits, point, exp, mult, rest = m.groups()
    if (exp and not scientific) or re.match(r"\s*[-+/%‰0-9.,×*^\\]", rest):
        return None
    if exp and not re.fullmatch(r"[eE][-+]?[0-9]{1,18}", exp):
        return None
    shift = int(exp[1:]) if exp else 0
    shift += {"万": 4, "亿": 8}.get(mult or "", 0)
    value = Decimal(sign + digits.replace(",", "") + (point or "")).scaleb(shift, EXACT)
    return value if value == value.to_integral_value() else None


#: Enough digits for any value here: decimal arithmetic stays exact.
EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)


def power_key(span: str | None) -> Decimal | None:
    """The exact value of an answer span that is an integer or ``[m ×] 10^{e}``, else None."""
    if span is None:
        return None
    span = span.strip(" \t\n\r$")
    m = re.fullmatch(
        r"([-+]?)\s*(?:([0-9]+(?:\.[0-9]+)?)\s*(?:\\times|\\cdot|×|\*|·)\s*)?"
        r"10\s*\^\s*(?:\{\s*([0-9]{1,18})\s*\}|([0-9]{1,18}))",
        span,
    )
    if m is None:
        return int_key(span) if re.fullmatch(r"[-+]?[0-9][0-9,]*(?:\.[0-9]+)?", span) else None
    sign, factor, braced, bare = m.groups()
    value = Decimal(sign + (factor or "1")).scaleb(int(braced or bare), EXACT)
    return value if value == value.to_integral_value() else None


def _beyond(v: float | None) -> bool:
    return v is None or not math.isfinite(v)


def close(
    p: float | None, r: float | None, tol: float, pt: str | None = None, rt: str | None = None
) -> bool:
    whole = (_beyond(p) or p == round(p)) and (_beyond(r) or r == round(r))  # type: ignore[arg-type]
    big = _beyond(p) or _beyond(r) or max(abs(p), abs(r)) >= 2.0**53  # type: ignore[arg-type]
    if whole and big:
        pk, rk = int_key(pt, _beyond(p)), int_key(rt, _beyond(r))
        if pk is not None and rk is not None:  # integers compare exactly at any size
            return pk == rk
        if (pk is not None and _beyond(p)) or (rk is not None and _beyond(r)):
            return False
    if p is None or r is None:
        return False
    if p == round(p) and r == round(r) and abs(p) < 2.0**53 and abs(r) < 2.0**53:
        return p == r  # two whole numbers must be equal
    if abs(r) < tol:
        return abs(p - r) <= tol
    return abs(p - r) <= tol * abs(r)


def mv_available() -> bool:
    from importlib.util import find_spec

    return find_spec("math_verify") is not None


def _plain(span: str) -> bool:
    return parse_whole(span)[0] is not None


def score(
    prediction: str | None,
    answer: str | None,
    **options: Any,
) -> dict[str, Any] | None:
    """:func:`score_read` with the rules for real answers on top: a reference stated in
    words (rule ``worded``), then a clock time or ratio (rule ``colon``), decides the score;
    an answer written exactly as the reference scores 1 (rule ``identical``)."""
    out = score_read(prediction, answer, **options)
    spans = (out.pop("_pspan"), out.pop("_rspan")) if out is not None else (None, None)
    if out is None or not options.get("normalize", True) or options.get("strict_format"):
        return out
    assert prediction is not None and answer is not None
    out = _said(out, prediction, answer, options)
    r = extract(
        answer,
        options.get("extract_mode", "last"),
        True,
        options.get("decimal_comma", "auto"),
    )
    plain = r["value"] is not None and r["text"] == spans[1]  # read as that number anyway
    if out["score"] != 1.0 and not plain and identical(join_boxes(prediction), *spans):
        return {**out, "score": 1.0, "rule": "identical"}
    return out


def _said(
    out: dict[str, Any], prediction: str, answer: str, options: dict[str, Any]
) -> dict[str, Any]:
    """The worded, colon and list rules over ``out``."""
    r = extract(
        answer,
        options.get("extract_mode", "last"),
        options.get("normalize", True),
        options.get("decimal_comma", "auto"),
    )
    whole = r["value"] is not None and r["text"] == answer.strip(" \t\n\r$")
    said = None if whole else mw.words(prediction, answer)
    rule = "worded"
    if said is None:
        said = mt.colon_equal_of(prediction, answer) if mt.colon_screen(answer) else None
        rule = "colon"
    if said is None and ":" not in out["rule"] and mt.list_screen(answer):
        said, rule = mt.same_numbers_of(prediction, answer), "list"
    if said is None:
        return out
    return {**out, "score": 1.0 if said else 0.0, "rule": rule}


def identical(prediction: str, pspan: str | None, rspan: str | None) -> bool:
    """The answer span, or the whole prediction when it is short, written as the reference
    span but for whitespace, ``$``, LaTeX spacing, a final period and a text wrapper around
    letters."""

    def bare(s: str) -> str:
        s = re.sub(
            r"\\(?:text|textbf|textrm|textnormal|mathrm|mbox)\s*\{\s*([A-Za-z][A-Za-z ]*?)\s*\}",
            r"\1",
            s,
        )
        return re.sub(r"\s+|\$|\\[,;:! ]|[.。]\Z", "", s)

    if rspan is None or not bare(rspan):
        return False
    ref = bare(rspan)
    whole = len(prediction.encode()) <= 2 * len(rspan.encode()) + 16 and bare(prediction) == ref
    return whole or (pspan is not None and bare(pspan) == ref)


def _written_once(text: str) -> str:
    """A text escaped twice (``\\\\le``, ``\\\\boxed``, line breaks as ``\\n``; no command with
    one backslash) with its escapes undone once."""
    doubled = re.search(r"\\\\[a-zA-Z]", text)
    single = re.search(r"(?:^|[^\\])\\(?:[a-mo-zA-Z]|n[a-zA-Z])", text)
    if not doubled or single:
        return text
    return text.replace("\\\\", "\0").replace("\\n", "\n").replace("\0", "\\")


def score_read(
    prediction: str | None,
    answer: str | None,
    *,
    tolerance: float = 1e-6,
    normalize: bool = True,
    require_units: bool = False,
    strict_format: bool = False,
    extract_mode: str = "last",
    decimal_comma: str = "auto",
    symbolic: str = "auto",
) -> dict[str, Any] | None:
    """``{score, value, unit, rule, extracted, expected}`` of one row; ``None`` for an
    invalid row."""
    if prediction is None or answer is None or not answer.strip():
        return None
    # The answer after a reasoning model's thinking, where it writes one.
    after = prediction.rsplit("</think>", 1)[1] if "</think>" in prediction else ""
    prediction = after if after.strip() else prediction
    prediction, answer = _written_once(prediction), _written_once(answer)
    # Several boxes ending a text with only connectors between them: one answer.
    prediction, answer = join_boxes(prediction), join_boxes(answer)
    if strict_format:
        pv, pu = parse_whole(prediction, normalize, decimal_comma)
        rule = "strict" if pv is not None else "none"
        p = {"text": prediction.strip() if pv is not None else None, "approx": None}
    else:
        p = extract(prediction, extract_mode, normalize, decimal_comma)
        pv, pu, rule = p["value"], p["unit"], p["rule"]
    r = extract(answer, extract_mode, normalize, decimal_comma)
    rv, ru = r["value"], r["unit"]
    rspan = mf.reference_span(answer)
    pspan = mf.fit_to_reference(mf.prediction_span(prediction, rule), rspan)
    ref_plain = rv is not None and r["text"] == answer.strip(" \t\n\r$")
    if ref_plain and mc.concluded(prediction, rule, MARKERS):
        pspan = None  # a conclusion after the last box: its number is the answer
    if normalize and not strict_format:
        glued = mf.glued_span(prediction, rule, p["text"], _fold)
        pspan = glued if pspan is None else pspan
        pspan, rspan = ms.fit_sets(prediction, pspan, rspan)
        sym = glued is not None or mf.is_symbolic(rspan, False, _fold, _plain)
        sym = sym or mf.is_symbolic(pspan, rule == "statement", _fold, _plain)
    else:
        sym = False
    if sym:
        use_mv = symbolic == "math_verify" or (symbolic == "auto" and mv_available())
        compared = mf.sqrt_latex(prediction if pspan is None else f"${pspan}$")
        if pspan is None and re.match(
            r"\s*[-+]?[0-9]*\.?[0-9]+(?:\s*,\s*[-+]?[0-9]*\.?[0-9]+)+\s*\.?\s*\Z", prediction
        ):
            compared = f"${prediction}$"  # a bare list of numbers is maths too
        pk = power_key(prediction if pspan is None else pspan)
        rk = power_key(rspan)
        if pk is not None and rk is not None:  # integers and powers of ten: exactly
            outcome, method = ("equal" if pk == rk else "different"), "integer"
        else:
            method = "symbolic" if use_mv else "latex-exact"
            fitted = mw.fit_pair_of(pspan, rspan) if pspan is not None else None
            if fitted is not None:
                compared, fit_r = mf.sqrt_latex(f"${fitted[0]}$"), fitted[1]
            else:
                fit_r = rspan
            if fitted is not None and fitted[2]:
                outcome = "equal"  # written identically once in comparable forms
            elif use_mv:
                outcome = mf.verify(compared, f"${mf.sqrt_latex(fit_r)}$")
            else:
                same = mf.latex_form(compared, _fold) == mf.latex_form(mf.sqrt_latex(fit_r), _fold)
                outcome = "equal" if same else "different"
        return {
            "score": 1.0 if outcome == "equal" else 0.0,
            "value": None,
            "unit": None,
            "rule": f"{rule}:{method}",
            "extracted": prediction if pspan is None else pspan,
            "expected": rspan,
            "_pspan": pspan,
            "_rspan": rspan,
        }
    ok = False
    texts = (p["text"], r["text"])
    if pv is not None and rv is not None:
        ok = _units_and_values(pv, pu, rv, ru, tolerance, normalize, require_units, texts)
    elif None not in texts:  # beyond Float64: only exact keys decide
        ok = close(pv, rv, tolerance, *texts) and (pu == ru or not require_units)
    av = p["approx"]
    decimal_ref = r["text"] is not None and re.search(r"[0-9]\.[0-9]", r["text"]) is not None
    if not ok and av is not None and rv is not None and decimal_ref and rv != round(rv):
        ok = close(av, rv, tolerance)
    return {
        "score": 1.0 if ok else 0.0,
        "value": pv,
        "unit": pu,
        "rule": rule,
        "extracted": p["text"],
        "expected": r["text"],
        "_pspan": pspan,
        "_rspan": rspan,
    }


def _fold(span: str) -> str:
    return normalize(span)


def _units_and_values(
    pv: float,
    pu: str | None,
    rv: float,
    ru: str | None,
    tol: float,
    norm: bool,
    req: bool,
    texts: tuple[str | None, str | None] = (None, None),
) -> bool:
    if not norm:
        return close(pv, rv, tol, *texts) and (pu == ru or not req)
    pc = CANON.get(pu, pu) if pu is not None else None
    rc = CANON.get(ru, ru) if ru is not None else None
    convertible = (
        pc != rc
        and pc is not None
        and rc is not None
        and DIMENSION.get(pc) is not None
        and DIMENSION.get(pc) == DIMENSION.get(rc)
        and pc in FACTOR
        and rc in FACTOR
    )
    if convertible:
        return close(pv * FACTOR[pc], rv * FACTOR[rc], tol)  # type: ignore[index]
    if req:
        return pc == rc and close(pv, rv, tol, *texts)
    if close(pv, rv, tol, *texts):
        return True
    if pu == "%" and ru != "%" and close(pv * 100.0, rv, tol):
        return True
    return ru == "%" and pu != "%" and close(pv, rv * 100.0, tol)
