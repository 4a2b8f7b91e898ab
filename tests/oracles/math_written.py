"""Plain Python of forms written differently on the two sides (does not import xpert_frames):
digits with Chinese scale characters (``1万2千`` = 12000), roots joined inside ``\\text{}``, and
column vectors against tuples."""

from __future__ import annotations

import re


def _section(part: str, unit_before: str, last_section: bool = True) -> int | None:
    """A section below 万 (``2千5百``, ``2千5`` colloquial, ``500``), or None."""
    m = re.fullmatch(r"(?:([0-9])千)?(?:([0-9])百)?([0-9]*)", part)
    if m is None:
        return None
    th, hu, rest = m.groups()
    value = int(th or 0) * 1000 + int(hu or 0) * 100
    if rest:
        last = "百" if hu else "千" if th else unit_before
        if len(rest) == 1 and last and (last_section or not (th or hu)):
            value += int(rest) * {"千": 100, "百": 10, "万": 1000, "亿": 10**7}[last]
        elif th or hu or len(rest) > {"万": 4, "亿": 8}.get(unit_before, 0):
            return None
        else:
            value += int(rest)
    return value


def cn_digit_scales(s: str) -> str:
    """``1万2千`` → ``12000``, ``3万5`` → ``35000``, ``1亿2千万`` → ``120000000``."""

    def one(m: re.Match[str]) -> str:
        run = m.group(0)
        high, _, low = run.rpartition("亿") if "亿" in run else ("", "", run)
        mid, _, units = low.rpartition("万") if "万" in low else ("", "", low)
        values = []
        for part, before in ((high, ""), (mid, ""), (units, "万" if mid else "亿" if high else "")):
            if part == "" and before == "":
                values.append(0)
                continue
            final = part is units
            v = _section(part, before, final) if not part.isdigit() or before else int(part)
            if v is None or (part.isdigit() and len(part) > 4 and not before):
                return run
            values.append(v)
        if ("亿" in run and values[0] == 0) or ("万" in low and values[1] == 0):
            return run
        return str(values[0] * 10**8 + values[1] * 10**4 + values[2])

    if not re.search(r"[0-9][万亿千百][0-9]", s):
        return s
    run = r"(?<![0-9.,])[0-9][0-9万亿千百]*[万亿千百][0-9万亿千百]*(?![0-9.千百万亿克米瓦分卡])"
    return re.sub(run, lambda m: one(m) if re.search("[万亿千百][0-9]", m.group(0)) else m[0], s)


def text_joined(span: str) -> str | None:
    """``x=-2 \\text{ or } x=3`` → ``x=-2, x=3`` (None when nothing is joined in text)."""
    joined = re.sub(r"(?i)\s*\\text\s*\{\s*(?:or|and|或者|或|和|,|，)\s*\}\s*", ", ", span)
    return None if joined == span else joined


def _balanced(s: str) -> bool:
    depth = 0
    for ch in s:
        depth += 1 if ch in "([{" else -1 if ch in ")]}" else 0
        if depth < 0:
            return False
    return depth == 0


def _split_commas(s: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in s:
        depth += 1 if ch in "([{" else -1 if ch in ")]}" else 0
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*parts, cur.strip()]


def column(span: str) -> list[str] | None:
    m = re.fullmatch(r"\\begin\{([pb])matrix\}(.*)\\end\{\1matrix\}", span.strip(), re.S)
    if m is None or "&" in m[2]:
        return None
    entries = [e.strip() for e in m[2].split("\\\\")]
    if entries and entries[-1] == "":
        entries.pop()
    return entries if len(entries) > 1 and all(entries) else None


def as_tuple(span: str) -> list[str] | None:
    s = span.strip()
    if len(s) < 2 or s[0] != "(" or s[-1] != ")" or not _balanced(s[1:-1]):
        return None
    parts = _split_commas(s[1:-1])
    return parts if len(parts) > 1 and all(parts) else None


def vector(span: str, ref: str) -> str | None:
    """A column vector as the tuple reference's form, a tuple as the column reference's."""
    col, ref_col, ref_tup = column(span), column(ref), as_tuple(ref)
    if col is not None and ref_col is None and ref_tup is not None and len(ref_tup) == len(col):
        return "(" + ", ".join(col) + ")"
    tup = as_tuple(span) if ref_col is not None else None
    if tup is not None and ref_col is not None and len(tup) == len(ref_col):
        return "\\begin{pmatrix} " + " \\\\ ".join(tup) + " \\end{pmatrix}"
    return None
