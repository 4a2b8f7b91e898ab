"""Plain Python of the clock-time, ratio and number-list rules (does not import xpert_frames),
written apart from ``xpert_frames.evaluators.math_answer.times``: no regular expressions, the
texts are read by scanning characters (digits are what ``str.isdecimal`` says, spaces what
``str.isspace`` says, as ``\\d`` and ``\\s`` of Python's ``re`` are).

- A reference that is one clock time ``H:MM[:SS]`` (an am/pm after it ignored) equals the
  prediction's clock time (its last box, else the last clock time among its last 200
  characters) when hours, minutes and seconds are the same numbers.
- A reference that is one ratio ``a:b`` (not ``H:MM``) equals the same ratio or the number
  ``a/b`` in the prediction (its last box, else its last number among its last 200 characters).
- A reference that lists three numbers or more equals a last box listing the same numbers in
  any order (a comma every three digits, up to five groups, is one number, not a list).
"""

from __future__ import annotations

from fractions import Fraction

#: How far back from the end of a prediction without a box its answer is looked for.
TAIL = 200
_BOX_WORDS = ("\\boxed", "\\fbox")


def _digit(c: str) -> bool:
    return c.isdecimal()


def last_box(text: str) -> str | None:
    """The content of the last ``\\boxed``/``\\fbox``: from the first ``{`` after it to the
    brace that closes it; None when there is no such box or it never closes."""
    before = max(len(text.rpartition(word)[0]) if word in text else -1 for word in _BOX_WORDS)
    if before < 0:
        return None
    brace = text.find("{", before)
    if brace < 0:
        return None
    opened = 0
    for i, c in enumerate(text[brace:], start=brace):
        opened += (c == "{") - (c == "}")
        if opened == 0:
            return text[brace + 1 : i]
    return None


def _plain(text: str) -> str:
    """Without ``\\text``, ``\\mathrm`` and ``$``; braces and spaces as one space; no spaces or
    dots at either end."""
    for word in ("\\text", "\\mathrm", "$"):
        text = text.replace(word, "")
    out: list[str] = []
    for c in text:
        if c in "{}" or c.isspace():
            if not out or out[-1] != " ":
                out.append(" ")
        else:
            out.append(c)
    return "".join(out).strip(" .")


def _digits_at(text: str, i: int) -> int:
    """Index after the run of digits starting at ``i``."""
    while i < len(text) and _digit(text[i]):
        i += 1
    return i


