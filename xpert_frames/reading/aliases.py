"""Forms of one reference that state the same answer (generated once per distinct reference):
the reference with its parenthetical remark dropped and kept (``(Group Captain) Peter
Townsend``), a quoted nickname in place of the first name (``James "Jamie" Dornan``), a place
before ``, in`` / ``, at`` (``Tandi, in Lahaul``), the first sentence of a reference that opens
with ``...``, a full date in the other English order (``10 May 1940``, ``May 10, 1940``), and
person-name variants (middle names optional, ``Johnny`` for ``John``: the
table :data:`~xpert_frames.reading.vocabulary.DIMINUTIVES`), and a Chinese term with and without
its head (``盗窃`` and ``盗窃罪``: :data:`~xpert_frames.reading.vocabulary.TERM_HEADS_ZH`)."""

from __future__ import annotations

import re

from xpert_frames.reading.vocabulary import DIMINUTIVES, TERM_HEADS_ZH

_SHORT = {name: forms for forms in DIMINUTIVES for name in forms}
_PARENS = re.compile(r"\s*[(（][^()（）]*[)）]\s*")
_NICK = re.compile(r"^(\S+)\s+[\"“'‘]([^\"”'’\s]+)[\"”'’]\s+(.+)$")
_PLACE = re.compile(r"^(?:(?:at|in)\s+)?([^,]+),\s+(?:in|at)\s+\S")
_ELLIPSIS = re.compile(r"^(?:\.\.\.|…)\s*([^.!?]+)")
_PERSON = re.compile(r"^[A-Z][a-z]+(?: [A-Z][a-z]+){1,2}$")
_CHINESE_TERM = re.compile(r"^[\u3400-\u9fff]{2,}$")
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
_DAY_MONTH_YEAR = re.compile(rf"^(?:on\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTH}),?\s+(\d{{4}})$")
_MONTH_DAY_YEAR = re.compile(rf"^(?:on\s+)?({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})$")


def reference_forms(reference: str) -> list[str]:
    """The reference and the other forms that state it (the reference first, no repeats)."""
    ref = reference.strip()
    out = [ref]
    if _PARENS.search(ref):
        out.append(" ".join(_PARENS.sub(" ", ref).split()))
        out.append(" ".join(re.sub(r"[()（）]", " ", ref).split()))
    nick = _NICK.match(ref)
    if nick:
        out += [f"{nick.group(2)} {nick.group(3)}", f"{nick.group(1)} {nick.group(3)}"]
    place = _PLACE.match(ref)
    if place:
        out.append(place.group(1).strip())
    lead = _ELLIPSIS.match(ref)
    if lead:
        out.append(lead.group(1).strip())
    out += _date_orders(" ".join(ref.split()))
    out += _term_heads(ref)
    for form in list(out):
        out += _name_variants(form)
    return [f for f in dict.fromkeys(out) if f]


def _date_orders(ref: str) -> list[str]:
    """``10 May 1940`` -> ``May 10, 1940`` and back (the two English orders of a full date)."""
    dmy = _DAY_MONTH_YEAR.match(ref)
    if dmy:
        return [f"{dmy.group(2)} {dmy.group(1)}, {dmy.group(3)}"]
    mdy = _MONTH_DAY_YEAR.match(ref)
    if mdy:
        return [f"{mdy.group(2)} {mdy.group(1)} {mdy.group(3)}"]
    return []


def _term_heads(ref: str) -> list[str]:
    """``盗窃`` -> ``盗窃罪`` and back (a Chinese term with and without its head)."""
    if not _CHINESE_TERM.match(ref):
        return []
    for head in TERM_HEADS_ZH:
        if ref.endswith(head):
            return [ref[: -len(head)]] if len(ref) > len(head) + 1 else []
    return [ref + head for head in TERM_HEADS_ZH]


def _name_variants(name: str) -> list[str]:
    """``John Ernest Crawford`` -> ``John Crawford``, ``Johnny Crawford``, ``Jack Crawford``
    (a known first name only: ``New York City`` has none)."""
    if not _PERSON.match(name):
        return []
    words = name.split()
    first, last = words[0], words[-1]
    forms = _SHORT.get(first.lower())
    if forms is None:
        return []
    out = [f"{first} {last}"] if len(words) == 3 else []
    out += [f"{f.capitalize()} {last}" for f in forms if f != first.lower()]
    return out