def _spaces_at(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _decimal(text: str) -> bool:
    """``text`` is digits, optionally a dot and digits."""
    whole, dot, part = text.partition(".")
    return (
        whole != ""
        and all(map(_digit, whole))
        and (not dot or (part != "" and all(map(_digit, part))))
    )


def _signed(text: str) -> bool:
    return _decimal(text[1:] if text.startswith("-") else text)


def _clock(text: str) -> tuple[int, int, int] | None:
    """(hours, minutes, seconds) of ``H:MM[:SS]`` (hours of one or two digits, the others of
    two) with an optional am/pm after it, else None."""
    hours = _digits_at(text, 0)
    if not 1 <= hours <= 2 or text[hours : hours + 1] != ":":
        return None
    minutes = _digits_at(text, hours + 1)
    if minutes - hours - 1 != 2:
        return None
    i, seconds = minutes, 0
    if text[i : i + 1] == ":":
        end = _digits_at(text, i + 1)
        if end - i - 1 != 2:
            return None
        i, seconds = end, int(text[i + 1 : end])
    rest = text[i:].lstrip()
    if rest and rest[0] in "aApP":
        rest = rest[1:]
        rest = rest[1:].lstrip() if rest.startswith(".") else rest.lstrip()
        if rest[:1] not in ("m", "M") or not rest:
            return None
        rest = rest[2:] if rest[1:2] == "." else rest[1:]
    if rest:
        return None
    return int(text[:hours]), int(text[hours + 1 : minutes]), seconds


def _ratio(text: str) -> tuple[str, str] | None:
    """(a, b) of ``a : b``, both plain decimals, else None."""
    a, colon, b = text.partition(":")
    a, b = a.rstrip(), b.lstrip()
    return (a, b) if colon and _decimal(a) and _decimal(b) else None


def _runs(text: str, members: str) -> list[tuple[int, int]]:
    """(start, end) of each maximal run of digits and the characters ``members``."""
    out = []
    i = 0
    while i < len(text):
        if _digit(text[i]) or text[i] in members:
            j = i
            while j < len(text) and (_digit(text[j]) or text[j] in members):
                j += 1
            out.append((i, j))
            i = j
        else:
            i += 1
    return out


def _last_clock_in(text: str) -> str:
    """The last run of digits and colons that is ``H:MM`` or ``H:MM:SS``, else ``""``."""
    found = ""
    for start, end in _runs(text, ":"):
        run = text[start:end]
        pieces = run.split(":")
        if (
            len(pieces) in (2, 3)
            and 1 <= len(pieces[0]) <= 2
            and all(len(p) == 2 for p in pieces[1:])
        ):
            found = run
    return found


def _last_number_in(text: str) -> str:
    """The last run of digits and dots that is a plain decimal, with the minus sign before it
    when that sign does not itself follow a digit or dot; else ``""``."""
    found = ""
    for start, end in _runs(text, "."):
        run = text[start:end]
        if not _decimal(run):
            continue
        before = text[start - 2 : start - 1] if start >= 2 else ""
        signed = (
            start >= 1
            and text[start - 1] == "-"
            and not (before and (_digit(before) or before == "."))
        )
        found = "-" + run if signed else run
    return found


def colon_equal_of(prediction: str, reference: str) -> bool | None:
    """Whether the prediction states the reference's clock time or ratio; None when the
    reference is neither (module docs)."""
    box = last_box(reference)
    ref = _plain(box if box is not None else reference)
    clock, ratio = _clock(ref), _ratio(ref)
    if ratio and len(ratio[1]) == 2 and "." not in ratio[0] + ratio[1]:
        ratio = None  # H:MM is a clock time
    if clock is None and ratio is None:
        return None
    box = last_box(prediction)
    said = _plain(box) if box is not None else None
    if clock is not None:
        if said is None:
            said = _last_clock_in(prediction[-TAIL:])
        return _clock(said) == clock if _clock(said) is not None else False
    if ratio is None or not float(ratio[1]):  # as a float: 0.000...1 past its range is 0
        return None
    want = Fraction(ratio[0]) / Fraction(ratio[1])
    if said is None:
        said = _last_number_in(prediction[-TAIL:])
    pair = _ratio(said)
    if pair and float(pair[1]):
        return Fraction(pair[0]) / Fraction(pair[1]) == want
    if _signed(said):
        return Fraction(said) == want
    return False


def _numbers(text: str) -> list[Fraction] | None:
    """The numbers a list of three or more writes, sorted; None for anything else (and for one
    number written with a comma every three digits)."""
    text = text.replace("\\left", "").replace("\\right", "")
    kept: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in ",;! {}":
            i += 2
            continue
        if c not in "{}$" and not c.isspace():
            kept.append(c)
        i += 1
    items = "".join(kept).split(",")
    if len(items) < 3 or not all(map(_signed, items)):
        return None
    if len(items) <= 5 and all(len(i) == 3 and all(map(_digit, i)) for i in items[1:]):
        return None
    return sorted(Fraction(i) for i in items)


def same_numbers_of(prediction: str, reference: str) -> bool | None:
    """Whether the prediction's last box lists the reference's numbers (three or more, any
    order, each as often); None when either is no such list."""
    want = _numbers(reference)
    box = last_box(prediction)
    if want is None or box is None:
        return None
    got = _numbers(box)
    return None if got is None else got == want


def _after_dollar(text: str) -> str:
    text = text.lstrip()
    return (text[1:] if text.startswith("$") else text).lstrip()


def colon_screen(answer: str) -> bool:
    """The answer may be a clock time or a ratio: spaces, a ``$``, a ``\\boxed{``, a decimal,
    a colon and a digit at its start."""
    text = _after_dollar(answer)
    text = (text[len("\\boxed{") :] if text.startswith("\\boxed{") else text).lstrip()
    end = _digits_at(text, 0)
    if end == 0:
        return False
    if text[end : end + 1] == "." and _digit(text[end + 1 : end + 2] or "x"):
        end = _digits_at(text, end + 1)
    rest = text[end:].lstrip()
    return rest.startswith(":") and _digit(rest[1:].lstrip()[:1] or "x")


def list_screen(answer: str) -> bool:
    """The answer is three numbers or more and commas, in an optional ``$...$``."""
    text = _after_dollar(answer).rstrip()
    text = (text[:-1] if text.endswith("$") else text).rstrip()
    items = [item.strip() for item in text.split(",")]
    return len(items) >= 3 and all(map(_signed, items))
